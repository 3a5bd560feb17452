/**
 * Undoing a spawn that cannot hand its children over: the worktrees, branches and spawn refs
 * it made, the directories git created for them, and the seed ref when the spawn wrote it
 * and nobody else uses it. Every step is allowed to fail (what is left is then left).
 *
 * @module
 */
import { gitText, runGit } from "../git.ts";
import { BRANCH_PREFIX, SPAWN_REF_PREFIX } from "./plan.ts";
import { dirExists } from "./spawn_dirs.ts";

/** What a spawn has made so far, so that a failed one removes exactly that. */
export interface Made {
  /** The worktrees added (absolute paths), and each one's branch once claimed. */
  worktrees: { path: string; branch?: string }[];
  /** The directories git created for them (real paths), deepest first. */
  created: string[];
  /** The seed ref, when this spawn wrote it (it did not exist before). */
  seedRef?: { ref: string; seed: string };
}

/**
 * Undo what a spawn made: its worktrees, branches and spawn refs, the directories git
 * created for them, and its own seed ref unless a spawn ref now points at the seed.
 *
 * @param made What the spawn made.
 */
export async function rollBack(made: Made): Promise<void> {
  await undo(made.worktrees);
  await removeEmptyDirs(made.created); // tether:guard wt-spawn-remove-dirs
  if (made.seedRef) await dropSeedRef(made.seedRef.ref, made.seedRef.seed);
}

/**
 * Remove worktrees a spawn made, their branches and spawn refs (never a seed ref, which
 * another spawn of the same state may share).
 *
 * @param made The worktrees (absolute paths) and their branches.
 */
async function undo(made: { path: string; branch?: string }[]): Promise<void> {
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
 * Remove empty directories with git alone: each becomes, for a moment, a linked worktree
 * of an empty commit (no checkout, so no hook runs), and `git worktree remove` without
 * `--force` deletes it only when nothing is in it. A directory that holds anything stays.
 */
export async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  if (dirs.length === 0) return;
  const fixed = {
    GIT_AUTHOR_NAME: "tether",
    GIT_AUTHOR_EMAIL: "tether@localhost",
    GIT_AUTHOR_DATE: "@0 +0000",
    GIT_COMMITTER_NAME: "tether",
    GIT_COMMITTER_EMAIL: "tether@localhost",
    GIT_COMMITTER_DATE: "@0 +0000",
  };
  const empty = await gitText(["mktree", "-z"], { stdin: "" });
  const commit = await gitText(["commit-tree", "-m", "tether: remove", "--end-of-options", empty], {
    env: fixed,
  });
  for (const dir of dirs) {
    if (!await dirExists(dir)) continue;
    const add = await runGit(
      ["worktree", "add", "--no-checkout", "--detach", "--end-of-options", dir, commit],
      { allowFailure: true },
    );
    if (add.code !== 0) break; // not empty: it and every directory above it stay
    const removed = await runGit(["worktree", "remove", "--end-of-options", dir], {
      allowFailure: true,
    });
    if (removed.code !== 0) break;
  }
  await runGit(["worktree", "prune"], { allowFailure: true });
}

/**
 * Delete a seed ref a failed spawn wrote, unless a spawn ref now points at the seed
 * (another spawn of the same state handed it to a child).
 */
export async function dropSeedRef(ref: string, seed: string): Promise<void> {
  const users = await runGit(
    ["for-each-ref", "--format=%(refname)", `--points-at=${seed}`, SPAWN_REF_PREFIX],
    { allowFailure: true },
  );
  if (users.code !== 0 || users.stdout.length > 0) return;
  await runGit(["update-ref", "-d", ref, seed], { allowFailure: true }); // tether:guard wt-spawn-drop-seed
}
