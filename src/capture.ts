/**
 * Live capture of the four tree facts: the git calls run concurrently (`git status` first,
 * it is the slow one) and the capture is retried when HEAD moved while status ran.
 *
 * @module
 */
import { assertGitVersion, GitError, type GitResult, gitText, runGit } from "./git.ts";
import { fingerprint } from "./fingerprint.ts";
import type { TreeState } from "./fields.ts";

/** A capture of the live tree. */
export interface LiveTree extends TreeState {
  /** `top/prefix` of the current directory as git names it, undefined when it cannot. */
  location: string | undefined;
}

/** How many times a capture is retried when HEAD moves under it. */
export const CAPTURE_ATTEMPTS = 5;

/** The arguments that print where a directory sits: inside-work-tree, top level, prefix. */
export const LOCATION_ARGS: readonly string[] = [
  "--is-inside-work-tree",
  "--show-toplevel",
  "--show-prefix",
];

/**
 * Read the location of a directory from `git rev-parse --is-inside-work-tree
 * --show-toplevel --show-prefix` output lines: `top/prefix` when the directory is inside
 * the work tree and the output has exactly the expected lines, undefined otherwise (a
 * directory outside the work tree gets an empty prefix, and a path holding a newline
 * would shift the lines: neither may identify a directory).
 *
 * @example Inside, outside, and a newline in a path
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(parseLocation(["true", "/r", "a/b/"]), "/r/a/b/");
 * assertEquals(parseLocation(["false", "/r", ""]), undefined);
 * assertEquals(parseLocation(["true", "/r", "x", "a/"]), undefined);
 * ```
 * @param lines The three output lines (without the final empty line).
 * @returns `top/prefix`, or undefined.
 */
export function parseLocation(lines: readonly string[]): string | undefined {
  if (lines.length !== 3) return undefined;
  const [inside, top, prefix] = lines as [string, string, string];
  if (inside !== "true" || !top.startsWith("/") && !/^[A-Za-z]:\//.test(top)) return undefined;
  if (prefix !== "" && !prefix.endsWith("/")) return undefined;
  return `${top}/${prefix}`;
}

/** HEAD, branch and where the current directory sits. */
export interface HeadRead {
  /** `git rev-parse HEAD`. */
  head: string;
  /** `git rev-parse --abbrev-ref HEAD`. */
  branch: string;
  /** `top/prefix` of the current directory, or undefined when git cannot name it. */
  location: string | undefined;
}

/**
 * Read HEAD, branch and the current directory's location in one git call.
 *
 * @param cwd The directory to read (default: the current directory).
 * @returns HEAD, branch, location.
 * @throws {GitError} when git fails (no commit yet, not a repository, …).
 */
export async function readHead(cwd?: string): Promise<HeadRead> {
  const { stdout } = await runGit(["rev-parse", "HEAD", "--abbrev-ref", "HEAD", ...LOCATION_ARGS], {
    parse: true,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const lines = new TextDecoder().decode(stdout).replace(/\n$/, "").split("\n");
  const [head = "", branch = ""] = lines;
  if (!head || !branch) {
    throw new GitError("failed", "Cannot read HEAD: unexpected rev-parse output");
  }
  return { head, branch, location: parseLocation(lines.slice(2)) };
}

type Probe = [Promise<GitResult>, Promise<Awaited<ReturnType<typeof readHead>>>, Promise<void>];
let early: Probe | undefined;

function probe(cwd?: string): Probe {
  const at = cwd === undefined ? {} : { cwd };
  const probes: Probe = [runGit(["status", "--porcelain"], at), readHead(cwd), assertGitVersion()];
  for (const p of probes) p.catch(() => {}); // awaited later; never an unhandled rejection
  return probes;
}

/**
 * Start the capture's git calls now (`git status` first, it is the slow one) so that they
 * run while the caller loads the rest of its code and reads its input. The next
 * {@linkcode captureLive} uses them.
 */
export function prestartCapture(): void {
  early ??= probe();
}

/** Where {@linkcode captureLive} captures. */
export interface CaptureOptions {
  /** An absolute directory to capture in, through `git -C` (default: the current directory). */
  cwd?: string;
}

/**
 * Capture the live tree of the current directory (or `options.cwd`).
 *
 * @param options Where to capture.
 * @returns HEAD, branch, cwd, fingerprint, top level and prefix, taken together.
 * @throws {GitError} when git is missing, too old, not in a repository, or fails.
 */
export async function captureLive(options: CaptureOptions = {}): Promise<LiveTree> {
  const cwd = options.cwd;
  for (let attempt = 1;; attempt++) {
    const probes = cwd === undefined ? early ?? probe() : probe(cwd);
    if (cwd === undefined) early = undefined;
    const [statusResult, before] = await Promise.all(probes);
    const after = await gitText(["rev-parse", "HEAD"], cwd === undefined ? {} : { cwd });
    if (after === before.head || attempt >= CAPTURE_ATTEMPTS) {
      if (after !== before.head) {
        throw new GitError("failed", `HEAD kept moving during capture (${attempt} attempts)`);
      }
      return {
        parent_head: before.head,
        parent_branch: before.branch,
        parent_cwd: cwd ?? Deno.cwd(),
        parent_dirty_fingerprint: await fingerprint(statusResult.stdout),
        location: before.location,
      };
    }
  }
}
