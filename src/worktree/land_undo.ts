/**
 * Undoing a land that wrote files and then found something wrong (a read-back that is not
 * the merged tree, a check that failed, a checkout that died part-way): every path it wrote
 * goes back to the parent's raw tree before the land, raw and under the land's pins, or is
 * named with the commands that put it back by hand. An undo never throws: it is said as the
 * error of the land.
 *
 * @module
 */

import { ownWords } from "../git_failure.ts";
import { runGit } from "../git.ts";
import { repositoryMoved } from "../repo_pin.ts";
import { seedIndexPath } from "../seed/state.ts";
import { listPaths } from "../show.ts";
import { attributesAt, configProblems, type Drivers, pinned, readDrivers } from "./land_config.ts";
import { type SettledLand, unsettled } from "./land_settings.ts";
import { notAsTree, treeEntries } from "./tree_entries.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { type RepositoryPin } from "../git_pin.ts";
import { GitError } from "../git_error.ts";

/** The read-back found landing paths that are not the merged tree's (see {@linkcode undoLand}). */
export class NotAsChecked extends Error {
  /**
   * The finding, naming its paths.
   *
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
export function notTheCheckedBytes(found: readonly string[]): NotAsChecked {
  return new NotAsChecked(found);
}

/** What {@linkcode undoLand} needs of the land. */
export interface Undo extends SettledLand {
  /** The parent's repository as the run pinned it (where the land wrote). */
  pin: RepositoryPin;
  /** The repository's object format. */
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
export function readBackFailed(error: unknown, land: Undo): Promise<GitError> {
  return undoLand(`its read-back failed (${ownWords(error)})`, land);
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
export async function checkoutFailed(
  error: unknown,
  land: Undo,
  inTree: ReadonlyMap<string, { mode: string; id: string }>,
): Promise<GitError> {
  const failed = ownWords(error);
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
        ownWords(readBack)
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
export async function undoLand(why: string, land: Undo): Promise<GitError> {
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
    await putBack(land, entries, unread);
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
    return byHand(land.paths, ownWords(error));
  }
}

/**
 * Write the parent's raw tree before the land back at every path the land wrote, under the
 * land's pins: `git rm -f` of the paths that tree lacks (on the scratch index holding the
 * merged tree), `git restore --source=<tree> --worktree --overlay` of the others.
 *
 * @param land The land.
 * @param entries The entries of the parent's raw tree before the land.
 * @param unread A fresh index name that is never written.
 * @throws {GitError} when git fails.
 */
async function putBack(
  land: Undo,
  entries: ReadonlyMap<string, { mode: string; id: string }>,
  unread: string,
): Promise<void> {
  const top = land.pin.top;
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
}
