/**
 * The capture step of a spawn: the parent's exact state, read until two readings agree,
 * with what git keeps of it outside the trees (intent-to-add entries, skip-worktree entries
 * whose file is absent), and the refusal of a parent no worktree can carry (unmerged paths,
 * a nested repository, a path the user's ignore file leaves out, a submodule checked out at
 * another commit, intent-to-add entries whose file is deleted).
 *
 * @module
 */

import { captureLive, type CaptureOptions, type LiveTree } from "../handshake/capture.ts";
import { runGit } from "../git.ts";
import { decodePath, decodePaths } from "../paths.ts";
import { refuseLeftOut } from "../seed/excludes.ts";
import { spawnRefusal } from "../seed/refusal.ts";
import { captureState, seedIndexPath, type TreeState } from "../seed/state.ts";
import { listPaths } from "../show.ts";
import { type RawEntry } from "../context/raw_tree.ts";
import { GitError } from "../git_error.ts";

/** NUL-separated path bytes from git (`-z`), each kept raw. */
function rawPaths(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0) {
      if (i > start) out.push(bytes.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** The parent's intent-to-add entries (`git add -N`), as raw path bytes. */
export interface IntentToAdd {
  /** Entries whose file exists: carried as intent-to-add entries of the child's index. */
  carried: Uint8Array[];
  /** Entries whose file is deleted: refused (git cannot make one without the file). */
  deleted: string[];
}

/**
 * Find the index's intent-to-add entries: `diff-index --cached` shows them as added
 * unless told they are invisible, so the difference of the two lists is exactly them;
 * `diff-files` shows as added exactly those whose file exists.
 */
async function intentToAdd(top: string): Promise<IntentToAdd> {
  const added = ["diff-index", "--cached", "-z", "--name-only", "--no-renames", "--diff-filter=A"];
  const opts = { cwd: top, parse: true };
  const [visible, invisible] = await Promise.all([
    runGit([...added, "--ita-visible-in-index", "HEAD", "--"], opts),
    runGit([...added, "--ita-invisible-in-index", "HEAD", "--"], opts),
  ]);
  const staged = new Set(rawPaths(invisible.stdout).map(decodePath));
  const ita = rawPaths(visible.stdout).filter((p) => !staged.has(decodePath(p)));
  if (ita.length === 0) return { carried: [], deleted: [] };
  const files = await runGit(["diff-files", "-z", "--name-only", "--diff-filter=A", "--"], opts);
  const present = new Set(rawPaths(files.stdout).map(decodePath));
  return {
    carried: ita.filter((p) => present.has(decodePath(p))),
    deleted: ita.map(decodePath).filter((p) => !present.has(p)),
  };
}

/**
 * The parent's skip-worktree entries whose file is absent (a sparse checkout's paths outside
 * its patterns), as raw path bytes. The seed's working tree lacks them, as the parent's
 * does, while its index tree holds them; the child's entries get the same bit, so that git
 * judges them by the index there too and the child's status is the parent's.
 *
 * @param top The parent's top level.
 * @param files The seed's working-tree entries.
 * @returns The paths.
 */
async function skippedAbsent(
  top: string,
  files: ReadonlyMap<string, RawEntry>,
): Promise<Uint8Array[]> {
  const listing = await runGit(["ls-files", "-z", "-v"], { cwd: top, parse: true });
  return rawPaths(listing.stdout).filter((record) =>
    (record[0] === 0x53 || record[0] === 0x73) && record[1] === 0x20 && // `S ` or `s `
    !files.has(decodePath(record.subarray(2)))
  ).map((record) => record.slice(2));
}

/** The paths of the gitlinks (submodules) among a tree's entries. */
export function gitlinksOf(files: ReadonlyMap<string, RawEntry>): string[] {
  return [...files].filter(([, entry]) => entry.mode === "160000").map(([path]) => path);
}

/**
 * The submodules checked out at another commit than the parent's index records (`git status`
 * shows ` M sm`). The seed's working tree holds the checked-out commit and its index tree
 * the recorded one; a child's gitlink checks out as an empty directory, which git reads as
 * the index's commit, so no worktree can hold both.
 *
 * @param top The parent's top level.
 * @param index The seed's index tree.
 * @param files The seed's working-tree entries.
 * @returns The paths, in order.
 */
async function movedSubmodules(
  top: string,
  index: string,
  files: ReadonlyMap<string, RawEntry>,
): Promise<string[]> {
  const gitlinks = gitlinksOf(files);
  if (gitlinks.length === 0) return [];
  const listing = await runGit(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", index], {
    cwd: top,
    parse: true,
  });
  const recorded = new Map<string, string>();
  for (const record of decodePaths(listing.stdout)) {
    const m = /^160000 commit ([0-9a-f]+)\t([\s\S]*)$/.exec(record);
    if (m) recorded.set(m[2]!, m[1]!);
  }
  return gitlinks.filter((path) => recorded.get(path) !== files.get(path)!.oid);
}

/**
 * Refuse a parent tree no worktree can carry: unmerged paths (no tree to record) or a
 * nested repository (a gitlink checks out as an empty directory), in one line naming the
 * paths. One `git status` whatever the tree holds.
 */
export async function refuseUncarried(top: string): Promise<void> {
  const status = await runGit(
    ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"],
    { cwd: top, parse: true },
  );
  const refusal = spawnRefusal(status.stdout);
  if (refusal !== undefined) throw new GitError("failed", refusal); // GUARD:spawn-uncarried
}

/** The parent's state as two readings agreed on it, with what the spawn carries beside it. */
export interface Captured {
  /** The parent's live capture (the v1 fields) the state agreed with. */
  live: LiveTree;
  /** The parent's exact state. */
  state: TreeState;
  /** The seed's working-tree entries (path → mode and raw id). */
  files: Map<string, RawEntry>;
  /** Untracked paths the user's ignore file ignores and the repository does not. */
  left: Set<string>;
  /** The intent-to-add entries. */
  ita: IntentToAdd;
  /** The skip-worktree entries whose file is absent, as raw path bytes. */
  skipped: Uint8Array[];
}

/**
 * Read the parent's exact state until it agrees with the live capture before and after it
 * (three tries).
 *
 * @param top The parent's top level.
 * @param where How the live capture is taken.
 * @param first The first live capture.
 * @param early Told the working-tree tree of each reading as soon as it is known.
 * @returns The state and what goes with it.
 * @throws {GitError} when git fails or the tree kept changing.
 */
export async function captureConfirmed(
  top: string,
  where: CaptureOptions,
  first: LiveTree,
  early: (worktree: string) => void,
): Promise<Captured> {
  const scratch = await seedIndexPath(top);
  let live = first;
  const files = new Map<string, RawEntry>();
  const left = new Set<string>(); // ignored by the user's ignore file, not by the repository
  for (let attempt = 1;; attempt++) {
    files.clear();
    left.clear();
    const candidate = await captureState(top, { indexFile: scratch, files, left, early });
    const [entries, after, absent] = await Promise.all([
      intentToAdd(top),
      captureLive(where),
      skippedAbsent(top, files),
    ]);
    if (
      candidate.head === live.parent_head && after.parent_head === live.parent_head &&
      after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
    ) {
      return { live, state: candidate, files, left, ita: entries, skipped: absent };
    }
    if (attempt >= 3) {
      throw new GitError("failed", "The parent's tree kept changing while it was captured");
    }
    live = after;
  }
}

/**
 * Refuse a captured state no worktree can carry.
 *
 * @param top The parent's top level.
 * @param captured The capture.
 * @param head The parent's HEAD when the spawn began (the worktrees' HEAD).
 * @throws {GitError} when the user's ignore file left a path out, a submodule is checked out
 *   at another commit than the index records, HEAD moved, or an intent-to-add entry's file
 *   is deleted.
 */
export async function refuseCaptured(
  top: string,
  captured: Captured,
  head: string,
): Promise<void> {
  const { state, files, left, ita } = captured;
  await refuseLeftOut(left, top); // tether:guard wt-spawn-left-out
  const moved = await movedSubmodules(top, state.index, files);
  if (moved.length > 0) { // tether:guard wt-spawn-moved-submodule
    throw new GitError(
      "failed",
      `A submodule is checked out at another commit than the parent's index records, at ${
        listPaths(moved)
      }; a worktree cannot carry that (its submodules are not checked out): stage the move (git add -- PATH) or check the recorded commit out again (git submodule update -- PATH), then spawn again`,
    );
  }
  if (state.head !== head) {
    throw new GitError("failed", "The parent's HEAD moved while the worktrees were made");
  }
  if (ita.deleted.length > 0) { // tether:guard wt-spawn-ita-deleted
    throw new GitError(
      "failed",
      `Intent-to-add entries (git add -N) whose file is deleted cannot be carried into a worktree: ${
        listPaths(ita.deleted)
      }; restore the file, or drop the entry with git rm --cached -- PATH, and spawn again`,
    );
  }
}
