/**
 * Spawn: make linked worktrees whose HEAD is the parent's HEAD, on new branches, holding
 * the parent's exact uncommitted work (staged, unstaged, deletions, untracked files that
 * are not ignored), recorded as one seed. All through git; the parent's index, working
 * tree and stash are never written.
 *
 * @module
 */
import { GitError, gitText, objectFormat, oidLength, runGit } from "../git.ts";
import { captureLive, type LiveTree } from "../capture.ts";
import { fingerprint } from "../fingerprint.ts";
import { captureState, seedIndexPath, type TreeState } from "../seed/state.ts";
import { writeSeed } from "../seed/commit.ts";
import { branchName, SPAWN_REF_PREFIX } from "./plan.ts";

/** One child worktree. */
export interface SpawnedChild {
  /** Absolute top level. */
  path: string;
  /** The branch checked out in it (short name). */
  branch: string;
  /** The directory in it that corresponds to the parent's working directory. */
  cwd: string;
}

/** What a spawn made. */
export interface Spawn {
  /** The parent's live capture (the v1 fields). */
  live: LiveTree;
  /** The parent's exact state. */
  state: TreeState;
  /** The seed commit recording it. */
  seed: string;
  /** The children, in the order of the directories asked for. */
  children: SpawnedChild[];
}

/** Where the parent stands: its top level and the prefix of its working directory. */
export async function parentLocation(): Promise<{ top: string; prefix: string }> {
  const text = await gitText(["rev-parse", "--show-toplevel", "--show-prefix"]);
  const lines = text.split("\n");
  if (lines.length !== 2 || !lines[0]) {
    throw new GitError("failed", "Cannot read the parent's top level (a newline in a path?)");
  }
  return { top: lines[0], prefix: lines[1]!.replace(/\/$/, "") };
}

/**
 * Remove worktrees a spawn made, their branches and spawn refs (never a seed ref, which
 * another spawn of the same state may share).
 *
 * @param made The worktrees (absolute paths) and their branches.
 */
export async function undo(made: { path: string; branch?: string }[]): Promise<void> {
  for (const child of made) {
    await runGit(["worktree", "remove", "--force", "--force", "--end-of-options", child.path], {
      allowFailure: true,
    });
    if (child.branch) {
      await runGit(["update-ref", "-d", `refs/heads/${child.branch}`], { allowFailure: true });
      await runGit(["update-ref", "-d", `${SPAWN_REF_PREFIX}${child.branch.slice(7)}`], {
        allowFailure: true,
      });
    }
  }
  await runGit(["worktree", "prune"], { allowFailure: true });
}

/** Create the first free branch `tether/<seed>-<n>` at `head`; returns its short name. */
async function createBranch(seed: string, head: string, zero: string, from: number) {
  for (let n = from; n < from + 1000; n++) {
    const name = branchName(seed, n);
    const r = await runGit(
      ["update-ref", "-m", "tether: spawn", `refs/heads/${name}`, head, zero], // guard: create only
      { allowFailure: true },
    );
    if (r.code === 0) return { name, n };
  }
  throw new GitError("failed", "No free branch name for the worktree");
}

/**
 * Make one linked worktree per directory, each holding the parent's exact state.
 *
 * @param dirs The directories (relative to the current directory or absolute); git
 * creates them and refuses one that exists and is not empty.
 * @returns The parent's capture, its state, the seed and the children.
 * @throws {GitError} when git fails, HEAD moved, or a child's state is not the seed's; in
 * every case nothing made is left behind.
 */
export async function spawnWorktrees(dirs: readonly string[]): Promise<Spawn> {
  const parent = await parentLocation();
  const made: { path: string; branch?: string }[] = [];
  try {
    const first = await captureLive();
    const format = await objectFormat();
    for (const dir of dirs) {
      await runGit([
        "worktree",
        "add",
        "--no-checkout",
        "--detach",
        "--end-of-options",
        dir,
        first.parent_head,
      ]);
      made.push({ path: dir });
      const top = await gitText(["rev-parse", "--show-toplevel"], { cwd: dir });
      made[made.length - 1]!.path = top;
    }
    // The scratch index of the first child: no other process uses it.
    const scratch = await seedIndexPath(made[0]!.path);
    let live = first;
    let state: TreeState | undefined;
    for (let attempt = 1; state === undefined; attempt++) {
      const candidate = await captureState(parent.top, {
        indexFile: scratch,
        trustStatCache: false,
      });
      const after = await captureLive();
      if (
        candidate.head === live.parent_head && after.parent_head === live.parent_head &&
        after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
      ) {
        state = candidate;
      } else if (attempt >= 3) {
        throw new GitError("failed", "The parent's tree kept changing while it was captured");
      } else {
        live = after;
      }
    }
    if (state.head !== first.parent_head) {
      throw new GitError("failed", "The parent's HEAD moved while the worktrees were made");
    }
    const seed = await writeSeed(parent.top, state);
    const zero = "0".repeat(oidLength(format));
    const children: SpawnedChild[] = [];
    let n = 1;
    for (const child of made) {
      const opts = { cwd: child.path };
      await runGit(["read-tree", "--reset", "-u", "--end-of-options", state.worktree], opts);
      await runGit(["read-tree", "--end-of-options", state.index], opts);
      const branch = await createBranch(seed, state.head, zero, n);
      n = branch.n + 1;
      child.branch = branch.name;
      await runGit(["update-ref", `${SPAWN_REF_PREFIX}${branch.name.slice(7)}`, seed]);
      await runGit(["symbolic-ref", "HEAD", `refs/heads/${branch.name}`], opts);
      const [childState, status] = await Promise.all([
        captureState(child.path),
        runGit(["status", "--porcelain"], opts),
      ]);
      if (
        childState.head !== state.head || childState.index !== state.index ||
        childState.worktree !== state.worktree
      ) {
        throw new GitError("failed", `The worktree ${child.path} does not hold the seed's state`);
      }
      if (await fingerprint(status.stdout) !== live.parent_dirty_fingerprint) {
        throw new GitError(
          "failed",
          `git status in ${child.path} differs from the parent's (submodules or filters?)`,
        );
      }
      const cwd = parent.prefix === "" ? child.path : `${child.path}/${parent.prefix}`;
      const inside = await runGit(["rev-parse", "--show-prefix"], { cwd, allowFailure: true });
      if (inside.code !== 0) {
        throw new GitError(
          "failed",
          `The parent's directory "${parent.prefix}" holds nothing git carries (only ignored or no files), so the worktree has no such directory`,
        );
      }
      children.push({ path: child.path, branch: branch.name, cwd });
    }
    return { live, state, seed, children };
  } catch (error) {
    await undo(made);
    throw error;
  }
}

/**
 * Record the parent's exact state as a seed, for a worktree a harness makes itself.
 *
 * @returns The parent's capture, its state and the seed.
 * @throws {GitError} when git fails or the tree kept changing.
 */
export async function seedParent(): Promise<Omit<Spawn, "children">> {
  const parent = await parentLocation();
  for (let attempt = 1;; attempt++) {
    const live = await captureLive();
    const state = await captureState(parent.top);
    const after = await captureLive();
    if (
      state.head === live.parent_head && after.parent_head === live.parent_head &&
      after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
    ) {
      return { live, state, seed: await writeSeed(parent.top, state) };
    }
    if (attempt >= 3) {
      throw new GitError("failed", "The parent's tree kept changing while it was captured");
    }
  }
}
