/**
 * Spawn: make linked worktrees whose HEAD is the parent's HEAD, on new branches, holding
 * the parent's exact uncommitted work (staged, unstaged, deletions, untracked files that
 * are not ignored), recorded as one seed. All through git; the parent's index, working
 * tree and stash are never written.
 *
 * A spawn reads as its steps, each in a module of its own: pin the parent's repository →
 * check the directories (spawn_dirs.ts) → capture the parent (spawn_capture.ts) → add the
 * worktrees (spawn_add.ts) → record the seed and claim the branches (spawn_branches.ts) →
 * fill and verify each child (spawn_fill.ts); a failure undoes it all (spawn_undo.ts).
 *
 * @module
 */
import { mapBounded } from "../context/bounded.ts";
import { captureLive, type CaptureOptions, type LiveTree } from "../handshake/capture.ts";
import { gitText, runGit } from "../git.ts";
import { pinHere } from "../repo_pin.ts";
import { SEED_REF_PREFIX, seedId, writeSeed } from "../seed/commit.ts";
import { refuseLeftOut } from "../seed/excludes.ts";
import { captureState, type TreeState } from "../seed/state.ts";
import { carriedFingerprint } from "./carried_status.ts";
import { addWorktrees } from "./spawn_add.ts";
import { claimBranches } from "./spawn_branches.ts";
import { captureConfirmed, gitlinksOf, refuseCaptured, refuseUncarried } from "./spawn_capture.ts";
import { missingDirs, refuseInsideParent } from "./spawn_dirs.ts";
import { fill, type Filling, type SpawnedChild } from "./spawn_fill.ts";
import { type Made, rollBack } from "./spawn_undo.ts";
import { type RawEntry } from "../context/raw_tree.ts";
import { objectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** How many children are filled (or added) at once: one per core, at least two. */
const FILL_CONCURRENCY = Math.max(2, navigator.hardwareConcurrency ?? 2);

/** The parent's captures feed its blocks: branch and directory spelled as in a v1 block. */
const FOR_BLOCK = { seedSpelling: true } as const;

/** What a spawn made. */
export interface Spawn {
  /**
   * Undo the whole spawn when the caller cannot hand the children over after all: the
   * worktrees, branches and spawn refs, the directories git created for them and the seed
   * ref when this spawn wrote it (see {@linkcode spawnWorktrees}). Only set by it.
   */
  rollback?: () => Promise<void>;
  /** The parent's live capture (the v1 fields). */
  live: LiveTree;
  /** The parent's exact state. */
  state: TreeState;
  /** The seed commit recording it. */
  seed: string;
  /** The children, in the order of the directories asked for. */
  children: SpawnedChild[];
}

/**
 * Where the parent stands: its top level and the prefix of its working directory.
 *
 * @param cwd The parent's directory (default: the current directory).
 * @returns Top level and prefix (no trailing slash, empty at the top).
 * @throws {GitError} when git fails or a path holds a newline.
 */
export async function parentLocation(cwd?: string): Promise<{ top: string; prefix: string }> {
  const text = await gitText(
    ["rev-parse", "--show-toplevel", "--show-prefix"],
    cwd === undefined ? {} : { cwd },
  );
  const lines = text.split("\n");
  if (lines.length !== 2 || !lines[0]) {
    throw new GitError("failed", "Cannot read the parent's top level (a newline in a path?)");
  }
  return { top: lines[0], prefix: lines[1]!.replace(/\/$/, "") };
}

/**
 * Make one linked worktree per directory, each holding the parent's exact state.
 *
 * @param dirs The directories (relative to the current directory or absolute); git
 * creates them and refuses one that exists and is not empty.
 * @param cwd The parent's directory (default: the current directory): a harness hook runs
 *   where the harness started it and is told the parent's directory in its payload.
 * @returns The parent's capture, its state, the seed and the children.
 * @throws {GitError} when git fails, the parent has unmerged paths or a nested repository
 * (refused before anything is made), HEAD moved, or a child's state is not the seed's; in
 * every case nothing made is left behind.
 */
export async function spawnWorktrees(dirs: readonly string[], cwd?: string): Promise<Spawn> {
  // The parent's repository, resolved once: every later call on the parent's side names it
  // (src/repo_pin.ts), whatever a running child writes into the shared .git meanwhile.
  await pinHere(cwd); // tether:guard wt-pin-spawn
  const parent = await parentLocation(cwd);
  const where = cwd === undefined ? FOR_BLOCK : { ...FOR_BLOCK, cwd };
  const made: Made = { worktrees: [], created: [] };
  const rollback = () => rollBack(made);
  try {
    // Every directory is checked, created and given to git as its real path: what git makes
    // is what was checked, and a failed spawn removes exactly what it created.
    const paths = await refuseInsideParent(dirs, parent.top);
    const [first, , missing] = await Promise.all([
      captureLive(where),
      refuseUncarried(parent.top),
      missingDirs(paths),
    ]);
    made.created = missing;
    const targets: readonly string[] = paths; // tether:guard wt-spawn-real-add
    // The worktrees are added (one at a time) while the parent is captured: the capture's
    // scratch index is a fresh file of the object directory, which no other process uses.
    const adding = addWorktrees(targets, first.parent_head, made.worktrees);
    // The children's files are written from the first reading of the parent's tree while
    // the parent is read again (`early`); every check of a child waits for the confirmed,
    // recorded state and its branches (`final`).
    const handoff: Handoff = { early: deferred<string>(), final: deferred<Filling>() };
    const preparing = prepare(parent.top, where, first, { adding, made, handoff });
    const filled = await fillAll(made, adding, preparing, handoff, parent.prefix);
    return { ...filled, rollback };
  } catch (error) {
    await rollback();
    throw error;
  }
}

/** A promise settled from outside. */
interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/** A promise settled from outside; a rejection nobody awaits is not an unhandled one. */
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** What the capture hands the fills: the first reading's tree, then the confirmed filling. */
interface Handoff {
  early: Deferred<string>;
  final: Deferred<Filling>;
}

/** What the capture side of a spawn gives back: the parent's capture, its state and the seed. */
type Prepared = { live: LiveTree; state: TreeState; seed: string };

/**
 * Capture the parent, refuse what no worktree carries, record the seed, claim the branches
 * once the worktrees are added, and hand the filling to the children.
 *
 * @param top The parent's top level.
 * @param where How the live capture is taken.
 * @param first The first live capture (the worktrees' HEAD is its).
 * @param spawn The adds, what is made so far and the hand-off to the fills.
 * @returns The parent's capture (with worktree mode's fingerprint), its state and the seed.
 * @throws {GitError} when git fails or the parent cannot be carried.
 */
async function prepare(
  top: string,
  where: CaptureOptions,
  first: LiveTree,
  spawn: { adding: Promise<void>; made: Made; handoff: Handoff },
): Promise<Prepared> {
  const { made, handoff } = spawn;
  const captured = await captureConfirmed(top, where, first, handoff.early.resolve);
  await refuseCaptured(top, captured, first.parent_head);
  const { state, files } = captured;
  const seed = await recordSeed(top, state, made);
  await spawn.adding;
  const branches = await claimBranches(seed, state.head, made.worktrees.length);
  made.worktrees.forEach((child, i) => child.branch = branches[i]!);
  const gitlinks = gitlinksOf(files);
  const live = {
    ...captured.live,
    parent_dirty_fingerprint: await carriedFingerprint(captured.live.status, gitlinks),
  };
  handoff.final.resolve({
    state,
    tracked: files,
    fp: live.parent_dirty_fingerprint,
    gitlinks,
    ita: captured.ita.carried,
    skipped: captured.skipped,
    branches,
  });
  return { live, state, seed };
}

/**
 * Write the seed; its ref is this spawn's to remove on failure only when it did not exist
 * before.
 *
 * @param top The parent's top level.
 * @param state The parent's state.
 * @param made Where the seed ref is recorded when this spawn wrote it.
 * @returns The seed.
 * @throws {GitError} when git fails.
 */
async function recordSeed(top: string, state: TreeState, made: Made): Promise<string> {
  const expected = await seedId(state, await objectFormat());
  const before = await runGit(
    ["rev-parse", "--verify", "-q", `${SEED_REF_PREFIX}${expected}`],
    { allowFailure: true },
  );
  const seed = await writeSeed(top, state);
  if (before.code !== 0 && seed === expected) { // tether:guard wt-spawn-own-seed
    made.seedRef = { ref: `${SEED_REF_PREFIX}${seed}`, seed };
  }
  return seed;
}

/**
 * Fill every child once the worktrees are added, at most one per core at a time. After a
 * failure no new fill starts, and every started one settles (as do the adds and the
 * capture) before any undo, so nothing is written into a worktree being removed.
 *
 * @param made What the spawn made (its worktrees, in order).
 * @param adding The adds.
 * @param preparing The capture side ({@linkcode prepare}).
 * @param handoff The hand-off from the capture to the fills.
 * @param prefix The parent's working directory below its top level.
 * @returns The parent's capture, its state, the seed and the children.
 * @throws the first failure of the adds, the capture or a fill.
 */
async function fillAll(
  made: Made,
  adding: Promise<void>,
  preparing: Promise<Prepared>,
  handoff: Handoff,
  prefix: string,
): Promise<Omit<Spawn, "rollback">> {
  let failed: { reason: unknown } | undefined;
  preparing.catch((reason) => {
    failed ??= { reason };
    handoff.early.reject(reason);
    handoff.final.reject(reason);
  });
  const [added] = await Promise.allSettled([adding]);
  const children = added.status === "rejected" ? [] : await mapBounded(
    made.worktrees,
    FILL_CONCURRENCY,
    async (child, i) => {
      if (failed) return undefined;
      try {
        return await fill(child.path, i, handoff.early.promise, handoff.final.promise, prefix);
      } catch (reason) {
        failed ??= { reason };
        return undefined;
      }
    },
  );
  const [prepared] = await Promise.allSettled([preparing]);
  if (added.status === "rejected") throw added.reason;
  if (prepared.status === "rejected") throw prepared.reason;
  if (failed) throw failed.reason;
  const { live, state, seed } = prepared.value;
  return { live, state, seed, children: children as SpawnedChild[] };
}

/**
 * Record the parent's exact state as a seed, for a worktree a harness makes itself.
 *
 * @param cwd The parent's directory (default: the current directory).
 * @returns The parent's capture, its state and the seed.
 * @throws {GitError} when git fails or the tree kept changing.
 */
export async function seedParent(cwd?: string): Promise<Omit<Spawn, "children">> {
  const parent = await parentLocation(cwd);
  const where = cwd === undefined ? FOR_BLOCK : { ...FOR_BLOCK, cwd };
  for (let attempt = 1;; attempt++) {
    const live = await captureLive(where);
    const left = new Set<string>();
    const files = new Map<string, RawEntry>();
    const state = await captureState(parent.top, { left, files });
    await refuseLeftOut(left, parent.top); // tether:guard wt-seed-left-out
    const after = await captureLive(where);
    if (
      state.head === live.parent_head && after.parent_head === live.parent_head &&
      after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
    ) {
      // The block carries worktree mode's fingerprint, as a spawned child's does.
      const fp = await carriedFingerprint(live.status, gitlinksOf(files));
      return {
        live: { ...live, parent_dirty_fingerprint: fp },
        state,
        seed: await writeSeed(parent.top, state),
      };
    }
    if (attempt >= 3) {
      throw new GitError("failed", "The parent's tree kept changing while it was captured");
    }
  }
}
