/**
 * The merge of a land: the parent's raw tree and the child's, three ways against the base
 * (the seed's tree, or after a kept land the record's), computed in the object store only
 * (`git merge-tree --write-tree`, see merge.ts). Nothing is written to the work tree here.
 *
 * @module
 */

import { changedPaths } from "../seed/state.ts";
import type { ChildWork } from "./child_work.ts";
import { parseMergeTree } from "./conflicts.ts";
import type { ParentRead } from "./land_read.ts";
import { mergeTrees } from "./merge.ts";
import { heldPaths } from "./record.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { failure } from "../git_error.ts";

/** A land that stopped at conflicts: nothing written. */
export interface Conflict {
  /** The land stopped at conflicts. */
  status: "conflict";
  /** Every conflicting path, as it is in the trees. */
  paths: string[];
  /** Those whose conflict is of file types (a file against a directory or link). */
  types?: string[];
  /** Those where one side deleted or renamed what the other changed. */
  other?: string[];
}

/** A clean merge: the tree to land and the paths it changes in the parent's tree. */
export interface Merged {
  /** The merge is clean. */
  status: "merged";
  /** The merged tree. */
  tree: string;
  /** The merge base's tree (the seed's, or the record's given with `--landed`). */
  base: string;
  /** The paths where the merged tree differs from the parent's raw tree. */
  paths: string[];
  /** Already-landed paths where the parent no longer holds the record's change. */
  parentChanged: string[];
}

/**
 * Merge the child's tree into the parent's against the base.
 *
 * @param child The child.
 * @param parent The parent as the land read it.
 * @returns The merge, or its conflicts.
 * @throws {GitError} when git fails.
 */
export async function mergeChild(child: ChildWork, parent: ParentRead): Promise<Merged | Conflict> {
  const { base, parentChanged } = await mergeBase(child, parent.top, parent.format, parent.tree);
  // The base is given, never found: see merge.ts (no grafts, shallow file or commit-graph,
  // commit ids nobody can know in advance, read back after the merge).
  const merged = await mergeTrees(
    parent.top,
    parent.format,
    base,
    parent.tree,
    child.state.worktree,
  );
  const { tree, conflicts } = parseMergeTree(merged.stdout);
  if (merged.code === 1) {
    const paths = [...new Set([...conflicts.lines, ...conflicts.types, ...conflicts.other])]
      .sort();
    return {
      status: "conflict",
      paths,
      ...(conflicts.types.length > 0 ? { types: conflicts.types } : {}),
      ...(conflicts.other.length > 0 ? { other: conflicts.other } : {}),
    };
  }
  if (merged.code !== 0 || !tree) {
    throw failure(["merge-tree"], merged);
  }
  const paths = await changedPaths(parent.top, parent.tree, tree);
  return { status: "merged", tree, base, paths, parentChanged };
}

/**
 * The merge base's tree, and the already-landed paths where the parent no longer holds the
 * record's change.
 *
 * After a kept land, given its record: the merge base is the record's tree, so what landed
 * then is in the base and only what the child changed since lands (an undo or a rename since
 * included), and a path it has not changed since keeps the parent's version (whatever the
 * parent did with it since). Whether the parent still holds the record's change there only
 * decides how it is reported.
 *
 * @param child The child.
 * @param parentTop The parent's top level.
 * @param format The object format.
 * @param parentTree The parent's raw tree.
 * @returns The base and those paths.
 */
async function mergeBase(
  child: ChildWork,
  parentTop: string,
  format: ObjectFormat,
  parentTree: string,
): Promise<{ base: string; parentChanged: string[] }> {
  const record = child.record;
  const seedTree = child.seedState.worktree;
  let baseTreeId = seedTree; // tether:guard wt-merge-base
  const already = child.already;
  let parentChanged: string[] = [];
  if (record !== undefined) {
    baseTreeId = record.tree; // tether:guard wt-record-base
    if (already.length > 0) {
      const held = new Set(
        await heldPaths(parentTop, format, seedTree, parentTree, record.tree, already),
      );
      parentChanged = already.filter((p) => !held.has(p));
    }
  }
  return { base: baseTreeId, parentChanged };
}
