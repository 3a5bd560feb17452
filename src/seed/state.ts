/**
 * The exact content state of a worktree, recorded as git objects in a bounded number of
 * git processes, whatever the tree holds: the HEAD commit, the tree of the index, and a
 * tree of the working tree as `git add -A` would record it (untracked files included,
 * ignored files excluded, symlinks as links, special files skipped, each submodule at
 * the commit its HEAD names). Two states are the same content exactly when their ids are
 * equal, so comparing states never reads a file twice.
 *
 * The working-tree tree is built in a private index beside the worktree's own
 * (`<git dir>/tether-seed-index`, and the staged tree in `tether-seed-index-staged` from
 * `git ls-files -s`), so the user's index is never written or locked; git does every
 * read and write, so callers need no file permission.
 *
 * @module
 */
import { GitError, gitText, runGit } from "../git.ts";

/** A worktree's content at one consistent moment. */
export interface TreeState {
  /** Full id of the HEAD commit. */
  head: string;
  /** Tree id of the index (what is staged). */
  index: string;
  /** Tree id of the working tree (what the files hold). */
  worktree: string;
}

/** Options for {@linkcode captureState}. */
export interface CaptureStateOptions {
  /**
   * Reuse the stat information of the private index, so only files whose stat changed
   * are read again (fast on large trees). Off: every file is hashed afresh, which is
   * what a judge of an untrusted agent wants, since an agent can forge stat data.
   */
  trustStatCache?: boolean;
  /** How often the capture is tried when HEAD or the index moved while it ran. */
  attempts?: number;
  /**
   * The scratch index to build the working-tree tree in (absolute), instead of the
   * worktree's private one. A spawn passes one no other process uses (inside the new
   * child's git directory), so concurrent spawns from one parent never share a scratch.
   */
  indexFile?: string;
}

/** The name of the private index, inside the worktree's own git directory. */
export const SEED_INDEX_NAME = "tether-seed-index";

const LOCK_RETRIES = 40;
const NO_REPLACE = { GIT_NO_REPLACE_OBJECTS: "1" };

function isLockContention(error: unknown): boolean {
  return error instanceof GitError && /\.lock'?: File exists|Unable to create .*\.lock/i
    .test(error.stderrTail + error.message);
}

/** Run a git call that takes an index lock, retrying while another process holds it. */
async function withLockRetry<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= LOCK_RETRIES || !isLockContention(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
    }
  }
}

/**
 * HEAD and the staged entries (`git ls-files -s -z`), read together without writing or
 * locking the user's index (`git write-tree` there would take `index.lock` and rewrite
 * the file to store its cache tree).
 */
async function headAndStaged(top: string): Promise<[string, Uint8Array]> {
  const env = NO_REPLACE;
  const [head, staged] = await Promise.all([
    gitText(["rev-parse", "--verify", "--end-of-options", "HEAD^{commit}"], { cwd: top, env }),
    runGit(["ls-files", "-s", "-z"], { cwd: top, env }),
  ]);
  return [head, staged.stdout];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The tree of the staged entries, built in a scratch index from `ls-files -s` output. */
async function stagedTree(top: string, scratch: string, staged: Uint8Array): Promise<string> {
  const env = { ...NO_REPLACE, GIT_INDEX_FILE: scratch };
  await withLockRetry(() => runGit(["read-tree", "--empty"], { cwd: top, env }));
  await withLockRetry(() =>
    runGit(["update-index", "-z", "--index-info"], { cwd: top, env, stdin: staged })
  );
  return await withLockRetry(() => gitText(["write-tree"], { cwd: top, env }));
}

/**
 * The absolute path of the private index of the worktree at `top`.
 *
 * @param top The worktree's top level.
 * @returns `<git dir>/tether-seed-index`.
 * @throws {GitError} when `top` is not in a git worktree.
 */
export async function seedIndexPath(top: string): Promise<string> {
  const gitDir = await gitText(["rev-parse", "--path-format=absolute", "--git-dir"], {
    cwd: top,
  });
  return `${gitDir}/${SEED_INDEX_NAME}`;
}

/**
 * Record the content state of the worktree at `top`. HEAD and the index are read before
 * and after the working tree; when either moved, the capture is tried again, and after
 * the last attempt it fails rather than pair values from different moments.
 *
 * @param top The worktree's top level (absolute).
 * @param options Stat cache use and attempts.
 * @returns HEAD, index tree and working-tree tree ids.
 * @throws {GitError} when git fails, HEAD is unborn, or the tree kept moving.
 */
export async function captureState(
  top: string,
  options: CaptureStateOptions = {},
): Promise<TreeState> {
  const indexFile = options.indexFile ?? await seedIndexPath(top);
  const env = { ...NO_REPLACE, GIT_INDEX_FILE: indexFile };
  const attempts = options.attempts ?? 3;
  for (let attempt = 1;; attempt++) {
    const [head, staged] = await headAndStaged(top);
    const index = await stagedTree(top, `${indexFile}-staged`, staged);
    const readTree = options.trustStatCache === false
      ? ["read-tree", "--end-of-options", index]
      : ["read-tree", "--reset", "--end-of-options", index];
    await withLockRetry(() => runGit(readTree, { cwd: top, env }));
    await withLockRetry(() => runGit(["add", "-A", "--", ":/"], { cwd: top, env }));
    const worktree = await withLockRetry(() => gitText(["write-tree"], { cwd: top, env }));
    const [headAfter, stagedAfter] = await headAndStaged(top);
    if (head === headAfter && sameBytes(staged, stagedAfter)) return { head, index, worktree };
    if (attempt >= attempts) {
      throw new GitError(
        "failed",
        "The tree kept moving: HEAD or the index changed while the state was read",
      );
    }
  }
}

/**
 * Paths whose content differs between two trees (added, deleted, modified, type or
 * mode changed), without rename detection, NUL-safe.
 *
 * @param top A directory in the repository.
 * @param from The earlier tree id.
 * @param to The later tree id.
 * @returns The differing paths, in git's order.
 * @throws {GitError} when git fails.
 */
export async function changedPaths(top: string, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  const { stdout } = await runGit(
    ["diff-tree", "-r", "-z", "--no-renames", "--name-only", "--end-of-options", from, to],
    { cwd: top, parse: true, env: NO_REPLACE },
  );
  return new TextDecoder().decode(stdout).split("\0").filter((p) => p !== "");
}
