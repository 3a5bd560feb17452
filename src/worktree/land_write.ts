/**
 * The writing steps of a land: the one `git read-tree -m -u` that checks every landing path
 * before it writes any, the read-back of what it wrote (raw bytes and types, compared with
 * the merged tree), and a last look at the shared .git and at where the repository is. From
 * the checkout on, every failure is said as what it is: the land wrote files, and
 * {@linkcode undoLand} puts them back when git can still run and names them when not.
 *
 * @module
 */

import { ownWords } from "../git_failure.ts";
import { runGit } from "../git.ts";
import { repositoryMoved } from "../repo_pin.ts";
import { listPaths } from "../show.ts";
import { checkoutBase } from "./land_checkout.ts";
import { attributesAt, configProblems, pinned, readDrivers } from "./land_config.ts";
import type { ParentRead } from "./land_read.ts";
import type { Landing } from "./land_refusals.ts";
import { unsettled } from "./land_settings.ts";
import {
  checkoutFailed,
  NotAsChecked,
  notTheCheckedBytes,
  readBackFailed,
  undoLand,
} from "./land_undo.ts";
import { notAsTree, treeEntries } from "./tree_entries.ts";
import { GitError } from "../git_error.ts";

/**
 * Check the merged tree out into the parent's work tree, from the parent's raw tree, under
 * the land's pins.
 *
 * @param parent The parent as the land read it.
 * @param land The land.
 * @throws {GitError} when git refuses (nothing written) or the checkout failed (what it wrote
 *   undone, or named).
 */
export async function checkOut(parent: ParentRead, land: Landing): Promise<void> {
  const index = { GIT_INDEX_FILE: parent.scratch, GIT_NO_REPLACE_OBJECTS: "1" };
  // The capture's entries carry no stat data; git compares each file's content with its
  // raw blob, so read-tree can tell a file that changed after the parent was read.
  // Every filter the configuration names is pinned to none; sparse checkout, line ends,
  // core.symlinks and the global and system attribute files are pinned too (land_config.ts).
  const [refreshPins, refreshOptions] = pinned(land.drivers, {
    cwd: parent.top,
    env: index,
    allowFailure: true,
  });
  await runGit([...refreshPins, "update-index", "-q", "--refresh"], refreshOptions);
  const [checkoutPins, checkoutOptions] = pinned(land.drivers, {
    cwd: parent.top,
    env: index,
    parse: true, // git's refusal is read (checkoutFailed), so in its C wording
  });
  // A landing file whose cleaned form is not its raw blob (CRLF under `text`) is given
  // git's own entry, so git checks it by its stat data (land_checkout.ts).
  const from = await checkoutBase({
    top: parent.top,
    pins: checkoutPins,
    options: checkoutOptions,
    parentTree: parent.tree,
    paths: land.paths,
    merged: land.inTree,
    entries: (tree) => treeEntries(parent.top, tree),
    notAs: (entries, these) => notAsTree(land.pin, land.format, entries, these),
  });
  try {
    await runGit(
      [...checkoutPins, "read-tree", "-m", "-u", "--end-of-options", from, land.tree],
      checkoutOptions,
    );
  } catch (error) {
    throw await checkoutFailed(error, land, land.inTree);
  }
}

/**
 * Read what the checkout wrote back and compare it with the merged tree.
 *
 * What the checkout wrote is read back as raw bytes and types (the seed's reading: no
 * filter, links read as links, a deleted path absent), in the pinned work tree, and compared
 * with the merged tree at every landing path: a smudge or conversion the shared .git came to
 * name during the land (even one erased since) is caught here. The land is then undone (see
 * {@linkcode undoLand}): nothing more is done. A read-back that fails (git cannot run: a
 * config line broken meanwhile) is undone too, or named.
 *
 * @param land The land.
 * @throws {GitError} when the files written are not the merged tree's, or the read-back
 *   failed (the land undone, or named).
 */
export async function readBack(land: Landing): Promise<void> {
  try {
    const rewritten = await notAsTree(land.pin, land.format, land.inTree, land.paths);
    if (rewritten.length > 0) throw notTheCheckedBytes(rewritten); // tether:guard wt-rehash-after
  } catch (error) {
    if (!(error instanceof NotAsChecked)) throw await readBackFailed(error, land); // tether:guard wt-readback-failed
    throw await undoLand(
      `the files written are not the tree gate checked at ${
        listPaths(error.paths)
      } (one possible cause: a filter or conversion the shared .git came to name during the land)`,
      land,
    );
  }
}

/**
 * Look at the shared .git and at where the repository is once more, after the read-back.
 *
 * A child that wrote the shared .git while the land ran is caught and said, though the files
 * are written by now (docs/worktree.md, Known limits). The last look at where the repository
 * is comes last, right before the clean-up writes refs.
 *
 * @param parent The parent as the land read it.
 * @param land The land.
 * @throws {GitError} when the shared .git came to name a driver, filter or conversion, the
 *   repository moved, or the check failed (the land then undone, or named).
 */
export async function checkAfter(parent: ParentRead, land: Landing): Promise<void> {
  let after: string[];
  let movedAfter: string | undefined;
  try {
    const driversAfter = await readDrivers(parent.top);
    after = [
      ...configProblems(driversAfter),
      ...driversAfter.filters.filter((n) => !land.drivers.filters.includes(n)).map((n) =>
        `filter.${n} (config)`
      ),
      ...await unsettled(await attributesAt(parent.top, land.paths, parent.scratch, false), land),
    ];
    movedAfter = await repositoryMoved(land.pin);
  } catch (error) {
    throw await undoLand(`its check after the read-back failed (${ownWords(error)})`, land); // tether:guard wt-after-failed
  }
  if (after.length > 0) { // tether:guard wt-attr-after
    throw new GitError(
      "failed",
      `the land wrote ${listPaths(land.paths)}, but meanwhile the shared .git came to name ${
        listPaths(after)
      } (a merge driver, filter or conversion tether does not run): check those files by hand`,
    );
  }
  if (movedAfter !== undefined) { // tether:guard wt-pin-after
    throw new GitError(
      "failed",
      `the land wrote ${
        listPaths(land.paths)
      } into ${land.pin.top}, but meanwhile ${movedAfter}: remove what was written before using git there`,
    );
  }
}
