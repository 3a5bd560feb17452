/**
 * The exact content state of a worktree, recorded as git objects in a bounded number of
 * git processes, whatever the tree holds: the HEAD commit, the tree of the index, and a
 * tree of the working tree as `git add -A` would record it (untracked files included,
 * ignored files excluded, symlinks as links, special files skipped, each submodule at
 * the commit its HEAD names). Two states are the same content exactly when their ids are
 * equal, so comparing states never reads a file twice.
 *
 * The working-tree tree is built in a private index beside the worktree's own
 * (`<git dir>/tether-seed-index`), and the index tree in a private copy of the index's
 * entries (`<git dir>/tether-seed-index-staged`), so the user's index is never locked or
 * changed; git does every read and write, so callers need no file permission. Captures of
 * one repository take turns under a ref lock, so two never interleave in the private
 * indexes.
 *
 * @module
 */
import { GitError, gitText, runGit, startGit } from "../git.ts";

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
  /** How often the seed lock is tried while another capture holds it (default 200). */
  lockAttempts?: number;
  /**
   * The scratch index to build the working-tree tree in (absolute; the staged tree goes to
   * `<indexFile>-staged`), instead of the worktree's private ones. A spawn passes one no
   * other process uses (inside the new child's git directory); such a capture needs no
   * seed lock, since nothing else touches its scratch.
   */
  indexFile?: string;
}

/** The name of the private index, inside the worktree's own git directory. */
export const SEED_INDEX_NAME = "tether-seed-index";
/** The name of the private copy of the user's index, from which the index tree is written. */
export const SEED_STAGED_INDEX_NAME = "tether-seed-index-staged";
/**
 * The ref whose lock serialises captures of one worktree: the private indexes are shared
 * by every capture, and two captures interleaving their steps would record a tree that
 * never existed. The ref is locked in a prepared transaction and never written.
 */
export const SEED_LOCK_REF = "refs/tether/seed-lock";

const LOCK_RETRIES = 40;
const SEED_LOCK_RETRIES = 200;
const NO_REPLACE = { GIT_NO_REPLACE_OBJECTS: "1" };
/**
 * Configuration for the private-index calls that changes what they see to the plain
 * truth: no assume-unchanged marking of added files, no sparse-checkout filtering (a file
 * missing from the working tree is missing), no untracked cache.
 */
const PLAIN_CONFIG = [
  "-c",
  "core.ignoreStat=false",
  "-c",
  "core.sparseCheckout=false",
  "-c",
  "index.sparse=false",
  "-c",
  "core.untrackedCache=false",
];

function isLockContention(error: unknown): boolean {
  // git's advice after the lock line fills the stderr tail, so match the advice too.
  return error instanceof GitError &&
    /\.lock'?: File exists|Unable to create .*\.lock|Another git process seems|remove the file manually/i
      .test(error.stderrTail + error.message);
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
}

/** Run a git call that takes an index lock, retrying while another process holds it. */
async function withLockRetry<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= LOCK_RETRIES || !isLockContention(error)) throw error;
      await pause();
    }
  }
}

/**
 * Hold the seed lock of the repository at `top` while `body` runs: a prepared
 * `update-ref --stdin` transaction on {@linkcode SEED_LOCK_REF}, aborted afterwards (and
 * released by git if this process dies).
 */
async function withSeedLock<T>(
  top: string,
  body: () => Promise<T>,
  attempts = SEED_LOCK_RETRIES,
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    const proc = startGit(["update-ref", "--stdin"], { cwd: top, env: NO_REPLACE });
    await proc.send(`start\ncreate ${SEED_LOCK_REF} HEAD\nprepare\n`).catch(() => {});
    const started = await proc.readLine();
    const prepared = started === "start: ok" ? await proc.readLine() : undefined;
    if (prepared === "prepare: ok") { // GUARD:seed-lock
      try {
        return await body();
      } finally {
        await proc.send("abort\n").catch(() => {});
        await proc.finish();
      }
    }
    const { stderr } = await proc.finish();
    if (attempt + 1 >= attempts || !/cannot lock ref|File exists/i.test(stderr)) {
      const last = stderr.trim().split("\n").slice(-1)[0] ?? "";
      throw new GitError("failed", `Cannot take the seed lock ${SEED_LOCK_REF}: ${last}`, last);
    }
    await pause();
  }
}

/** Where a worktree's private indexes live and what its top level is. */
interface Places {
  top: string;
  gitDir: string;
}

async function places(dir: string): Promise<Places> {
  const text = await gitText(
    ["rev-parse", "--path-format=absolute", "--git-dir", "--show-toplevel"],
    { cwd: dir },
  );
  const lines = text.split("\n");
  if (lines.length !== 2 || !lines[0] || !lines[1]) {
    throw new GitError("failed", "Cannot read the git directory and top level");
  }
  return { gitDir: lines[0], top: lines[1] };
}

/** HEAD and the index's entries (`ls-files -s`), read together without locking the index. */
async function headAndEntries(top: string): Promise<[string, Uint8Array]> {
  const env = NO_REPLACE;
  const [head, entries] = await Promise.all([
    gitText(["rev-parse", "--verify", "--end-of-options", "HEAD^{commit}"], { cwd: top, env }),
    runGit(["ls-files", "--stage", "-z", "--full-name", "--", ":/"], { cwd: top, env }),
  ]);
  return [head, entries.stdout];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
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
 * Record the content state of the worktree at `dir` (its top level or any directory in
 * it). The index tree is written from a private copy of the index's entries, so the
 * user's index is neither locked nor rewritten. HEAD and the index are read before and
 * after the working tree; when either moved, the capture is tried again, and after the
 * last attempt it fails rather than pair values from different moments. Captures of one
 * repository take turns under {@linkcode SEED_LOCK_REF}.
 *
 * @param dir The worktree's top level, or a directory in it.
 * @param options Stat cache use and attempts.
 * @returns HEAD, index tree and working-tree tree ids.
 * @throws {GitError} when git fails, HEAD is unborn, or the tree kept moving.
 */
export async function captureState(
  dir: string,
  options: CaptureStateOptions = {},
): Promise<TreeState> {
  const { top, gitDir } = await places(dir);
  const scratch = options.indexFile;
  const staged = {
    ...NO_REPLACE,
    GIT_INDEX_FILE: scratch ? `${scratch}-staged` : `${gitDir}/${SEED_STAGED_INDEX_NAME}`,
  };
  const env = { ...NO_REPLACE, GIT_INDEX_FILE: scratch ?? `${gitDir}/${SEED_INDEX_NAME}` };
  const opts = { cwd: top, env };
  const attempts = options.attempts ?? 3;
  const locked = scratch === undefined
    ? <T>(body: () => Promise<T>) => withSeedLock(top, body, options.lockAttempts)
    : <T>(body: () => Promise<T>) => body();
  return await locked(async () => {
    for (let attempt = 1;; attempt++) {
      const [head, entries] = await headAndEntries(top);
      await withLockRetry(() => runGit(["read-tree", "--empty"], { cwd: top, env: staged }));
      await withLockRetry(() =>
        runGit([...PLAIN_CONFIG, "update-index", "-z", "--index-info"], {
          cwd: top,
          env: staged,
          stdin: entries,
        })
      );
      const index = await withLockRetry(() => gitText(["write-tree"], { cwd: top, env: staged }));
      const readTree = options.trustStatCache === false
        ? ["read-tree", "--end-of-options", index]
        : ["read-tree", "--reset", "--end-of-options", index];
      await withLockRetry(() => runGit([...PLAIN_CONFIG, ...readTree], opts));
      await withLockRetry(() => runGit([...PLAIN_CONFIG, "add", "-A", "--", ":/"], opts));
      const worktree = await withLockRetry(() => gitText(["write-tree"], opts));
      const [headAfter, entriesAfter] = await headAndEntries(top);
      if (head === headAfter && sameBytes(entries, entriesAfter)) {
        return { head, index, worktree };
      }
      if (attempt >= attempts) {
        throw new GitError(
          "failed",
          "The tree kept moving: HEAD or the index changed while the state was read",
        );
      }
    }
  });
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
