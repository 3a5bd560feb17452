/**
 * The first step of a land: the parent as the land reads it (a raw capture of its working
 * tree into a fresh private index) and the settings at the landing paths, refused before
 * anything is merged where they would run a driver or filter or rewrite bytes.
 *
 * @module
 */

import { captureState, seedIndexPath } from "../seed/state.ts";
import type { ChildWork } from "./child_work.ts";
import {
  attributesAt,
  configProblems,
  type Drivers,
  judgeAttributes,
  type PathAttribute,
  readDrivers,
} from "./land_config.ts";
import { contentMerges, settingsRefused, withFilters } from "./land_settings.ts";
import { type ObjectFormat, objectFormat } from "../git_objects.ts";

/** The parent as a land read it, before anything is merged. */
export interface ParentRead {
  /** The parent's top level. */
  top: string;
  /** The capture's private index (fresh, the parent's), which holds exactly its raw tree. */
  scratch: string;
  /** The repository's object format. */
  format: ObjectFormat;
  /** The parent's raw working-tree tree. */
  tree: string;
  /** The configuration's drivers as read at the start of the land. */
  atStart: Drivers;
  /** The landing paths where the land merges content, asked of the attributes found. */
  merging: (found: readonly PathAttribute[]) => Promise<ReadonlySet<string>>;
  /** The drivers as the land pins them: every filter the attributes name at its paths too. */
  drivers: Drivers;
}

/**
 * Capture the parent and refuse the settings at the landing paths that the land would run.
 *
 * @param child The child.
 * @param parentTop The parent's top level.
 * @returns The parent as read.
 * @throws {GitError} when git fails, or the settings at the landing paths are refused
 *   (nothing landed).
 */
export async function readParent(child: ChildWork, parentTop: string): Promise<ParentRead> {
  // A fresh scratch index the parent names (objects/tmp_tether_seed_<uuid>), never a path
  // in the child's git dir, where the child could have planted a link to any file.
  const scratch = await seedIndexPath(parentTop); // tether:guard wt-fresh-land-index
  const format = await objectFormat(parentTop);
  const parent = await captureState(parentTop, { indexFile: scratch });
  // The shared .git can name a merge driver, a filter or a conversion for a landing path
  // (info/attributes, the config): refused before anything is merged where it would run or
  // rewrite bytes, and every filter named there is pinned to none (see land_config.ts).
  const readDriversAtStart = await readDrivers(parentTop);
  const merging = contentMerges(parentTop, child, parent.worktree);
  const found = await attributesAt(parentTop, child.landing, scratch, false); // tether:guard wt-attr-before
  const verdict = judgeAttributes(found, readDriversAtStart, await merging(found));
  const before = [...configProblems(readDriversAtStart), ...verdict.refused];
  if (before.length > 0) throw settingsRefused(before, verdict.merged, child.state.worktree);
  const drivers = withFilters(readDriversAtStart, verdict.filters); // tether:guard wt-attr-filter-pins
  return {
    top: parentTop,
    scratch,
    format,
    tree: parent.worktree,
    atStart: readDriversAtStart,
    merging,
    drivers,
  };
}
