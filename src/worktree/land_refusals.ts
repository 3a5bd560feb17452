/**
 * What a land refuses once its merge is clean, before it writes anything: paths it must not
 * write (outside the child's round, a nested repository, an ignored file in the way), the
 * settings the merged tree's own attributes name, links the repository cannot hold, and a
 * repository that is no longer where the run pinned it. What passes is the land to write.
 *
 * @module
 */

import { readObjects } from "../gate/objects.ts";
import { runGit } from "../git.ts";
import { pinHere, repositoryMoved } from "../repo_pin.ts";
import { seedIndexPath } from "../seed/state.ts";
import { listPaths } from "../show.ts";
import type { ChildWork } from "./child_work.ts";
import { ignoredInTheWay, outsideChanged, verifyPaths } from "./land_checks.ts";
import {
  attributesAt,
  crlfAsIs,
  judgeAttributes,
  type PathAttribute,
  unwritableLinks,
} from "./land_config.ts";
import type { Merged } from "./land_merge.ts";
import type { ParentRead } from "./land_read.ts";
import { settingsRefused, withFilters } from "./land_settings.ts";
import type { Undo } from "./land_undo.ts";
import { treeEntries } from "./tree_entries.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { repositoryPin } from "../git_pin.ts";
import { GitError } from "../git_error.ts";

/** A land refused for its paths: nothing written. */
export interface Refused {
  /** The land was refused. */
  status: "refused";
  /** Why: a path outside the child's round, an ignored file in the way, a nested repository. */
  reason: "outside" | "ignored" | "nested";
  /** The paths. */
  paths: string[];
}

/** A land checked and ready to write: the merged tree, and what undoing it needs. */
export interface Landing extends Undo {
  /** The merged tree. */
  tree: string;
  /** The merged tree's entries. */
  inTree: ReadonlyMap<string, { mode: string; id: string }>;
}

/**
 * Refuse a merge whose paths the land must not write: outside the child's round, a nested
 * repository on any side, or an ignored file of the parent's in the way.
 *
 * @param child The child.
 * @param parent The parent as the land read it.
 * @param merged The merge.
 * @returns The refusal, or undefined when the land may go on.
 * @throws {GitError} when git fails.
 */
export async function refusedPaths(
  child: ChildWork,
  parent: ParentRead,
  merged: Merged,
): Promise<Refused | undefined> {
  const { paths, tree } = merged;
  const outside = outsideChanged(paths, child.round);
  if (outside.length > 0) return { status: "refused", reason: "outside", paths: outside };
  const gitlinks = await verifyPaths(
    parent.top,
    parent.format,
    [
      ...new Set([
        child.seedState.worktree,
        ...(child.record === undefined ? [] : [child.record.tree]),
        merged.base,
        parent.tree,
        child.state.worktree,
        tree,
      ]),
    ],
    [...new Set([...child.landing, ...paths])],
  );
  // A landing path that is (or lies in) a gitlink in the parent's raw tree, the merge base,
  // the seed, the child's capture or the merged tree: a submodule or embedded repository.
  // git's checkout counts a gitlink as always up to date and deletes its whole directory
  // (its .git, commits found nowhere else, uncommitted work) when a file, a link or nothing
  // replaces it, and leaves a removed one's directory behind: refused, nothing written.
  // The parent's raw tree holds a gitlink for every nested repository in its work tree
  // that it captures (one it does not, ignored or without a commit, is refused below as
  // ignored), so no directory holding a .git is in the way of the checkout.
  if (gitlinks.length > 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused
  const ignored = await ignoredInTheWay(parent.top, paths, parent.scratch);
  if (ignored.length > 0) return { status: "refused", reason: "ignored", paths: ignored };
  return undefined;
}

/**
 * Check the merged tree before it is written: its own attributes, its links, and where the
 * repository is.
 *
 * @param child The child.
 * @param parent The parent as the land read it.
 * @param merged The merge.
 * @returns The land to write.
 * @throws {GitError} when the merged tree's settings or links are refused, the repository
 *   moved, or git fails (nothing landed).
 */
export async function checkMerged(
  child: ChildWork,
  parent: ParentRead,
  merged: Merged,
): Promise<Landing> {
  const { tree, paths } = merged;
  // The checkout reads the merged tree's own .gitattributes (the child may have changed
  // one): asked of a scratch index holding that tree, before anything is written.
  const mergedIndex = await seedIndexPath(parent.top);
  const [, inTree] = await Promise.all([
    runGit(["read-tree", "--end-of-options", tree], {
      cwd: parent.top,
      env: { GIT_INDEX_FILE: mergedIndex },
    }),
    treeEntries(parent.top, tree),
  ]);
  const inMerged = await attributesAt(parent.top, paths, mergedIndex, true); // tether:guard wt-attr-merged
  const lineEnds = await crlfKept(parent.top, parent.format, inMerged, inTree);
  const judge = async (found: readonly PathAttribute[]) =>
    judgeAttributes(found, parent.atStart, await parent.merging(found), lineEnds);
  const written = await judge(inMerged);
  if (written.refused.length > 0) {
    throw settingsRefused(written.refused, written.merged, child.state.worktree);
  }
  // A filter the merged tree's own .gitattributes names (the child's) is pinned as well.
  const drivers = withFilters(parent.drivers, written.filters); // tether:guard wt-attr-filter-pins
  // A link the repository cannot hold (core.symlinks false: git would write a plain file
  // holding the target) is not the tree gate checked: refused before anything is written.
  const links = unwritableLinks(paths, inTree, drivers);
  if (links.length > 0) throw linksRefused(links);
  // Nothing written since the start of the run moved the parent's repository (the pin
  // keeps tether's calls on it, but git's ref store and the user's own git would follow).
  const pin = repositoryPin() ?? await pinHere(parent.top);
  const moved = await repositoryMoved(pin);
  if (moved !== undefined) { // tether:guard wt-pin-before
    throw new GitError("failed", `the land is refused, nothing landed: ${moved}`);
  }
  return {
    pin,
    format: parent.format,
    drivers,
    mergedIndex,
    before: parent.tree,
    paths,
    judge,
    tree,
    inTree,
  };
}

/**
 * The error of a land that would write links where `core.symlinks` is false: exit 3,
 * nothing landed.
 *
 * @param links The links.
 * @returns The error.
 */
function linksRefused(links: readonly string[]): GitError {
  return new GitError(
    "failed",
    `the land is refused, nothing landed: it writes the symbolic links ${
      listPaths(links)
    }, but core.symlinks is false in this repository, so git would write each as a plain file holding its target (land them by hand, or set core.symlinks to true where links work)`,
  );
}

/**
 * The landing paths with `eol=crlf` whose merged blob that checkout writes as it is (no
 * lone LF): read from the object store only for those paths.
 */
async function crlfKept(
  top: string,
  format: ObjectFormat,
  found: readonly { path: string; name: string; value: string }[],
  inTree: ReadonlyMap<string, { mode: string; id: string }>,
): Promise<Set<string>> {
  const asked = found.filter((a) => a.name === "eol" && a.value === "crlf" && inTree.has(a.path));
  if (asked.length === 0) return new Set();
  const read = await readObjects(top, asked.map((a) => inTree.get(a.path)!.id), format);
  return new Set(
    asked.filter((a) => {
      const blob = read.get(inTree.get(a.path)!.id);
      return blob?.kind === "ok" && crlfAsIs(blob.content);
    }).map((a) => a.path),
  );
}
