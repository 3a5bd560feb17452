/**
 * A tree's entries, and the paths of the pinned work tree whose file is not what a tree
 * holds there (read as raw bytes and `lstat` types, no filter run): what a land compares
 * before it writes, after it writes and after it undoes.
 *
 * @module
 */

import { readContents } from "../context/content.ts";
import { runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { type RepositoryPin } from "../git_pin.ts";

/** A tree's entries (path → mode and id), every level. */
export async function treeEntries(
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
export async function notAsTree(
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
