/**
 * verify in worktree mode, as a pure decision over facts git reported: which fields
 * diverged and, in words an agent can act on, what is wrong with the worktree.
 *
 * @module
 */
import type { TreeState } from "../seed/state.ts";
import { HARNESS, type V2Handshake } from "../handshake/v2/block.ts";
import { type BaseRelation, describeBase } from "./plan.ts";
import { listPaths } from "../show.ts";

/** What git reported about the child's worktree. */
export interface WorktreeFacts {
  /** `git rev-parse HEAD`. */
  head: string;
  /** `git rev-parse --abbrev-ref HEAD`. */
  branch: string;
  /** The ref HEAD names (`refs/heads/<branch>`, or `HEAD` when detached). */
  headRef: string;
  /** The child's working directory. */
  cwd: string;
  /** The fingerprint of the child's `git status --porcelain`. */
  fingerprint: string;
  /** The worktree's top level. */
  top: string;
  /** Whether it is a linked worktree (its git dir is not the common dir). */
  linked: boolean;
  /**
   * Whether it is the parent's own worktree (same top level or git dir); undefined when
   * the parent's directory cannot be resolved, which never counts as "not".
   */
  parentsOwn: boolean | undefined;
  /**
   * Whether its common git dir is the parent's; undefined when the parent's directory
   * cannot be resolved, which is a mismatch, never a skipped check.
   */
  sameRepository: boolean | undefined;
  /** Whether the top level is the block's `worktree_path` (tether-made form). */
  samePath: boolean;
  /** Whether the working directory is the block's `worktree_cwd` (tether-made form). */
  sameCwd: boolean;
  /** The live content state. */
  state: TreeState;
  /** The id of the live state's seed. */
  stateSeed: string;
  /** The seed's state, or undefined when the seed is not in this repository. */
  seedState: TreeState | undefined;
  /** How HEAD relates to the parent's HEAD. */
  base: BaseRelation;
  /** Paths whose content differs from the seed (working tree or index). */
  differing: string[];
  /** Of those, the paths of the parent's uncommitted work. */
  missing: string[];
}

/** The worktree-mode fields verify reports, in block order. */
export type WorktreeDiverged =
  | "parent_head"
  | "worktree_branch"
  | "worktree_cwd"
  | "parent_dirty_fingerprint"
  | "seed"
  | "worktree_path";

const ORDER: readonly WorktreeDiverged[] = [
  "parent_head",
  "parent_dirty_fingerprint",
  "seed",
  "worktree_path",
  "worktree_branch",
  "worktree_cwd",
];

/** The decision. */
export interface WorktreeDecision {
  /** Diverged field names, in block order. */
  diverged: WorktreeDiverged[];
  /** One sentence per problem, each saying what to do. */
  problems: string[];
}

/**
 * Decide the worktree-mode verdict. Tether-made form (`worktree_path` a path): the
 * worktree, its branch and directory must be the named ones. Harness form: any linked
 * worktree of the parent's repository other than the parent's own. Both: HEAD is the
 * parent's HEAD, the status fingerprint is the parent's, and the content equals the seed.
 *
 * @example A stale harness worktree lacking the parent's edit
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const state = { head: "b".repeat(40), index: "1".repeat(40), worktree: "2".repeat(40) };
 * const block = {
 *   parent_head: "a".repeat(40), parent_branch: "main", parent_cwd: "/r",
 *   parent_dirty_fingerprint: "ef71e55616b3", workspace_mode: "worktree" as const,
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z", seed: "c".repeat(40),
 *   worktree_path: "harness", worktree_branch: "harness", worktree_cwd: "harness",
 * };
 * const d = decideWorktree(block, {
 *   head: "b".repeat(40), branch: "agent-1", headRef: "refs/heads/agent-1", cwd: "/w", fingerprint: "e3b0c44298fc", top: "/w",
 *   linked: true, parentsOwn: false, sameRepository: true, samePath: false, sameCwd: false,
 *   state, stateSeed: "d".repeat(40), seedState: { ...state, head: "a".repeat(40) },
 *   base: { kind: "behind", behind: 2 }, differing: ["a.txt"], missing: ["a.txt"],
 * });
 * assertEquals(d.diverged, ["parent_head", "parent_dirty_fingerprint", "seed"]);
 * assertEquals(d.problems.length, 2); // the stale base and the missing work
 * ```
 * @param block The v2 worktree-mode handshake.
 * @param facts What git reported.
 * @returns Diverged fields and problems.
 *
 * Kept whole: it is the decision table itself, one rule per field, each reading the same facts;
 * a reviewer checks it top to bottom in one sitting.
 */
export function decideWorktree(block: V2Handshake, facts: WorktreeFacts): WorktreeDecision {
  const harness = block.worktree_path === HARNESS;
  const diverged = new Set<WorktreeDiverged>();
  const problems: string[] = [];
  if (harness) {
    if (!facts.linked) { // tether:guard wt-main-worktree
      diverged.add("worktree_path");
      problems.push(
        `not isolated: ${facts.top} is a main worktree, not a linked worktree; run in the linked worktree the harness made for this subagent`,
      );
    } else if (facts.sameRepository === undefined) { // tether:guard wt-repository-unknown
      diverged.add("worktree_path");
      problems.push(
        `unconfirmed repository: the parent's directory ${block.parent_cwd} cannot be resolved here, so nothing shows that ${facts.top} is a worktree of the parent's repository; run where the parent's directory exists and is reachable, or have the parent dispatch again`,
      );
    } else if (facts.sameRepository === false) { // tether:guard wt-same-repository
      diverged.add("worktree_path");
      problems.push(
        `foreign worktree: ${facts.top} is a linked worktree of another repository than the parent's (${block.parent_cwd})`,
      );
    } else if (facts.linked && facts.parentsOwn !== false) { // each guard stands alone (mutation tests)
      diverged.add("worktree_path");
      problems.push(
        `not isolated: ${facts.top} is the parent's own worktree; run in the linked worktree the harness made for this subagent`,
      );
    }
  } else {
    if (!facts.samePath) { // tether:guard wt-named-worktree
      diverged.add("worktree_path");
      problems.push(
        `wrong worktree: this is ${facts.top}, the parent made ${block.worktree_path} for this subagent; run there`,
      );
    } else if (facts.linked !== true) { // tether:guard wt-named-linked
      // The path is the named one, but what stands there now is no linked worktree (a clone
      // or another repository made at that path): not the worktree the parent made.
      diverged.add("worktree_path");
      problems.push(
        `not isolated: ${facts.top} is a main worktree, not the linked worktree the parent made there; have the parent spawn again`,
      );
    }
    if (facts.headRef !== `refs/heads/${block.worktree_branch}`) diverged.add("worktree_branch");
    if (!facts.sameCwd) {
      diverged.add("worktree_cwd");
      if (facts.samePath) {
        problems.push(`wrong directory: change to ${block.worktree_cwd} before Step 0`);
      }
    }
  }
  if (facts.head !== block.parent_head) {
    diverged.add("parent_head");
    problems.push(describeBase(facts.base, facts.head, block.parent_head));
  }
  if (facts.fingerprint !== block.parent_dirty_fingerprint) {
    diverged.add("parent_dirty_fingerprint");
  }
  if (facts.seedState === undefined) {
    diverged.add("seed");
    problems.push(
      `unknown seed: the seed ${block.seed} is not in this repository, so this worktree was not made from the parent's repository`,
    );
  } else if (facts.stateSeed !== block.seed) { // tether:guard wt-seed-content
    diverged.add("seed");
    if (facts.missing.length > 0) {
      problems.push(
        `missing work: the parent's uncommitted work at ${facts.missing.length} path${
          facts.missing.length === 1 ? " is" : "s is"
        } absent or different here: ${
          listPaths(facts.missing)
        }; the worktree was not made from the parent's live state (or was changed before Step 0)`,
      );
    }
    const other = facts.differing.filter((p) => !facts.missing.includes(p));
    if (other.length > 0) {
      problems.push(
        `changed content: ${other.length} other path${
          other.length === 1 ? "" : "s"
        } differ from the seed: ${listPaths(other)}`,
      );
    }
    if (facts.differing.length === 0 && facts.head === block.parent_head) {
      problems.push(
        "changed content: the staged state or HEAD differs from the seed while the files match it",
      );
    }
  }
  return { diverged: ORDER.filter((f) => diverged.has(f)), problems };
}
