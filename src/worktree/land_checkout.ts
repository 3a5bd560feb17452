/**
 * The tree the land's checkout starts from. The checkout's scratch index holds the parent's
 * raw entries, and git takes an entry without stat data for up to date only when the file,
 * hashed through its attributes' conversions, is that raw blob. A CRLF file under `text`,
 * `eol=lf` or `text eol=crlf` (every Gradle wrapper's `*.bat`) cleans to another blob than
 * its raw bytes, so `read-tree -m -u` refused to land it as "not uptodate", though neither
 * git nor the user considers it changed. Such a landing file is given git's own entry
 * instead (stat data and the cleaned id, from `update-index --add`), its raw bytes are read
 * again and must still be the parent's, and the checkout starts from the index's tree: git
 * then checks every landing file by its stat data, as it checks the user's own.
 *
 * @module
 */
import { type GitOptions, runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { listPaths } from "../show.ts";
import { GitError } from "../git_error.ts";

/** A tree entry: mode and id. */
export type Entry = { mode: string; id: string };

/** What {@linkcode checkoutBase} needs of the land. */
export interface CheckoutStart {
  /** The parent's top level. */
  top: string;
  /** The pinned arguments and options of the land's index calls (the scratch index in env). */
  pins: readonly string[];
  options: GitOptions;
  /** The parent's raw tree, which the scratch index holds. */
  parentTree: string;
  /** The paths the land writes. */
  paths: readonly string[];
  /** The merged tree's entries. */
  merged: ReadonlyMap<string, Entry>;
  /** A tree's entries (path → mode and id), every level. */
  entries: (tree: string) => Promise<Map<string, Entry>>;
  /** The paths among `paths` whose file is not what `entries` holds there (read raw). */
  notAs: (entries: ReadonlyMap<string, Entry>, paths: readonly string[]) => Promise<string[]>;
}

/**
 * The tree to give `read-tree -m -u` as the parent's: the raw tree itself, or, when landing
 * files git would take for changed only through their attributes' conversions, the
 * scratch index's tree with git's own entries for them.
 *
 * @param land The land.
 * @returns The tree id.
 * @throws {GitError} when such a file's raw bytes are no longer the parent's (it changed
 *   after the parent was read), or when the land would change only what the conversion hides
 *   (git would not write it); nothing is written.
 */
export async function checkoutBase(land: CheckoutStart): Promise<string> {
  const at = (args: string[], stdin?: string) =>
    runGit([...land.pins, ...args], {
      ...land.options,
      parse: true,
      allowFailure: false,
      ...(stdin === undefined ? {} : { stdin }),
    });
  const landing = new Set(land.paths);
  const listed = await at(["diff-files", "-z", "--name-only", "--no-renames"]);
  const stale = decodePaths(listed.stdout).filter((p) => landing.has(p)); // tether:guard wt-land-stale
  if (stale.length === 0) return land.parentTree;
  await at(
    ["update-index", "--add", "--remove", "-z", "--stdin"],
    stale.map((p) => `${p}\0`).join(""),
  );
  // Read after git took its stat data: a change before that is seen here, one after it
  // changes the stat data, which git's checkout then refuses.
  const parentEntries = await land.entries(land.parentTree);
  const changed = await land.notAs(parentEntries, stale);
  if (changed.length > 0) throw changedMeanwhile(changed);
  const base = decodePaths((await at(["write-tree"])).stdout)[0]?.trim() ?? "";
  const inBase = await land.entries(base);
  const hidden = stale.filter((p) => inBase.get(p)?.id === land.merged.get(p)?.id);
  if (hidden.length > 0) { // tether:guard wt-land-hidden
    const [first] = hidden;
    throw new GitError(
      "failed",
      `the land is refused, nothing landed: it would change only what the attributes' conversion hides (line ends) at ${
        listPaths(hidden)
      }, which git's checkout does not see as a change; write the landed bytes by hand (git cat-file blob ${
        land.merged.get(first!)!.id
      } > ${first}${hidden.length > 1 ? ", and likewise for the others" : ""})`,
    );
  }
  return base;
}

/**
 * The error of a landing file that changed after the parent was read: exit 3, nothing
 * written.
 *
 * @param paths The files.
 * @returns The error.
 */
export function changedMeanwhile(paths: readonly string[]): GitError {
  return new GitError(
    "failed",
    `the land is refused, nothing landed: ${
      listPaths(paths)
    } changed in the parent after the land read it (an edit made while gate ran); land again`,
  );
}
