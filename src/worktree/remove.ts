/**
 * Removing what spawn made for a child once it has landed (or is dropped): its worktree,
 * its branch, spawn ref and land record, and nothing else. Every step asks where the
 * repository is before and after, so a removal is never reported that went to another
 * repository.
 *
 * @module
 */

import { ownWords, resultWords } from "../git_failure.ts";
import { runGit } from "../git.ts";
import { repositoryMoved } from "../repo_pin.ts";
import { quoteLine } from "../show.ts";
import { type ChildWork, worktreeList } from "./child_work.ts";
import { recordRef } from "./record.ts";
import { repositoryPin } from "../git_pin.ts";

/**
 * Remove what spawn made for a landed child, and nothing else: its worktree entry (the
 * one found at its path), then its branch unless a worktree still has it checked out,
 * then (with the branch) its spawn ref if it still points at the seed, and its land
 * record. A step that fails is named, never thrown: the land has already happened. Nothing
 * is removed when git no longer finds the pinned repository, and a move found right after
 * the removals is named too, so a removal is never reported that went to another repository.
 *
 * @param child The child.
 * @returns What could not be removed, with git's reason (empty when all was removed).
 */
export async function removeChild(child: ChildWork): Promise<string[]> {
  const left: string[] = [];
  const step = async (what: string, run: () => Promise<string | undefined>) => {
    try {
      const problem = await run();
      if (problem !== undefined) left.push(`${what} (${problem})`);
    } catch (error) {
      left.push(`${what} (${ownWords(error)})`);
    }
  };
  const tried = async (args: string[]) => {
    const r = await runGit(args, { allowFailure: true, parse: true });
    return r.code === 0 ? undefined : resultWords(args, r);
  };
  // Where the repository is, asked before the removals and after them: git's ref store reads
  // a commondir file whatever the pin says, so a removal may have gone to another
  // repository, and is then never reported as done.
  const movedBefore = await movedSince();
  if (movedBefore !== undefined) { // tether:guard wt-pin-remove-before
    return [`the worktree ${quoteLine(child.top)} and the branch ${child.branch} (${movedBefore})`];
  }
  await step(
    `the worktree ${quoteLine(child.top)}`,
    () => tried(["worktree", "remove", "--force", "--force", "--end-of-options", child.top]),
  );
  let branchGone = false;
  await step(`the branch ${child.branch}`, async () => {
    const holder = (await worktreeList()).find((e) => e.branch === `refs/heads/${child.branch}`);
    if (holder !== undefined) return `checked out at ${quoteLine(holder.path)}`; // tether:guard wt-keep-held-branch
    const problem = await tried(["update-ref", "-d", `refs/heads/${child.branch}`]);
    branchGone = problem === undefined;
    return problem;
  });
  // The spawn ref and the land record go with the branch: a child that stays can still be
  // gated. A spawn ref that was already missing has nothing to remove.
  if (branchGone && !child.spawnRefMissing) {
    await step(
      `the spawn ref ${child.spawnRef}`,
      () => tried(["update-ref", "-d", child.spawnRef, child.seed]),
    );
  }
  if (branchGone) {
    await step(
      `the land record ${recordRef(child.branch)}`,
      () => tried(["update-ref", "-d", recordRef(child.branch)]),
    );
  }
  const movedAfter = await movedSince();
  if (movedAfter !== undefined) { // tether:guard wt-pin-remove-after
    left.push(
      `what was removed may have been another repository's (${movedAfter}): check git worktree list and the refs of the branch ${child.branch} by hand`,
    );
  }
  return left;
}

/**
 * Where git run at the pinned top level finds the repository now, when that is not the
 * pinned one (see {@linkcode repositoryMoved}); undefined when it is, or when nothing was
 * pinned. A probe that cannot run says so.
 */
export async function movedSince(): Promise<string | undefined> {
  const pin = repositoryPin();
  if (pin === undefined) return undefined;
  try {
    const moved = await repositoryMoved(pin);
    return moved === undefined ? undefined : `meanwhile ${moved}`;
  } catch (error) {
    return `where the repository is could not be checked (${ownWords(error)})`;
  }
}

/** Remove the child unless kept; say what could not be removed. */
export async function tidy(
  child: ChildWork,
  keep: boolean,
): Promise<{ removed: boolean; not_removed?: string[] }> {
  if (keep) return { removed: false };
  const left = await removeChild(child);
  return left.length === 0 ? { removed: true } : { removed: false, not_removed: left };
}
