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

import { readContents } from "../context/content.ts";
import { ownWords, resultWords } from "../git_failure.ts";
import {
  failure,
  GitError,
  type ObjectFormat,
  objectFormat,
  type RepositoryPin,
  repositoryPin,
  runGit,
} from "../git.ts";
import { pinHere, repositoryMoved } from "../repo_pin.ts";
import { captureState, changedPaths, seedIndexPath } from "../seed/state.ts";
import { decodePaths } from "../paths.ts";
import { parseMergeTree } from "./conflicts.ts";
import { readObjects } from "../gate/objects.ts";
import { type ChildWork, worktreeList } from "./child_work.ts";
import { mergeTrees } from "./merge.ts";
import { ignoredInTheWay, nestedChanged, outsideChanged, verifyPaths } from "./land_checks.ts";
import {
  attributesAt,
  configProblems,
  crlfAsIs,
  type Drivers,
  judgeAttributes,
  pinned,
  readDrivers,
  unwritableLinks,
} from "./land_config.ts";
import { checkoutBase } from "./land_checkout.ts";
import {
  contentMerges,
  settingsRefused,
  type SettledLand,
  unsettled,
  withFilters,
} from "./land_settings.ts";
import { anchorRecord, heldPaths, recordRef, writeRecord } from "./record.ts";
import { listPaths, quoteLine } from "../show.ts";

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
    throw await undoLand(`its check after the read-back failed (${message(error)})`, undo); // tether:guard wt-after-failed
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

/** A tree's entries (path → mode and id), every level. */
async function treeEntries(
  top: string,
  tree: string,
): Promise<Map<string, { mode: string; id: string }>> {
  const listing = await runGit(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", tree], {
    cwd: top,
    parse: true,
  });
  const entries = new Map<string, { mode: string; id: string }>();
  for (const record of decodePaths(listing.stdout)) {
    const m = /^(\d{6}) \w+ ([0-9a-f]+)\t([\s\S]*)$/.exec(record);
    if (m) entries.set(m[3]!, { mode: m[1]!, id: m[2]! });
  }
  return entries;
}

/**
 * The landing paths whose file in the pinned work tree is not what a tree holds there: read
 * exactly those paths as raw bytes and `lstat` types (ignored ones too: a landed path is
 * the tree's, whatever the parent ignores), and compare them with the tree's entries (a
 * path the tree lacks must be absent).
 */
async function notAsTree(
  pin: RepositoryPin,
  format: ObjectFormat,
  inTree: ReadonlyMap<string, { mode: string; id: string }>,
  paths: readonly string[],
): Promise<string[]> {
  const wrote = await readContents(pin.top, pin.commonDir, format, paths);
  return paths.filter((path) => {
    const want = inTree.get(path);
    const got = wrote.get(path);
    if (want === undefined) return got?.kind !== "absent";
    return got === undefined || got.kind === "absent" || got.kind === "special" ||
      got.mode !== want.mode || got.raw !== want.id;
  });
}

/** The read-back found landing paths that are not the merged tree's (see {@linkcode undoLand}). */
class NotAsChecked extends Error {
  /**
   * @param paths The paths whose raw content or type differs from the merged tree.
   */
  constructor(readonly paths: readonly string[]) {
    super(`not the tree gate checked at ${listPaths(paths)}`);
  }
}

/**
 * The read-back's finding, for {@linkcode undoLand}.
 *
 * @param found The landing paths whose raw content or type differs from the merged tree.
 * @returns The finding.
 */
function notTheCheckedBytes(found: readonly string[]): NotAsChecked {
  return new NotAsChecked(found);
}

/** What {@linkcode undoLand} needs of the land. */
interface Undo extends SettledLand {
  pin: RepositoryPin;
  format: ObjectFormat;
  /** The configuration as read before the land (its pins are the checkout's). */
  drivers: Drivers;
  /** The scratch index holding the merged tree (its attribute check's). */
  mergedIndex: string;
  /** The parent's working tree before the land (its raw tree). */
  before: string;
  /** Every path the land wrote. */
  paths: readonly string[];
}

/** The read-back of a land threw (git could not run): undone, or named (see {@linkcode undoLand}). */
function readBackFailed(error: unknown, land: Undo): Promise<GitError> {
  return undoLand(`its read-back failed (${message(error)})`, land);
}

/** An error's message, whatever was thrown, a failed git call's in tether's words. */
function message(error: unknown): string {
  return ownWords(error);
}

/**
 * How to put `paths` back by hand as the tree `tree` holds them, raw (no filter or
 * conversion runs): only the commands that work for each path's type there. Gitlinks are
 * refused before a land writes anything, so none should be among them; one that is is named
 * as having no recipe.
 *
 * @param tree The parent's raw tree before the land.
 * @param paths The paths to put back.
 * @param inTree The tree's entries, when they could be read.
 * @returns The recipe, one clause per kind.
 */
function restoreRecipe(
  tree: string,
  paths: readonly string[],
  inTree: ReadonlyMap<string, { mode: string }> | undefined,
): string {
  const blob = `git cat-file blob ${tree}:PATH`;
  // rm -f first: a path the land made a link is never written through.
  const file = `rm -f PATH && ${blob} > PATH`;
  const link = `rm -f PATH && ln -s "$(${blob})" PATH`;
  if (inTree === undefined) {
    return `for each, a file: ${file} (then chmod +x PATH for mode 100755); a link: ${link}; one that tree lacks: rm -f PATH (git ls-tree -r ${tree} shows each path's mode)`;
  }
  const kind = (mode: string) => paths.filter((p) => inTree.get(p)?.mode === mode);
  const gone = paths.filter((p) => !inTree.has(p));
  const known = new Set(["100644", "100755", "120000"]);
  const other = paths.filter((p) => inTree.has(p) && !known.has(inTree.get(p)!.mode));
  const each = (list: readonly string[], how: string) =>
    list.length > 0 ? `for each of ${listPaths(list)}: ${how}` : "";
  const steps = [
    gone.length > 0
      ? `delete ${listPaths(gone)} (not in that tree) and any directory that leaves empty`
      : "",
    each(kind("100644"), file),
    each(kind("100755"), `${file} && chmod +x PATH`),
    each(kind("120000"), link),
    other.length > 0 ? `${listPaths(other)}: no command restores these (not files or links)` : "",
  ];
  return steps.filter((step) => step !== "").join("; then ");
}

/**
 * The land's checkout failed. `read-tree -m -u` checks every path before it writes any, so
 * a refusal (a file the parent changed meanwhile, an untracked file in the way) wrote
 * nothing: git's error, as it is. Which paths it did write is read back: a path that now
 * holds the merged tree's entry and no longer the parent's is the land's, and that land is
 * undone (see {@linkcode undoLand}); a read-back that fails says the paths and the tree
 * that holds them.
 *
 * @param error What the checkout threw.
 * @param land The land.
 * @param inTree The merged tree's entries.
 * @returns The error to throw.
 */
async function checkoutFailed(
  error: unknown,
  land: Undo,
  inTree: ReadonlyMap<string, { mode: string; id: string }>,
): Promise<GitError> {
  const failed = message(error);
  let inBefore: Map<string, { mode: string; id: string }> | undefined;
  let wrote: string[];
  let neither: string[];
  try {
    inBefore = await treeEntries(land.pin.top, land.before);
    const notMerged = new Set(await notAsTree(land.pin, land.format, inTree, land.paths));
    const notBefore = new Set(await notAsTree(land.pin, land.format, inBefore, land.paths));
    wrote = land.paths.filter((p) => !notMerged.has(p) && notBefore.has(p));
    // Neither the parent's nor the merged tree's (a failed checkout may delete a path before
    // it dies; the parent's user may have edited one meanwhile): never undone over, named.
    neither = land.paths.filter((p) => notMerged.has(p) && notBefore.has(p)); // tether:guard wt-checkout-neither
  } catch (readBack) {
    return new GitError(
      "failed",
      `the land's checkout into ${land.pin.top} failed (${failed}), and what it wrote could not be read back (${
        message(readBack)
      }): check ${
        listPaths(land.paths)
      } by hand; as before the land they are in the tree ${land.before}: ${
        restoreRecipe(land.before, land.paths, inBefore)
      }`,
    );
  }
  const unsure = neither.length === 0
    ? ""
    : `; ${listPaths(neither)} ${
      neither.length === 1 ? "is" : "are"
    } neither as before the land nor as it would write ${
      neither.length === 1 ? "it" : "them"
    } (removed by the failed checkout, or changed meanwhile): check ${
      neither.length === 1 ? "it" : "them"
    } by hand; as before the land ${
      neither.length === 1 ? "it is" : "they are"
    } in the tree ${land.before}: ${restoreRecipe(land.before, neither, inBefore)}`;
  if (wrote.length === 0) { // tether:guard wt-checkout-wrote
    // git checks every path before it writes any: a refusal wrote nothing.
    if (unsure === "") {
      return new GitError(
        "failed",
        `the land is refused, nothing landed: git's checkout into ${land.pin.top} wrote nothing (${failed}); land again`,
      );
    }
    return new GitError(
      "failed",
      `the land's checkout into ${land.pin.top} failed (${failed})${unsure}`,
    );
  }
  return await undoLand(`its checkout failed (${failed})${unsure}`, { ...land, paths: wrote });
}

/**
 * Undo a land whose read-back found files that are not the merged tree's, or failed, or
 * whose later check failed: every path it wrote goes back to the parent's raw tree before
 * the land, under the same pins as the checkout (`git rm -f` of the paths that tree lacks,
 * on the scratch index holding the merged tree; `git restore --source=<tree> --worktree
 * --overlay` of the others, straight from the tree's id: no index file is read for their
 * content, so a scratch index swapped meanwhile cannot choose the bytes written), then read
 * back again. Not tried while the shared .git still names a conversion, filter or driver at
 * those paths (git would run or apply it again). Never throws: the error says the paths,
 * the top level and whether the parent's files are as before; if not, the tree and the
 * commands to restore each path by hand.
 *
 * @param why What went wrong after the checkout wrote the files.
 * @param land The land.
 * @returns The error: exit 3, no record printed, the child kept.
 */
async function undoLand(why: string, land: Undo): Promise<GitError> {
  const what = `the land wrote ${listPaths(land.paths)} into ${land.pin.top}, but ${why}`;
  let inBefore: Map<string, { mode: string; id: string }> | undefined;
  const byHand = (paths: readonly string[], reason: string) =>
    new GitError(
      "failed",
      `${what}; the land could not be undone (${reason}): check ${
        listPaths(paths)
      } by hand; as before the land they are in the tree ${land.before}: ${
        restoreRecipe(land.before, paths, inBefore)
      }`,
    );
  try {
    const top = land.pin.top;
    const [drivers, entries, unread] = await Promise.all([
      readDrivers(top),
      treeEntries(top, land.before),
      seedIndexPath(top),
    ]);
    inBefore = entries;
    const still = [
      ...configProblems(drivers),
      ...drivers.filters.filter((n) => !land.drivers.filters.includes(n)).map((n) =>
        `filter.${n} (config)`
      ),
      ...await unsettled(await attributesAt(top, land.paths, land.mergedIndex, false), land),
    ];
    if (still.length > 0) { // tether:guard wt-undo-still
      return byHand(land.paths, `the shared .git still names ${listPaths(still)}`);
    }
    const gone = land.paths.filter((p) => !entries.has(p));
    const back = land.paths.filter((p) => entries.has(p));
    const at = (index: string, stdin: string) =>
      pinned(land.drivers, {
        cwd: top,
        env: { GIT_INDEX_FILE: index, GIT_NO_REPLACE_OBJECTS: "1", GIT_LITERAL_PATHSPECS: "1" },
        stdin,
      });
    const nul = (paths: readonly string[]) => paths.map((p) => `${p}\0`).join("");
    if (gone.length > 0) {
      const [pins, options] = at(land.mergedIndex, nul(gone));
      await runGit(
        [...pins, "rm", "-f", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], // tether:guard wt-undo-gone
        options,
      );
    }
    if (back.length > 0) {
      // A fresh index name that is never written (restore without --staged only reads it,
      // and finds none): the bytes come from the tree's id alone.
      const [pins, options] = at(unread, nul(back));
      await runGit(
        [
          ...pins,
          "restore", // tether:guard wt-undo-land
          `--source=${land.before}`, // tether:guard wt-undo-from-tree
          "--worktree",
          "--overlay",
          "--pathspec-from-file=-",
          "--pathspec-file-nul",
        ],
        options,
      );
    }
    const [left, moved] = await Promise.all([
      notAsTree(land.pin, land.format, entries, land.paths),
      repositoryMoved(land.pin),
    ]);
    if (left.length > 0) return byHand(left, "the restored files did not read back as before");
    return new GitError(
      "failed",
      `${what}; the land was undone: ${
        listPaths(land.paths)
      } read back as before the land, nothing landed (find the cause, in the shared .git first, then land again)${
        moved === undefined ? "" : `; meanwhile ${moved}`
      }`,
    );
  } catch (error) {
    return byHand(land.paths, message(error));
  }
}

/**
 * Where git run at the pinned top level finds the repository now, when that is not the
 * pinned one (see {@linkcode repositoryMoved}); undefined when it is, or when nothing was
 * pinned. A probe that cannot run says so.
 */
async function movedSince(): Promise<string | undefined> {
  const pin = repositoryPin();
  if (pin === undefined) return undefined;
  try {
    const moved = await repositoryMoved(pin);
    return moved === undefined ? undefined : `meanwhile ${moved}`;
  } catch (error) {
    return `where the repository is could not be checked (${message(error)})`;
  }
}

/** Remove the child unless kept; say what could not be removed. */
async function tidy(
  child: ChildWork,
  keep: boolean,
): Promise<{ removed: boolean; not_removed?: string[] }> {
  if (keep) return { removed: false };
  const left = await removeChild(child);
  return left.length === 0 ? { removed: true } : { removed: false, not_removed: left };
}
