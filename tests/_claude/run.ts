/**
 * One run of the real Claude Code CLI in `-p` mode against the scripted API stand-in, in a
 * sealed environment of its own, leaving nothing behind.
 *
 * @module
 */
import { join } from "../../src/_path.ts";
import { type ApiRequest, startApi } from "./api.ts";
import { claudeBinary } from "./cli.ts";
import type { Script } from "./messages.ts";
import { killRun, RUN_MARKER } from "./procs.ts";

/** What to run. */
export interface ClaudeRunOptions {
  /** The project directory: its `.claude/settings.json` configures the hooks. */
  cwd: string;
  /** The `-p` prompt. */
  prompt: string;
  /** The scripted model (see `startApi`). */
  script: Script;
  /** Directories put first on the CLI's PATH (and so its hooks' and tools'). */
  path?: string[];
  /** Extra environment for the CLI (after the fixed one, so it may override it). */
  env?: Record<string, string>;
  /** Extra CLI arguments, after the fixed ones. */
  args?: string[];
  /** The run is killed after this long. Default 120 s. */
  timeoutMs?: number;
}

/** What a run gave. */
export interface ClaudeRun {
  /** Exit code (137 or another signal code when killed). */
  code: number;
  stdout: string;
  stderr: string;
  /** Every request the API stand-in received, in order. */
  requests: ApiRequest[];
  /** What the script threw (each such request got a plain text reply). */
  scriptErrors: string[];
  /** Whether the timeout killed it. */
  timedOut: boolean;
  /** Wall-clock milliseconds from spawn to exit. */
  durationMs: number;
  /** Processes still alive after the CLI exited, which the run then killed (0 is right). */
  leftovers: number;
  /** The value of `TETHER_CLAUDE_RUN` in the environment of every process of the run. */
  marker: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Run `claude -p PROMPT --output-format json --dangerously-skip-permissions` in `cwd`, with a
 * fresh HOME and TMPDIR in a temp dir of its own and a clean environment (only PATH, HOME,
 * TMPDIR, SHELL, LANG and the variables that keep it offline), against a fresh API stand-in.
 * On timeout it is killed; in any case every process it started is ended, its temp dir removed
 * and the stand-in stopped before this returns.
 *
 * @param options cwd, prompt, script, PATH additions, env, args, timeout.
 * @returns Exit code, output, the requests, timing.
 * @throws {Error} when the binary cannot be installed (call `claudeBinary` first to skip).
 */
export async function runClaude(options: ClaudeRunOptions): Promise<ClaudeRun> {
  const binary = await claudeBinary();
  if (typeof binary !== "string") throw new Error(`Cannot run Claude Code: ${binary.skip}`);
  const api = startApi(options.script);
  const root = await Deno.makeTempDir({ prefix: "tether-claude-run-" });
  const marker = crypto.randomUUID();
  try {
    const home = join(root, "home");
    const tmp = join(root, "tmp");
    await Deno.mkdir(home);
    await Deno.mkdir(tmp);
    const env: Record<string, string> = {
      PATH: [...(options.path ?? []), Deno.env.get("PATH") ?? "/usr/bin:/bin"].join(":"),
      HOME: home,
      TMPDIR: tmp,
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "test",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      IS_SANDBOX: "1",
      ...options.env,
      [RUN_MARKER]: marker,
    };
    const args = [
      binary,
      "-p",
      options.prompt,
      "--output-format",
      "json",
      "--dangerously-skip-permissions",
      ...(options.args ?? []),
    ];
    const started = performance.now();
    // setsid: the run gets a session of its own (its pid is the session id), so a descendant
    // that detached from the process group is still found.
    const child = new Deno.Command("setsid", {
      args,
      cwd: options.cwd,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stdout = new Response(child.stdout).text();
    const stderr = new Response(child.stderr).text();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        Deno.kill(-child.pid, "SIGKILL"); // its process group, which setsid made
      } catch {
        // Gone already.
      }
      killRun(marker, child.pid).catch(() => {});
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let status: Deno.CommandStatus;
    try {
      status = await child.status;
    } finally {
      clearTimeout(timer);
    }
    const durationMs = Math.round(performance.now() - started);
    // Whatever outlived the CLI (a background shell, a hook) would hold the pipes open.
    const leftovers = await killRun(marker, child.pid);
    return {
      code: status.code,
      stdout: await stdout,
      stderr: await stderr,
      requests: api.requests,
      scriptErrors: api.errors,
      timedOut,
      durationMs,
      leftovers,
      marker,
    };
  } finally {
    await killRun(marker).catch(() => {});
    await api.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}
