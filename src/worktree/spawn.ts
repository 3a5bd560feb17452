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
import { captureLive, type LiveTree } from "../capture.ts";
import { fingerprint } from "../fingerprint.ts";
import { captureState, seedIndexPath, type TreeState } from "../seed/state.ts";
import { writeSeed } from "../seed/commit.ts";
import { BRANCH_PREFIX, branchName, SPAWN_REF_PREFIX } from "./plan.ts";

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

/** The transaction lines that claim name `n`: its branch at `head` and its spawn ref at the seed. */
function claimLines(seed: string, head: string, n: number): string {
  const name = branchName(seed, n);
  return `create refs/heads/${name} ${head}\n` + // tether:guard wt-create-only
    `create ${SPAWN_REF_PREFIX}${name.slice(BRANCH_PREFIX.length)} ${seed}\n`;
}

/**
 * Claim the first free name `tether/<seed>-<n>` from `from` on: the branch at `head` and
 * its spawn ref at the seed, created together in one transaction that fails when either
 * exists, so concurrent spawns never share a name.
 */
async function claimBranch(seed: string, head: string, from: number) {
  for (let n = from; n < from + 1000; n++) {
    const r = await runGit(["update-ref", "-m", "tether: spawn", "--stdin"], {
      stdin: claimLines(seed, head, n),
      allowFailure: true,
    });
    if (r.code === 0) return { name: branchName(seed, n), n };
  }
  throw new GitError("failed", "No free branch name for the worktree");
}

/**
 * Claim a branch and spawn ref per child: names 1 … N in one transaction (all or none),
 * else (a spawn of the same state took some) one by one from the first free name on.
 */
async function claimBranches(seed: string, head: string, made: { branch?: string }[]) {
  const all = made.map((_, i) => claimLines(seed, head, i + 1)).join("");
  const r = await runGit(["update-ref", "-m", "tether: spawn", "--stdin"], {
    stdin: all,
    allowFailure: true,
  });
  if (r.code === 0) {
    made.forEach((child, i) => child.branch = branchName(seed, i + 1));
    return;
  }
  let n = 1;
  for (const child of made) {
    const claimed = await claimBranch(seed, head, n);
    child.branch = claimed.name;
    n = claimed.n + 1;
  }
}

/**
 * Check out the seed's working tree in one child and check that the files are exactly it:
 * with the index at that tree and fresh stat data, no worktree change and nothing
 * untracked in its status proves it.
 */
async function checkOut(dir: string, state: TreeState): Promise<void> {
  const opts = { cwd: dir };
  await runGit(["read-tree", "--reset", "-u", "--end-of-options", state.worktree], opts);
  // Index and HEAD differ by design; the files must equal the index: no entry may show a
  // worktree change (Y) and none may be untracked.
  const clean = await runGit(
    ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"],
    { ...opts, parse: true },
  );
  const entries = new TextDecoder().decode(clean.stdout).split("\0").filter((e) => e !== "");
  if (entries.some((e) => e[1] !== " ")) {
    throw new GitError("failed", `The worktree ${dir} does not hold the seed's working tree`);
  }
}

/**
 * Finish one checked-out child: set the index to the seed's index tree keeping stat data
 * and attach HEAD to the branch, then check that the child's status has the parent's
 * fingerprint and the parent's directory exists in it.
 */
async function finish(
  dir: string,
  branch: string,
  state: TreeState,
  fp: string,
  prefix: string,
): Promise<SpawnedChild> {
  const opts = { cwd: dir };
  await Promise.all([
    runGit(["read-tree", "-m", "--end-of-options", state.index], opts),
    runGit(["symbolic-ref", "HEAD", `refs/heads/${branch}`], opts),
  ]);
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
    await refuseInsideParent(dirs, parent.top);
    const first = await captureLive();
    await addWorktree(dirs[0]!, first.parent_head);
    made.push({ path: dirs[0]! });
    // The scratch index of the first child: no other process uses it. The other
    // worktrees are added (one at a time) while the parent's state is captured.
    const scratch = await seedIndexPath(made[0]!.path);
    const [adding, capturing] = await Promise.allSettled([
      addWorktrees(dirs.slice(1), first.parent_head, made),
      captureStable(parent.top, scratch, first),
    ]);
    if (adding.status === "rejected") throw adding.reason;
    if (capturing.status === "rejected") throw capturing.reason;
    const { live, state } = capturing.value;
    if (state.head !== first.parent_head) {
      throw new GitError("failed", "The parent's HEAD moved while the worktrees were made");
    }
    // The seed and the branches are written while the children check out the files; every
    // step settles before any undo, so nothing is written into a worktree being removed.
    const [seeding, ...checking] = await Promise.allSettled([
      writeSeed(parent.top, state).then(async (seed) => {
        await claimBranches(seed, state.head, made);
        return seed;
      }),
      ...made.map((child) => checkOut(child.path, state)),
    ]);
    const failed = [seeding, ...checking].find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    const seed = (seeding as PromiseFulfilledResult<string>).value;
    const settled = await Promise.allSettled(
      made.map((child) =>
        finish(child.path, child.branch!, state, live.parent_dirty_fingerprint, parent.prefix)
      ),
    );
    const unfinished = settled.find((s) => s.status === "rejected");
    if (unfinished) throw unfinished.reason;
    const children = settled.map((s) => (s as PromiseFulfilledResult<SpawnedChild>).value);
    return { live, state, seed, children };
  } catch (error) {
    await undo(made);
    throw error;
  }
}

/** `git worktree add --no-checkout --detach DIR HEAD`. */
async function addWorktree(dir: string, head: string): Promise<void> {
  await runGit(["worktree", "add", "--no-checkout", "--detach", "--end-of-options", dir, head]);
}

/**
 * Add worktrees one after another (git's `worktree add` reads the other worktrees' admin
 * directories, and fails on one being made by a concurrent add), each recorded in `made`
 * as soon as it exists.
 */
async function addWorktrees(
  dirs: readonly string[],
  head: string,
  made: { path: string }[],
): Promise<void> {
  for (const dir of dirs) {
    await addWorktree(dir, head);
    made.push({ path: dir });
  }
}

/**
 * Capture the parent's state in the scratch index, then its v1 fields again: the state
 * counts only when HEAD and the dirty fingerprint did not move meanwhile (three tries).
 */
async function captureStable(
  top: string,
  scratch: string,
  first: LiveTree,
): Promise<{ live: LiveTree; state: TreeState }> {
  let live = first;
  for (let attempt = 1;; attempt++) {
    const candidate = await captureState(top, { indexFile: scratch });
    const after = await captureLive();
    if (
      candidate.head === live.parent_head && after.parent_head === live.parent_head &&
      after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
    ) {
      return { live, state: candidate };
    }
    if (attempt >= 3) {
      throw new GitError("failed", "The parent's tree kept changing while it was captured");
    }
    live = after;
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
