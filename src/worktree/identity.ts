/**
 * Which worktree is the child, decided from the parent's side as pure functions: the
 * parent's `git worktree list --porcelain -z`, the directory the parent names and the seed
 * the parent holds. Nothing here reads what the child's own git reports (its top level,
 * git dir or HEAD), so a child cannot point `gate --worktree` at another worktree, another
 * child's branch or a seed of its choosing.
 *
 * @module
 */

import { BRANCH_PREFIX, SPAWN_REF_PREFIX } from "./plan.ts";
import { quoteLine } from "../show.ts";

/** One entry of `git worktree list --porcelain`. */
export interface WorktreeEntry {
  /** The worktree's path, as git records it (absolute, real). */
  path: string;
  /** The full ref HEAD is attached to, or undefined when detached. */
  branch?: string;
}

/**
 * Parse `git worktree list --porcelain -z`: the first entry is the main worktree.
 *
 * @example Main worktree and a detached child
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const text = "worktree /p\0HEAD aa\0branch refs/heads/main\0\0worktree /k/1\0HEAD aa\0detached\0\0";
 * assertEquals(parseWorktreeList(text), [
 *   { path: "/p", branch: "refs/heads/main" },
 *   { path: "/k/1" },
 * ]);
 * ```
 * @param text What git printed.
 * @returns The entries in git's order.
 */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const line of text.split("\0")) {
    if (line.startsWith("worktree ")) entries.push({ path: line.slice(9) });
    else if (line.startsWith("branch ") && entries.length > 0) {
      entries[entries.length - 1]!.branch = line.slice(7);
    }
  }
  return entries;
}

/** The child found for a directory: its branch (short name) and spawn ref. */
export interface ChildIdentity {
  /** `tether/<seed 12 hex>-<n>`. */
  branch: string;
  /** `refs/tether/spawned/<seed 12 hex>-<n>`. */
  spawnRef: string;
}

/**
 * Find the child at `top` in the parent's worktree list: exactly one entry at that path,
 * not the main worktree nor the parent's own, on a branch `tether/<seed 12 hex>-<n>` of
 * this seed that no other worktree has checked out.
 *
 * @example A child, and one pointing its HEAD at a sibling's branch
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const seed = "0123456789ab" + "c".repeat(28);
 * const list = [
 *   { path: "/p", branch: "refs/heads/main" },
 *   { path: "/k/1", branch: "refs/heads/tether/0123456789ab-1" },
 *   { path: "/k/2", branch: "refs/heads/tether/0123456789ab-1" },
 * ];
 * assertEquals(
 *   identifyChild(list.slice(0, 2), "/k/1", seed, "/p"),
 *   { branch: "tether/0123456789ab-1", spawnRef: "refs/tether/spawned/0123456789ab-1" },
 * );
 * assertEquals(
 *   identifyChild(list, "/k/2", seed, "/p"),
 *   'its branch tether/0123456789ab-1 is also checked out at "/k/1": refusing to judge, land or remove it',
 * );
 * ```
 * @param entries The parent's worktree list.
 * @param top The child's directory, made absolute and real by the parent.
 * @param seed The seed the parent holds (full id).
 * @param parentTop The parent's top level.
 * @returns The child, or one sentence saying why this is not the child of that seed.
 */
export function identifyChild(
  entries: readonly WorktreeEntry[],
  top: string,
  seed: string,
  parentTop: string,
): ChildIdentity | string {
  const found = entries.filter((e) => e.path === top);
  if (found.length === 0) {
    return `git worktree list has no worktree at ${
      quoteLine(top)
    }: not a worktree handshake --worktree made in this repository`;
  }
  if (found.length > 1) {
    return `git worktree list has ${found.length} worktrees at ${quoteLine(top)}`;
  }
  if (top === entries[0]?.path || top === parentTop) {
    return `${quoteLine(top)} is the parent's own or the main worktree, not a child`;
  }
  const prefix = `refs/heads/${BRANCH_PREFIX}${seed.slice(0, 12)}-`;
  const ref = found[0]!.branch;
  const n = ref?.startsWith(prefix) ? ref.slice(prefix.length) : "";
  if (ref === undefined || !/^[1-9][0-9]*$/.test(n)) { // tether:guard wt-child-branch
    return `${quoteLine(top)} is on ${
      ref === undefined ? "a detached HEAD" : quoteLine(ref.slice(11))
    }, not a branch handshake --worktree made for seed ${seed.slice(0, 12)} (${BRANCH_PREFIX}${
      seed.slice(0, 12)
    }-<n>)`;
  }
  const branch = ref.slice(11);
  const other = entries.find((e) => e.path !== top && e.branch === ref);
  if (other !== undefined) { // tether:guard wt-branch-shared
    return `its branch ${branch} is also checked out at ${
      quoteLine(other.path)
    }: refusing to judge, land or remove it`;
  }
  return { branch, spawnRef: `${SPAWN_REF_PREFIX}${branch.slice(BRANCH_PREFIX.length)}` };
}
