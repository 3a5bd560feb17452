/**
 * The one git runner. Every git call in tether goes through {@linkcode runGit}:
 * arguments as an array (never a shell), hardened options that change no output,
 * typed errors with the stderr tail, and a retry that copes with `LD_*`/`DYLD_*`
 * variables that would otherwise make Deno refuse to spawn git under
 * `--allow-run=git`.
 *
 * @module
 */
import { encodePath } from "./paths.ts";
import { pinnedEnv, repositoryPin } from "./git_pin.ts";
import { splitTrace } from "./git_trace.ts";
import { failure, GitError, type GitResult, subcommand } from "./git_error.ts";

/** Options for one git call. */
export interface GitOptions {
  /** Directory git runs in (passed as `-C`, so a missing directory is git's error, not a spawn error). */
  cwd?: string;
  /** Set `LC_ALL=C` because the output is parsed. */
  parse?: boolean;
  /** Bytes or text for git's standard input. */
  stdin?: Uint8Array | string;
  /** Return a non-zero exit instead of throwing. */
  allowFailure?: boolean;
  /** Extra environment for this call only (for example `GIT_DIR` in tests). */
  env?: Record<string, string>;
  /** Stop git after this many milliseconds and fail (a read that could block forever). */
  timeoutMs?: number;
  /**
   * Start git with none of the caller's environment: only the hardening variables and
   * `env`. What git then finds is what the directory itself says, whatever `GIT_DIR`,
   * `GIT_WORK_TREE`, `GIT_INDEX_FILE` or the like the caller carries (Deno cannot unset
   * one variable, and an empty `GIT_DIR` is not an unset one).
   */
  cleanEnv?: boolean;
  /**
   * Start the git process in `/` (then `-C cwd`), so that a path naming "whoever asks"
   * (`/proc/self/cwd`, a symlink to it) names git's neutral start, never the caller's
   * directory. POSIX only.
   */
  neutralStart?: boolean;
  /**
   * Let git honour replace refs (`refs/replace/`), which every other call ignores. Only the
   * v1 fingerprint's `git status --porcelain` sets it: it must equal what the user's own
   * shell prints in the same repository.
   */
  keepReplaceObjects?: boolean;
  /**
   * Let git find the repository from `cwd` even while one is pinned
   * ({@linkcode pinRepository}): for a check of what the directory itself says now.
   */
  ownRepository?: boolean;
  /**
   * Environment variables git is asked to name (`GIT_TRACE2_ENV_VARS`, its trace on
   * stderr): tether runs without environment access, and git reports what it sees. Their
   * values come back in {@linkcode GitResult.traced}; the trace lines never reach `stderr`.
   */
  traceEnv?: readonly string[];
}

/**
 * The options placed before every subcommand: none of them changes what git prints. No
 * hook runs for any call (a ref write, a worktree add or remove, an index write would
 * otherwise run one from the shared `<common>/hooks` or any `core.hooksPath`, which a
 * child can write).
 */
export const HARDENING_ARGS: readonly string[] = [
  "--no-pager",
  "--no-optional-locks",
  "-c",
  "core.hooksPath=/dev/null", // tether:guard no-hooks
  "-c",
  "core.fsmonitor=false",
  "-c",
  "protocol.allow=never",
  // The commit-graph is a cache a child can rewrite (in the shared object directory or an
  // alternate), and git takes a commit's root tree from it unchecked: status, diff-index and
  // diffs against a parent would compare with a tree the commit does not have. No call reads it.
  "-c",
  "core.commitGraph=false", // tether:guard no-commit-graph
];

/**
 * Git's trace switches, each set to `0`, which turns it off. A caller could otherwise
 * point one at a file and have git write there what it read (every worktree's reflog, for
 * coord). Empty is not off for trace2: it then takes `trace2.eventTarget` and the like from
 * the system or global configuration (which a caller can choose with `HOME` or
 * `GIT_CONFIG_GLOBAL`), and trace2 never reads `-c` options.
 */
export const TRACE_VARIABLES: readonly string[] = [
  "GIT_TRACE",
  "GIT_TRACE2",
  "GIT_TRACE2_EVENT",
  "GIT_TRACE2_PERF",
  "GIT_TRACE2_CONFIG_PARAMS",
  "GIT_TRACE2_ENV_VARS",
  "GIT_TRACE_CURL",
  "GIT_TRACE_FSMONITOR",
  "GIT_TRACE_PACK_ACCESS",
  "GIT_TRACE_PACKET",
  "GIT_TRACE_PACKFILE",
  "GIT_TRACE_PERFORMANCE",
  "GIT_TRACE_REFS",
  "GIT_TRACE_SETUP",
  "GIT_TRACE_SHALLOW",
  "GIT_TRACE_WORKING_TREE_ENCODING",
];

/**
 * Environment added to every git call: no lazy fetch, no prompt, no pager, no trace
 * output. None of it changes what git prints on stdout.
 */
export const HARDENING_ENV: Readonly<Record<string, string>> = {
  GIT_NO_LAZY_FETCH: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  ...Object.fromEntries(TRACE_VARIABLES.map((name) => [name, "0"])), // tether:guard trace-off
};

const decoder = new TextDecoder();

/** Names of `LD_*`/`DYLD_*` variables blanked after Deno refused a spawn because of them. */
const blanked: Record<string, string> = {};

/** How many git processes this process has started (the bench reports it). */
let spawned = 0;

/** The git processes started and not yet ended, as their exit. */
const running = new Set<Promise<unknown>>();

/** Count a started process as running until it has ended. */
function track(exit: Promise<unknown>): void {
  const settled = exit.then(() => {}, () => {});
  running.add(settled);
  settled.then(() => running.delete(settled));
}

/**
 * Wait until every git process this process started has ended, so that a binary never
 * exits with one still running (an early capture nobody used, a reader told to end).
 */
export async function gitSettled(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}

/**
 * How many git processes this process has started so far.
 *
 * @returns The count.
 */
export function gitSpawnCount(): number {
  return spawned;
}

interface SpawnOptions {
  stdin?: Uint8Array | undefined;
  signal?: AbortSignal | undefined;
  clearEnv: boolean;
  neutralStart: boolean;
}

/**
 * Where a git process starts: `/` for a neutral start, and also when this process's own
 * directory is gone (a Claude Code hook runs in the child's worktree, which its land
 * removes): no process can start in a removed directory, and every later call names its
 * repository with `-C` or the pin anyway.
 */
function startDir(neutral: boolean): { cwd?: string } {
  const root = Deno.build.os === "windows" ? undefined : "/";
  if (neutral && root) return { cwd: root };
  try {
    Deno.cwd();
    return {};
  } catch {
    return root ? { cwd: root } : {};
  }
}

async function spawn(argv: string[], env: Record<string, string>, options: SpawnOptions) {
  const { stdin, signal } = options;
  const command = new Deno.Command("git", {
    args: argv,
    ...(signal ? { signal } : {}),
    ...startDir(options.neutralStart),
    clearEnv: options.clearEnv,
    env: { ...env, ...blanked },
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
  spawned++;
  const child = command.spawn();
  track(child.status);
  // Read while writing: a large input and a large output would otherwise deadlock on
  // full pipe buffers.
  const output = child.output();
  if (stdin) {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(stdin);
      await writer.close();
    } catch {
      // git may exit before reading all of its input; its exit code tells.
    }
  }
  return await output;
}

/**
 * Deno names the variables it refuses in its message; blank them (empty means unset to
 * the dynamic loader) for this and every later call.
 *
 * @returns Whether the message named variables to blank.
 */
function learnBlockedVariables(message: string): boolean {
  const match = /subprocess with ([A-Za-z0-9_, ]+) environment variables?/.exec(message);
  if (!match?.[1]) return false;
  for (const name of match[1].split(",").map((s) => s.trim()).filter(Boolean)) blanked[name] = "";
  return true;
}

/** Whether Deno refused a spawn for a permission the binary lacks (`--allow-run`). */
function missingPermission(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

/**
 * Run git with the hardening options and return its raw result.
 *
 * @param args The subcommand and its arguments, as an array.
 * @param options Where to run, whether output is parsed, stdin.
 * @returns Exit code, stdout bytes and stderr text.
 * @throws {GitError} `missing` when git cannot be started; `not-a-repository` or `failed`
 * on a non-zero exit unless `allowFailure` is set.
 */
export async function runGit(
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const argv = [
    ...(options.cwd === undefined ? [] : ["-C", options.cwd]),
    ...HARDENING_ARGS,
    ...args,
  ];
  const env: Record<string, string> = {
    ...HARDENING_ENV,
    ...options.env,
    ...pinnedEnv(repositoryPin(), options),
  };
  // A replace ref makes git serve another object under an id: anyone who can write refs
  // could change what a snapshot, a commit or a tree says. Off unless the caller needs
  // parity with the user's shell.
  if (!options.keepReplaceObjects) env.GIT_NO_REPLACE_OBJECTS = "1"; // guard: no replace objects
  if (options.parse) env.LC_ALL = "C";
  if (options.traceEnv) {
    env.GIT_TRACE2_EVENT = "2";
    env.GIT_TRACE2_ENV_VARS = options.traceEnv.join(",");
  }
  // The whole output is read when git exits, so git need not flush after every record
  // (hash-object --stdin-paths, rev-list and the like write one line per syscall into a
  // pipe otherwise). Changes no byte of it; startGit's conversations keep flushing.
  env.GIT_FLUSH ??= "0";
  // Lossless: a path decoded with its invalid bytes as lone surrogates goes back as those bytes.
  const stdin = typeof options.stdin === "string" ? encodePath(options.stdin) : options.stdin;
  let output: Deno.CommandOutput | undefined;
  const signal = options.timeoutMs === undefined
    ? undefined
    : AbortSignal.timeout(options.timeoutMs);
  for (let attempt = 0; output === undefined; attempt++) {
    try {
      output = await spawn(argv, env, {
        stdin,
        signal,
        clearEnv: options.cleanEnv ?? false,
        neutralStart: options.neutralStart ?? false,
      });
    } catch (error) {
      if (signal?.aborted) break;
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof Deno.errors.NotFound) {
        throw new GitError("missing", "git is not installed or not on PATH");
      }
      if (attempt < 2 && learnBlockedVariables(message)) continue;
      // A missing Deno permission is reported as one by the entry point, never as "no git".
      if (missingPermission(error)) throw error;
      throw new GitError("missing", `Cannot start git: ${message.split("\n")[0]}`);
    }
  }
  // Stopped by the timeout: no output, or killed by a signal after the timeout fired.
  if (output === undefined || (signal?.aborted && output.signal !== null)) {
    const what = subcommand(args);
    throw new GitError(
      "failed",
      `git ${what} took longer than ${options.timeoutMs} ms and was stopped`,
    );
  }
  const result: GitResult = {
    code: output.code,
    stdout: output.stdout,
    stderr: decoder.decode(output.stderr),
  };
  if (options.traceEnv) Object.assign(result, splitTrace(result.stderr));
  if (result.code !== 0 && !options.allowFailure) throw failure(args, result);
  return result;
}

/**
 * Run git and return its stdout as text without the final newline.
 *
 * @param args The subcommand and its arguments.
 * @param options Where to run and how.
 * @returns stdout, decoded as UTF-8, final newline removed.
 * @throws {GitError} as {@linkcode runGit}.
 */
export async function gitText(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const { stdout } = await runGit(args, { parse: true, ...options });
  return decoder.decode(stdout).replace(/\n$/, "");
}

/** A git process the caller talks to line by line (a lock held for as long as it runs). */
export interface GitProcess {
  /**
   * Write text to git's standard input.
   *
   * @param text What to send.
   */
  send(text: string): Promise<void>;
  /**
   * The next line of git's standard output.
   *
   * @returns The line without its newline, or undefined when git closed its output.
   */
  readLine(): Promise<string | undefined>;
  /**
   * Close git's standard input and wait for it to exit.
   *
   * @returns git's exit code and its standard error.
   */
  finish(): Promise<{ code: number; stderr: string }>;
}

/**
 * Start git with the hardening options and piped standard streams, for a conversation
 * such as `update-ref --stdin` (`start`, `prepare`, `abort`).
 *
 * @param args The subcommand and its arguments.
 * @param options Where to run and extra environment.
 * @returns The running process.
 * @throws {GitError} `missing` when git cannot be started; a missing Deno permission as
 *   itself, as {@linkcode runGit} does.
 *
 * Kept whole: the process, its pipes, its reader and its end are one lifetime; split, each
 * part would hold a reference the others must release in the same order.
 */
export function startGit(args: readonly string[], options: GitOptions = {}): GitProcess {
  const argv = [
    ...(options.cwd === undefined ? [] : ["-C", options.cwd]),
    ...HARDENING_ARGS,
    ...args,
  ];
  const env: Record<string, string> = {
    ...HARDENING_ENV,
    LC_ALL: "C",
    ...options.env,
    ...pinnedEnv(repositoryPin(), options),
  };
  let child: Deno.ChildProcess | undefined;
  for (let attempt = 0; child === undefined; attempt++) {
    try {
      child = new Deno.Command("git", {
        args: argv,
        ...startDir(false),
        env: { ...env, ...blanked },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      spawned++;
      track(child.status);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof Deno.errors.NotFound) {
        throw new GitError("missing", "git is not installed or not on PATH");
      }
      if (attempt < 2 && learnBlockedVariables(message)) continue;
      if (missingPermission(error)) throw error;
      throw new GitError("missing", `Cannot start git: ${message.split("\n")[0]}`);
    }
  }
  const proc = child;
  const writer = proc.stdin.getWriter();
  // Plain readers, decoded here: no stream transforms to set up before the first line.
  const reader = proc.stdout.getReader();
  const stdout = new TextDecoder();
  const stderr = (async () => {
    const chunks: Uint8Array[] = [];
    const errReader = proc.stderr.getReader();
    for (;;) {
      const chunk = await errReader.read();
      if (chunk.done) break;
      chunks.push(chunk.value);
    }
    const errText = new TextDecoder();
    return chunks.map((c) => errText.decode(c, { stream: true })).join("") + errText.decode();
  })();
  let buffered = "";
  let done = false;
  return {
    async send(text) {
      await writer.write(encodePath(text)); // lossless, as runGit's stdin
    },
    async readLine() {
      while (!buffered.includes("\n") && !done) {
        const chunk = await reader.read();
        if (chunk.done) {
          done = true;
          buffered += stdout.decode();
        } else buffered += stdout.decode(chunk.value, { stream: true });
      }
      if (!buffered) return undefined;
      const end = buffered.includes("\n") ? buffered.indexOf("\n") : buffered.length;
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      return line;
    },
    async finish() {
      await writer.close().catch(() => {});
      while (!done) {
        const chunk = await reader.read();
        if (chunk.done) done = true;
      }
      const status = await proc.status;
      return { code: status.code, stderr: await stderr };
    },
  };
}
