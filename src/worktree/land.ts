/**
 * Landing a child's work: what the child changed in its worktree since its seed (its
 * commits and its uncommitted changes alike, as one tree), applied exactly to the parent's
 * working tree with a three-way merge against the seed. Atomic: the merge is computed in
 * the object store first (`git merge-tree --write-tree`), and the files are changed by one
 * `git read-tree -m -u`, which checks every path before it writes any. The parent's index
 * is never written.
 *
 * The land reads as its steps, each in a module of its own: read the parent
 * (land_read.ts) → merge (land_merge.ts) → check (land_refusals.ts) → check out, read back
 * and look again (land_write.ts, undone by land_undo.ts) → tidy (remove.ts).
 *
 * @module
 */

import type { ChildWork } from "./child_work.ts";
import { nestedChanged } from "./land_checks.ts";
import { type Conflict, mergeChild, type Merged } from "./land_merge.ts";
import { readParent } from "./land_read.ts";
import { checkMerged, type Refused, refusedPaths } from "./land_refusals.ts";
import { checkAfter, checkOut, readBack } from "./land_write.ts";
import { anchorRecord, writeRecord } from "./record.ts";
import { movedSince, tidy } from "./remove.ts";

/**
 * The outcome of a land. `not_removed` names what tether made for the child and could not
 * remove afterwards (the land itself happened); `removed` is then false.
 */
export type LandOutcome =
  | {
    status: "landed";
    paths: string[];
    removed: boolean;
    not_removed?: string[];
    /**
     * Paths already landed: the child has not changed them since the land record given
     * with `--landed`, so they are left as the parent has them.
     */
    already?: string[];
    /** Those of `already` where the parent no longer holds the record's change (it changed them since). */
    parent_changed?: string[];
    /** The land record given with `--landed` (the merge base). */
    landed_record?: string;
    /** With `--landed`: the paths the child changed since the record. */
    since_record?: string[];
    /** A kept land's record: the id to give this child's next land as `--landed`. */
    record?: string;
    /** Why the record's anchor ref could not be written (the record may then be pruned). */
    not_anchored?: string;
  }
  | Conflict
  | Refused
  | { status: "nothing"; paths: []; removed: boolean; not_removed?: string[] };

/**
 * Apply the child's changes to the parent's working tree: three-way merge of the
 * parent's live working tree and the child's against the seed's working tree. With a
 * land record (`--landed`, in `child.record`), the base is the record's tree, so only what
 * the child changed since lands (see `record.ts`); a kept land writes a new record.
 *
 * @param child What the child changed (and the record the parent gave, if any).
 * @param parentTop The parent's top level.
 * @param keep Keep the worktree and branch after a land.
 * @returns Landed (with the paths), conflict or refused (with the paths; nothing changed),
 *   or nothing.
 * @throws {GitError} when git fails or the parent changed under the land (nothing written).
 */
export async function land(
  child: ChildWork,
  parentTop: string,
  keep: boolean,
): Promise<LandOutcome> {
  if (child.landing.length === 0) {
    return { status: "nothing", paths: [], ...await tidy(child, keep) };
  }
  // A nested repository lands as an empty directory, and its commits may live only in
  // its own .git, which the clean-up would remove: refused before anything is read.
  const nested = nestedChanged(child.landing, child.files);
  if (nested.length > 0) return { status: "refused", reason: "nested", paths: nested }; // tether:guard wt-land-nested
  const parent = await readParent(child, parentTop);
  const merged = await mergeChild(child, parent);
  if (merged.status === "conflict") return merged;
  const refused = await refusedPaths(child, parent, merged);
  if (refused !== undefined) return refused;
  const landing = await checkMerged(child, parent, merged);
  // Kept: the record is written and read back before anything lands, so a kept land never
  // prints an id the next land cannot use (one it cannot write is an error, nothing landed).
  // It is only an object until the land has happened: its id is printed and its ref written
  // after the read-back, so a land undone below leaves no record that claims it.
  const kept = keep
    ? await writeRecord(parentTop, parent.format, child.branch, child.seed, child.state.worktree)
    : undefined;
  await checkOut(parent, landing);
  await readBack(landing);
  await checkAfter(parent, landing);
  return await landed(child, merged, kept);
}

/**
 * The outcome of a land that wrote its files, once the child is removed (without a record)
 * or its record anchored (a kept land).
 *
 * @param child The child.
 * @param merged The merge that landed.
 * @param kept A kept land's record, written before the checkout.
 * @returns The outcome.
 */
async function landed(
  child: ChildWork,
  merged: Merged,
  kept: string | undefined,
): Promise<LandOutcome> {
  const { record, already } = child;
  const landed = {
    status: "landed" as const,
    paths: merged.paths,
    ...(already.length > 0 ? { already } : {}),
    ...(merged.parentChanged.length > 0 ? { parent_changed: merged.parentChanged } : {}),
    ...(record === undefined ? {} : { landed_record: record.id, since_record: child.round }),
  };
  if (kept === undefined) return { ...landed, ...await tidy(child, false) };
  // The parent gives the record's id to this child's next land; the ref only keeps it from
  // being pruned, and one that cannot be written is a warning: the land has happened.
  // Looked at again after the ref write: a record anchored in another repository is not said
  // to be anchored.
  const unanchored = await anchorRecord(child.branch, kept) ?? await movedSince(); // tether:guard wt-pin-anchor
  return {
    ...landed,
    removed: false,
    record: kept,
    ...(unanchored === undefined ? {} : { not_anchored: unanchored }),
  };
}
