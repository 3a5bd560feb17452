/**
 * The pinned Claude Code CLI, installed once from the npm registry into a per-user cache and
 * found there by every later test process.
 *
 * @module
 */
import { join } from "../../src/_path.ts";

/** The Claude Code version every test runs; the README's observations are of this one. */
export const CLAUDE_CODE_VERSION = "2.1.328";

/** The npm packages: the wrapper and the platform package that ships the native binary. */
const PACKAGES = [
  `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
  `@anthropic-ai/claude-code-linux-x64@${CLAUDE_CODE_VERSION}`,
];

/** Where the native binary lies inside an install directory. */
const BINARY = ["node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude"];

/** Written last into a finished install, before it is renamed into place. */
const MARKER = ".tether-complete";

/** How long one `npm install` may take (the platform package is about 370 MB). */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** A reason to skip, one line, for tests that cannot run the CLI. */
export interface Skip {
  skip: string;
}

let found: Promise<string | Skip> | undefined;

/**
 * The cache directory for the pinned CLI: `${XDG_CACHE_HOME or ~/.cache}/tether/claude-code-VERSION`.
 *
 * @returns Its path (it may not exist yet).
 */
export function claudeCacheDir(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const base = xdg ? xdg : join(Deno.env.get("HOME") ?? "/nonexistent", ".cache");
  return join(base, "tether", `claude-code-${CLAUDE_CODE_VERSION}`);
}

/**
 * The path of the pinned native `claude` binary, installing it into the cache on first use.
 * Installs go into a temp directory beside the cache entry and are renamed into place, so a
 * half-finished install is never used and two racing processes both end with the one that
 * won. Memoised per process.
 *
 * @returns The binary's path, or `{ skip }` with a one-line reason when it cannot be had
 *   (another platform, no npm, registry unreachable).
 * @example Skip or run
 * ```ts ignore
 * const bin = await claudeBinary();
 * if (typeof bin !== "string") console.log(`skipped: ${bin.skip}`);
 * ```
 */
export function claudeBinary(): Promise<string | Skip> {
  found ??= locate();
  return found;
}

async function locate(): Promise<string | Skip> {
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    return { skip: `Claude Code tests need linux-x64, not ${Deno.build.os}-${Deno.build.arch}` };
  }
  const dir = claudeCacheDir();
  const ready = await installed(dir);
  if (ready) return ready;
  const parent = join(dir, "..");
  await Deno.mkdir(parent, { recursive: true });
  const staging = await Deno.makeTempDir({
    dir: parent,
    prefix: `.install-${CLAUDE_CODE_VERSION}-`,
  });
  try {
    const failed = await npmInstall(staging);
    if (failed) return { skip: failed };
    if (!(await isFile(join(staging, ...BINARY)))) {
      return { skip: `npm installed no native binary at ${BINARY.join("/")}` };
    }
    await Deno.writeTextFile(join(staging, MARKER), `${CLAUDE_CODE_VERSION}\n`);
    try {
      await Deno.rename(staging, dir);
    } catch (error) {
      // Another process renamed its install into place first: use that one.
      const other = await installed(dir);
      if (other) return other;
      throw error;
    }
    return join(dir, ...BINARY);
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}

/** The binary of a finished install in `dir`, or undefined. */
async function installed(dir: string): Promise<string | undefined> {
  const binary = join(dir, ...BINARY);
  return (await isFile(join(dir, MARKER))) && (await isFile(binary)) ? binary : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Run `npm install` of the pinned packages into `dir`; a one-line reason on failure. */
async function npmInstall(dir: string): Promise<string | undefined> {
  await Deno.writeTextFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "tether-claude-code", private: true }) + "\n",
  );
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("npm", {
      args: [
        "install",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--ignore-scripts",
        "--no-package-lock",
        "--loglevel=error",
        "--fetch-retries=1",
        ...PACKAGES,
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return `npm is not available: ${error instanceof Error ? error.message : String(error)}`;
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
  try {
    const out = await child.output();
    if (out.success) return undefined;
    const tail = new TextDecoder().decode(out.stderr).trim().split("\n").filter(Boolean);
    const last = tail.find((l) => /ERR!.*(code|network|404|ENOTFOUND|EAI_AGAIN)/.test(l)) ??
      tail.at(-1) ?? `exit ${out.code}`;
    return `npm could not install Claude Code ${CLAUDE_CODE_VERSION}: ${last.trim()}`;
  } finally {
    clearTimeout(timer);
  }
}
