/**
 * Landing a child's work: what the child changed in its worktree since its seed (its
 * commits and its uncommitted changes alike, as one tree), and applying exactly that to
 * the parent's working tree with a three-way merge against the seed. Atomic: the merge
 * is computed in the object store first (`git merge-tree --write-tree`), and the files
 * are changed by one `git read-tree -m -u`, which checks every path before it writes
 * any. The parent's index is never written.
 *
 * @module
 */

import { ownWords } from "../git_failure.ts";
import {
  failure,
  GitError,
  type ObjectFormat,
  objectFormat,
  repositoryPin,
  runGit,
} from "../git.ts";
import { pinHere, repositoryMoved } from "../repo_pin.ts";
import { captureState, changedPaths, seedIndexPath } from "../seed/state.ts";
import { parseMergeTree } from "./conflicts.ts";
import { readObjects } from "../gate/objects.ts";
import type { ChildWork } from "./child_work.ts";
import { mergeTrees } from "./merge.ts";
import { ignoredInTheWay, nestedChanged, outsideChanged, verifyPaths } from "./land_checks.ts";
import {
  attributesAt,
  configProblems,
  crlfAsIs,
  judgeAttributes,
  pinned,
  readDrivers,
  unwritableLinks,
} from "./land_config.ts";
import { checkoutBase } from "./land_checkout.ts";
import { contentMerges, settingsRefused, unsettled, withFilters } from "./land_settings.ts";
import {
  checkoutFailed,
  NotAsChecked,
  notTheCheckedBytes,
  readBackFailed,
  type Undo,
  undoLand,
} from "./land_undo.ts";
import { anchorRecord, heldPaths, writeRecord } from "./record.ts";
import { movedSince, tidy } from "./remove.ts";
import { notAsTree, treeEntries } from "./tree_entries.ts";
import { listPaths } from "../show.ts";

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
  | {
    status: "conflict";
    /** Every conflicting path, as it is in the trees. */
    paths: string[];
    /** Those whose conflict is of file types (a file against a directory or link). */
    types?: string[];
    /** Those where one side deleted or renamed what the other changed. */
    other?: string[];
  }
  | { status: "refused"; reason: "outside" | "ignored" | "nested"; paths: string[] }
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
  const record = child.record;
  if (child.landing.length === 0) {
    return { status: "nothing", paths: [], ...await tidy(child, keep) };
  }
  // A nested repository lands as an empty directory, and its commits may live only in
  // its own .git, which the clean-up would remove: refused before anything is read.
  const nested = nestedChanged(child.landing, child.files);
  if (nested.length > 0) return { status: "refused", reason: "nested", paths: nested }; // tether:guard wt-land-nested
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
  let drivers = withFilters(readDriversAtStart, verdict.filters); // tether:guard wt-attr-filter-pins
  const seedTree = child.seedState.worktree;
  let baseTreeId = seedTree; // tether:guard wt-merge-base
  // After a kept land, given its record: the merge base is the record's tree, so what
  // landed then is in the base and only what the child changed since lands (an undo or a
  // rename since included), and a path it has not changed since keeps the parent's version
  // (whatever the parent did with it since). Whether the parent still holds the record's
  // change there only decides how it is reported.
  const already = child.already;
  let parentChanged: string[] = [];
  if (record !== undefined) {
    baseTreeId = record.tree; // tether:guard wt-record-base
    if (already.length > 0) {
      const held = new Set(
        await heldPaths(parentTop, format, seedTree, parent.worktree, record.tree, already),
      );
      parentChanged = already.filter((p) => !held.has(p));
    }
  }
  const own = child.round;
  // The base is given, never found: see merge.ts (no grafts, shallow file or commit-graph,
  // commit ids nobody can know in advance, read back after the merge).
  const merged = await mergeTrees(
    parentTop,
    format,
    baseTreeId,
    parent.worktree,
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
  const paths = await changedPaths(parentTop, parent.worktree, tree);
  const outside = outsideChanged(paths, own);
  if (outside.length > 0) return { status: "refused", reason: "outside", paths: outside };
  const gitlinks = await verifyPaths(
    parentTop,
    format,
    [
      ...new Set([
        child.seedState.worktree,
        ...(record === undefined ? [] : [record.tree]),
        baseTreeId,
        parent.worktree,
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
  const ignored = await ignoredInTheWay(parentTop, paths, scratch);
  if (ignored.length > 0) return { status: "refused", reason: "ignored", paths: ignored };
  // The checkout reads the merged tree's own .gitattributes (the child may have changed
  // one): asked of a scratch index holding that tree, before anything is written.
  const mergedIndex = await seedIndexPath(parentTop);
  const [, inTree] = await Promise.all([
    runGit(["read-tree", "--end-of-options", tree], {
      cwd: parentTop,
      env: { GIT_INDEX_FILE: mergedIndex },
    }),
    treeEntries(parentTop, tree),
  ]);
  const inMerged = await attributesAt(parentTop, paths, mergedIndex, true); // tether:guard wt-attr-merged
  const lineEnds = await crlfKept(parentTop, format, inMerged, inTree);
  const written = judgeAttributes(
    inMerged,
    readDriversAtStart,
    await merging(inMerged),
    lineEnds,
  );
  if (written.refused.length > 0) {
    throw settingsRefused(written.refused, written.merged, child.state.worktree);
  }
  // A filter the merged tree's own .gitattributes names (the child's) is pinned as well.
  drivers = withFilters(drivers, written.filters); // tether:guard wt-attr-filter-pins
  // A link the repository cannot hold (core.symlinks false: git would write a plain file
  // holding the target) is not the tree gate checked: refused before anything is written.
  const links = unwritableLinks(paths, inTree, drivers);
  if (links.length > 0) throw linksRefused(links);
  // Nothing written since the start of the run moved the parent's repository (the pin
  // keeps tether's calls on it, but git's ref store and the user's own git would follow).
  const pin = repositoryPin() ?? await pinHere(parentTop);
  const moved = await repositoryMoved(pin);
  if (moved !== undefined) { // tether:guard wt-pin-before
    throw new GitError("failed", `the land is refused, nothing landed: ${moved}`);
  }
  // Kept: the record is written and read back before anything lands, so a kept land never
  // prints an id the next land cannot use (one it cannot write is an error, nothing landed).
  // It is only an object until the land has happened: its id is printed and its ref written
  // after the read-back, so a land undone below leaves no record that claims it.
  const kept = keep
    ? await writeRecord(parentTop, format, child.branch, child.seed, child.state.worktree)
    : undefined;
  const index = { GIT_INDEX_FILE: scratch, GIT_NO_REPLACE_OBJECTS: "1" };
  // The capture's entries carry no stat data; git compares each file's content with its
  // raw blob, so read-tree can tell a file that changed after the parent was read.
  // Every filter the configuration names is pinned to none; sparse checkout, line ends,
  // core.symlinks and the global and system attribute files are pinned too (land_config.ts).
  const [refreshPins, refreshOptions] = pinned(drivers, {
    cwd: parentTop,
    env: index,
    allowFailure: true,
  });
  await runGit([...refreshPins, "update-index", "-q", "--refresh"], refreshOptions);
  const [checkoutPins, checkoutOptions] = pinned(drivers, {
    cwd: parentTop,
    env: index,
    parse: true, // git's refusal is read (checkoutFailed), so in its C wording
  });
  // A landing file whose cleaned form is not its raw blob (CRLF under `text`) is given
  // git's own entry, so git checks it by its stat data (land_checkout.ts).
  const from = await checkoutBase({
    top: parentTop,
    pins: checkoutPins,
    options: checkoutOptions,
    parentTree: parent.worktree,
    paths,
    merged: inTree,
    entries: (tree) => treeEntries(parentTop, tree),
    notAs: (entries, these) => notAsTree(pin, format, entries, these),
  });
  // From the checkout on, every failure is said as what it is: the land wrote files (see
  // undoLand, which puts them back when git can still run and names them when not).
  const undo: Undo = {
    pin,
    format,
    drivers,
    mergedIndex,
    before: parent.worktree,
    paths,
    judge: async (found) =>
      judgeAttributes(found, readDriversAtStart, await merging(found), lineEnds),
  };
  try {
    await runGit(
      [...checkoutPins, "read-tree", "-m", "-u", "--end-of-options", from, tree],
      checkoutOptions,
    );
  } catch (error) {
    throw await checkoutFailed(error, undo, inTree);
  }
  // What the checkout wrote, read back as raw bytes and types (the seed's reading: no
  // filter, links read as links, a deleted path absent), in the pinned work tree, and
  // compared with the merged tree at every landing path: a smudge or conversion the shared
  // .git came to name during the land (even one erased since) is caught here. The land is
  // then undone (see undoLand): nothing more is done. A read-back that fails (git cannot
  // run: a config line broken meanwhile) is undone too, or named.
  try {
    const rewritten = await notAsTree(pin, format, inTree, paths);
    if (rewritten.length > 0) throw notTheCheckedBytes(rewritten); // tether:guard wt-rehash-after
  } catch (error) {
    if (!(error instanceof NotAsChecked)) throw await readBackFailed(error, undo); // tether:guard wt-readback-failed
    throw await undoLand(
      `the files written are not the tree gate checked at ${
        listPaths(error.paths)
      } (one possible cause: a filter or conversion the shared .git came to name during the land)`,
      undo,
    );
  }
  // A child that wrote the shared .git while the land ran: caught and said, though the
  // files are written by now (docs/worktree.md, Known limits). The last look at where the
  // repository is comes last, right before the clean-up writes refs.
  let after: string[];
  let movedAfter: string | undefined;
  try {
    const driversAfter = await readDrivers(parentTop);
    after = [
      ...configProblems(driversAfter),
      ...driversAfter.filters.filter((n) => !drivers.filters.includes(n)).map((n) =>
        `filter.${n} (config)`
      ),
      ...await unsettled(await attributesAt(parentTop, paths, scratch, false), undo),
    ];
    movedAfter = await repositoryMoved(pin);
  } catch (error) {
    throw await undoLand(`its check after the read-back failed (${ownWords(error)})`, undo); // tether:guard wt-after-failed
  }
  if (after.length > 0) { // tether:guard wt-attr-after
    throw new GitError(
      "failed",
      `the land wrote ${listPaths(paths)}, but meanwhile the shared .git came to name ${
        listPaths(after)
      } (a merge driver, filter or conversion tether does not run): check those files by hand`,
    );
  }
  if (movedAfter !== undefined) { // tether:guard wt-pin-after
    throw new GitError(
      "failed",
      `the land wrote ${
        listPaths(paths)
      } into ${pin.top}, but meanwhile ${movedAfter}: remove what was written before using git there`,
    );
  }
  const landed = {
    status: "landed" as const,
    paths,
    ...(already.length > 0 ? { already } : {}),
    ...(parentChanged.length > 0 ? { parent_changed: parentChanged } : {}),
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
