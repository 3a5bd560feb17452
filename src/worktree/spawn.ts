/**
 * Spawn: make linked worktrees whose HEAD is the parent's HEAD, on new branches, holding
 * the parent's exact uncommitted work (staged, unstaged, deletions, untracked files that
 * are not ignored), recorded as one seed. All through git; the parent's index, working
 * tree and stash are never written.
 *
 * @module
 */
import { resolve } from "node:path";
import { GitError, gitText, runGit } from "../git.ts";
import type { RawEntry } from "../context/content.ts";
import { captureLive, type LiveTree } from "../handshake/capture.ts";
import { fingerprint } from "../handshake/fingerprint.ts";
import {
  captureState,
  changedPaths,
  rawTree,
  seedIndexPath,
  type TreeState,
} from "../seed/state.ts";
import { spawnRefusal } from "../seed/refusal.ts";
import { writeSeed } from "../seed/commit.ts";
import { BRANCH_PREFIX, branchName, listPaths, SPAWN_REF_PREFIX } from "./plan.ts";

/**
 * The child's checkout writes the seed's raw bytes back: no line-ending rewrite from the
 * configuration (attributes can still ask for one; the byte check below then refuses).
 */
const CHECKOUT_CONFIG: readonly string[] = ["-c", "core.autocrlf=false", "-c", "core.eol=lf"];

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
      await runGit([
        "update-ref",
        "-d",
        `${SPAWN_REF_PREFIX}${child.branch.slice(BRANCH_PREFIX.length)}`,
      ], {
        allowFailure: true,
      });
    }
  }
  await runGit(["worktree", "prune"], { allowFailure: true });
}

/**
 * Claim the first free name `tether/<seed>-<n>` from `from` on: the branch at `head` and
 * its spawn ref at the seed, created together in one transaction that fails when either
 * exists, so concurrent spawns never share a name.
 */
async function claimBranch(seed: string, head: string, from: number) {
  for (let n = from; n < from + 1000; n++) {
    const name = branchName(seed, n);
    const stdin = `create refs/heads/${name} ${head}\n` + // tether:guard wt-create-only
      `create ${SPAWN_REF_PREFIX}${name.slice(BRANCH_PREFIX.length)} ${seed}\n`;
    const r = await runGit(["update-ref", "-m", "tether: spawn", "--stdin"], {
      stdin,
      allowFailure: true,
    });
    if (r.code === 0) return { name, n };
  }
  throw new GitError("failed", "No free branch name for the worktree");
}

/**
 * Fill one child: check out the seed's working tree, check that the files are exactly its
 * bytes (the child's files hashed raw, as the parent's were, give the same tree), then set
 * the index to the seed's index tree keeping stat data, attach HEAD to the branch, and
 * check that the child's status has the parent's fingerprint and the parent's directory
 * exists in it.
 */
async function fill(
  dir: string,
  branch: string,
  state: TreeState,
  tracked: ReadonlyMap<string, RawEntry>,
  fp: string,
  prefix: string,
): Promise<SpawnedChild> {
  const opts = { cwd: dir };
  await runGit([
    ...CHECKOUT_CONFIG,
    "read-tree",
    "--reset",
    "-u",
    "--end-of-options",
    state.worktree,
  ], opts);
  const written = await rawTree(dir, tracked);
  if (written !== state.worktree) { // tether:guard wt-spawn-bytes
    const paths = await changedPaths(dir, state.worktree, written);
    throw new GitError(
      "failed",
      `The worktree ${dir} does not hold the parent's files byte for byte at: ${
        listPaths(paths)
      } (line-ending, encoding or filter attributes rewrote them on checkout)`,
    );
  }
  await runGit(["read-tree", "-m", "--end-of-options", state.index], opts);
  await runGit(["symbolic-ref", "HEAD", `refs/heads/${branch}`], opts);
  const [status, where] = await Promise.all([
    runGit(["status", "--porcelain"], opts),
    runGit(["rev-parse", "--show-toplevel"], {
      cwd: prefix === "" ? dir : `${dir}/${prefix}`,
      parse: true,
      allowFailure: true,
    }),
  ]);
  if (await fingerprint(status.stdout) !== fp) {
    throw new GitError(
      "failed",
      `git status in ${dir} differs from the parent's (submodules or filters?)`,
    );
  }
  const top = new TextDecoder().decode(where.stdout).replace(/\n$/, "");
  if (where.code !== 0 || !top) {
    throw new GitError(
      "failed",
      `The parent's directory "${prefix}" holds nothing git carries (only ignored or no files), so the worktree has no such directory`,
    );
  }
  return { path: top, branch, cwd: prefix === "" ? top : `${top}/${prefix}` };
}

/**
 * Refuse a worktree directory inside the parent's working tree that git does not ignore:
 * it would show in the parent's status and be recorded (as an embedded repository) in
 * the seed of every child. Paths are compared as spelled, after making them absolute.
 */
async function refuseInsideParent(dirs: readonly string[], top: string): Promise<void> {
  for (const dir of dirs) {
    const absolute = resolve(dir);
    if (!absolute.startsWith(`${top}/`)) continue;
    const relative = absolute.slice(top.length + 1);
    const ignored = await runGit(["check-ignore", "-q", "--", `${relative}/`], {
      cwd: top,
      allowFailure: true,
    });
    if (ignored.code !== 0) {
      throw new GitError(
        "failed",
        `The worktree directory "${dir}" is inside the parent's working tree and not ignored; put it outside, or in an ignored directory`,
      );
    }
  }
}

/**
 * Refuse a parent tree no worktree can carry: unmerged paths (no tree to record) or a
 * nested repository (a gitlink checks out as an empty directory), in one line naming the
 * paths. One `git status` whatever the tree holds.
 */
async function refuseUncarried(top: string): Promise<void> {
  const status = await runGit(
    ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"],
    { cwd: top, parse: true },
  );
  const refusal = spawnRefusal(status.stdout);
  if (refusal !== undefined) throw new GitError("failed", refusal); // GUARD:spawn-uncarried
}

/**
 * Make one linked worktree per directory, each holding the parent's exact state.
 *
 * @param dirs The directories (relative to the current directory or absolute); git
 * creates them and refuses one that exists and is not empty.
 * @returns The parent's capture, its state, the seed and the children.
 * @throws {GitError} when git fails, the parent has unmerged paths or a nested repository
 * (refused before anything is made), HEAD moved, or a child's state is not the seed's; in
 * every case nothing made is left behind.
 */
export async function spawnWorktrees(dirs: readonly string[]): Promise<Spawn> {
  const parent = await parentLocation();
  const made: { path: string; branch?: string }[] = [];
  try {
    await refuseInsideParent(dirs, parent.top);
    const [first] = await Promise.all([captureLive(), refuseUncarried(parent.top)]);
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
    }
    // The scratch index of the first child: no other process uses it.
    const scratch = await seedIndexPath(made[0]!.path);
    let live = first;
    let state: TreeState | undefined;
    const files = new Map<string, RawEntry>();
    for (let attempt = 1; state === undefined; attempt++) {
      files.clear();
      const candidate = await captureState(parent.top, { indexFile: scratch, files });
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
    let n = 1;
    for (const child of made) {
      const claimed = await claimBranch(seed, state.head, n);
      child.branch = claimed.name;
      n = claimed.n + 1;
    }
    const filled = state;
    // Every fill settles before any undo, so nothing is written into a worktree being removed.
    const settled = await Promise.allSettled(
      made.map((child) =>
        fill(
          child.path,
          child.branch!,
          filled,
          files,
          live.parent_dirty_fingerprint,
          parent.prefix,
        )
      ),
    );
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const children = settled.map((s) => (s as PromiseFulfilledResult<SpawnedChild>).value);
    return { live, state, seed, children };
  } catch (error) {
    await undo(made);
    throw error;
  }
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
  const where = cwd === undefined ? {} : { cwd };
  for (let attempt = 1;; attempt++) {
    const live = await captureLive(where);
    const state = await captureState(parent.top);
    const after = await captureLive(where);
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
