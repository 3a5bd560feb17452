/**
 * Worktree mode decisions as pure functions: where the children go, what their branches
 * are called, and how a worktree's base relates to the parent's HEAD, in words.
 *
 * @module
 */

/** The prefix of every branch a spawn makes. */
export const BRANCH_PREFIX = "tether/";
/** Where a spawned branch's seed is recorded (by the branch's name after `tether/`). */
export const SPAWN_REF_PREFIX = "refs/tether/spawned/";
/** Where a kept land records the child's tree that landed (see `record.ts`). */
export const LANDED_REF_PREFIX = "refs/tether/landed/";

/**
 * The worktree directories of a batch: `DIR` itself for one child; `DIR/1` … `DIR/N`
 * (DIR as their parent directory) for `--count N` above 1.
 *
 * @example One and three children
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(childDirs("../wt", 1), ["../wt"]);
 * assertEquals(childDirs("../wt/", 3), ["../wt/1", "../wt/2", "../wt/3"]);
 * ```
 * @param dir The `--worktree` value.
 * @param count How many children.
 * @returns One directory per child.
 */
export function childDirs(dir: string, count: number): string[] {
  if (count === 1) return [dir];
  const base = dir.replace(/[\\/]+$/, "") || "/";
  return Array.from({ length: count }, (_, i) => `${base === "/" ? "" : base}/${i + 1}`);
}

/**
 * The name of a spawned branch: `tether/<first 12 hex of the seed>-<n>`. Several
 * spawns of one state try n = 1, 2, … until a name is free, so every name is unique.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(branchName("0123456789abcdef0123", 2), "tether/0123456789ab-2");
 * ```
 * @param seed The seed id.
 * @param n The attempt number, from 1.
 * @returns The short branch name.
 */
export function branchName(seed: string, n: number): string {
  return `${BRANCH_PREFIX}${seed.slice(0, 12)}-${n}`;
}

/** How a worktree's HEAD relates to the parent's HEAD. */
export type BaseRelation =
  | { kind: "same" }
  | { kind: "behind"; behind: number }
  | { kind: "ahead"; ahead: number }
  | { kind: "diverged"; ahead: number; behind: number }
  | { kind: "unrelated" }
  | { kind: "unknown" };

/**
 * Decide the relation from `git rev-list --left-right --count HEAD...<parent head>`
 * counts and whether a merge base exists.
 *
 * @example Behind, ahead, diverged, unrelated
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(relation(0, 3, true), { kind: "behind", behind: 3 });
 * assertEquals(relation(2, 0, true), { kind: "ahead", ahead: 2 });
 * assertEquals(relation(1, 4, true), { kind: "diverged", ahead: 1, behind: 4 });
 * assertEquals(relation(5, 7, false), { kind: "unrelated" });
 * ```
 * @param ahead Commits in this HEAD and not in the parent's.
 * @param behind Commits in the parent's HEAD and not in this one.
 * @param sharesHistory Whether the two have a merge base.
 * @returns The relation.
 */
export function relation(ahead: number, behind: number, sharesHistory: boolean): BaseRelation {
  if (!sharesHistory) return { kind: "unrelated" };
  if (ahead === 0 && behind === 0) return { kind: "same" };
  if (ahead === 0) return { kind: "behind", behind };
  if (behind === 0) return { kind: "ahead", ahead };
  return { kind: "diverged", ahead, behind };
}

function commits(n: number): string {
  return `${n} commit${n === 1 ? "" : "s"}`;
}

/**
 * Say in words what is wrong with a worktree's base, and what to do about it.
 *
 * @example A stale base
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(
 *   describeBase({ kind: "behind", behind: 3 }, "aaa", "bbb"),
 *   "stale base: this worktree's HEAD aaa is 3 commits behind the parent's HEAD bbb; it was made from an older commit and lacks those 3 commits; re-create the worktree from bbb",
 * );
 * ```
 * @param rel The relation.
 * @param head This worktree's HEAD.
 * @param parentHead The parent's HEAD from the block.
 * @returns One sentence.
 */
export function describeBase(rel: BaseRelation, head: string, parentHead: string): string {
  const fix = `re-create the worktree from ${parentHead}`;
  switch (rel.kind) {
    case "same":
      return `base: this worktree's HEAD is the parent's HEAD ${parentHead}`;
    case "behind":
      return `stale base: this worktree's HEAD ${head} is ${
        commits(rel.behind)
      } behind the parent's HEAD ${parentHead}; it was made from an older commit and lacks ${
        rel.behind === 1 ? "that commit" : `those ${rel.behind} commits`
      }; ${fix}`;
    case "ahead":
      return `moved base: this worktree's HEAD ${head} is ${
        commits(rel.ahead)
      } ahead of the parent's HEAD ${parentHead}; commits were made here before Step 0; ${fix}`;
    case "diverged":
      return `foreign base: this worktree's HEAD ${head} and the parent's HEAD ${parentHead} have diverged (${
        commits(rel.ahead)
      } here, ${commits(rel.behind)} there); it was made from another branch; ${fix}`;
    case "unrelated":
      return `foreign base: this worktree's HEAD ${head} shares no history with the parent's HEAD ${parentHead}; it belongs to another project; ${fix}`;
    case "unknown":
      return `foreign base: the parent's HEAD ${parentHead} is not a commit in this repository; this worktree was made from another repository or a clone; ${fix}`;
  }
}
