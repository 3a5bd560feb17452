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
  /** `git rev-parse --show-toplevel`. */
  toplevel: string;
  /** `git rev-parse --show-prefix` (empty at the top level, else ends in `/`). */
  prefix: string;
}

/** How many times a capture is retried when HEAD moves under it. */
export const CAPTURE_ATTEMPTS = 5;

/**
 * Read HEAD, branch, top level and prefix in one git call.
 *
 * @returns The four values.
 * @throws {GitError} when git fails (no commit yet, not a repository, …).
 */
export async function readHead(): Promise<
  { head: string; branch: string; toplevel: string; prefix: string }
> {
  const text = await gitText([
    "rev-parse",
    "HEAD",
    "--abbrev-ref",
    "HEAD",
    "--show-toplevel",
    "--show-prefix",
  ]);
  const [head = "", branch = "", toplevel = "", prefix = ""] = text.split("\n");
  if (!head || !branch || !toplevel) {
    throw new GitError("failed", `Cannot read HEAD: unexpected rev-parse output`);
  }
  return { head, branch, toplevel, prefix };
}

type Probe = [Promise<GitResult>, Promise<Awaited<ReturnType<typeof readHead>>>, Promise<void>];
let early: Probe | undefined;

function probe(): Probe {
  const probes: Probe = [runGit(["status", "--porcelain"]), readHead(), assertGitVersion()];
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

/**
 * Capture the live tree of the current directory.
 *
 * @returns HEAD, branch, cwd, fingerprint, top level and prefix, taken together.
 * @throws {GitError} when git is missing, too old, not in a repository, or fails.
 */
export async function captureLive(): Promise<LiveTree> {
  for (let attempt = 1;; attempt++) {
    const probes = early ?? probe();
    early = undefined;
    const [statusResult, before] = await Promise.all(probes);
    const after = await gitText(["rev-parse", "HEAD"]);
    if (after === before.head || attempt >= CAPTURE_ATTEMPTS) {
      if (after !== before.head) {
        throw new GitError("failed", `HEAD kept moving during capture (${attempt} attempts)`);
      }
      return {
        parent_head: before.head,
        parent_branch: before.branch,
        parent_cwd: Deno.cwd(),
        parent_dirty_fingerprint: await fingerprint(statusResult.stdout),
        toplevel: before.toplevel,
        prefix: before.prefix,
      };
    }
  }
}
