/**
 * Comparing two trees, and looking paths up in them, with every tree object checked
 * against its name: one `git cat-file --batch` per directory level (the number of git
 * calls grows with the depth of the changed paths, not with their number).
 *
 * @module
 */

import { GateError } from "./repo.ts";
import { parseTree, readObjects, type TreeEntry } from "./objects.ts";
import { type ObjectFormat } from "../git_objects.ts";

/** One entry of a tree object. */
export type { TreeEntry };

/** What a tree holds at a path that is not a directory. */
export interface TreeLeaf {
  /** `100644`, `100755`, `120000` or `160000`. */
  mode: string;
  /** The blob (or, for a submodule, commit) id. */
  oid: string;
}

/** Two trees compared. */
export interface TreePair {
  /** Paths whose leaf differs between the trees (present in one only, other mode or id). */
  differ: string[];
  /** The first tree's leaves at the paths that differ and at the wanted paths. */
  before: Map<string, TreeLeaf>;
  /** The second tree's leaves at the same paths. */
  after: Map<string, TreeLeaf>;
}

const TREE_MODE = "40000";

/**
 * Read trees by id in one `git cat-file --batch` call, each checked against its name.
 *
 * @param top Top level.
 * @param oids Tree ids.
 * @param format The repository's object format.
 * @returns Tree id → its entries in stored order.
 * @throws {GateError} when a tree is missing, is not a tree, or does not hash to its id.
 */
export async function readTreeLevel(
  top: string,
  oids: readonly string[],
  format: ObjectFormat,
): Promise<Map<string, TreeEntry[]>> {
  const read = await readObjects(top, oids, format);
  const trees = new Map<string, TreeEntry[]>();
  for (const oid of new Set(oids)) {
    const found = read.get(oid);
    if (found?.kind !== "ok" || found.type !== "tree") {
      throw new GateError(
        found?.kind === "forged"
          ? `Cannot evaluate: object "${oid}" does not hash to its id (the object store was altered)`
          : `Cannot evaluate: tree "${oid}" is missing from this repository`,
      );
    }
    trees.set(oid, parseTree(found.content, format));
  }
  return trees;
}

interface Item {
  dir: string;
  a: string | null;
  b: string | null;
}

/**
 * Compare two trees (either may be null: the empty tree) and look up wanted paths in
 * both. Only subtrees that differ or hold a wanted path are read.
 *
 * @param top Top level.
 * @param format The repository's object format.
 * @param a The first tree id, or null.
 * @param b The second tree id, or null.
 * @param wanted Paths whose leaves the caller needs from both trees.
 * @param differences Whether to compare at all; when false, only the wanted paths' leaves
 *   are looked up (`differ` stays empty, and only their directories are read).
 * @returns The differing paths and both trees' leaves.
 * @throws {GateError} when a tree is missing or does not hash to its id.
 */
export async function compareTrees(
  top: string,
  format: ObjectFormat,
  a: string | null,
  b: string | null,
  wanted: Iterable<string>,
  differences = true,
): Promise<TreePair> {
  const want = new Set(wanted);
  const dirs = new Set<string>();
  for (const path of want) {
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
      dirs.add(path.slice(0, i + 1));
    }
  }
  const pair: TreePair = { differ: [], before: new Map(), after: new Map() };
  let items: Item[] = (a === b || !differences) && want.size === 0 ? [] : [{ dir: "", a, b }];
  while (items.length > 0) {
    const ids = items.flatMap((i) => [i.a, i.b]).filter((x): x is string => x !== null);
    const read = await readTreeLevel(top, ids, format);
    const entries = (oid: string | null): Map<string, TreeEntry> =>
      new Map(oid === null ? [] : read.get(oid)!.map((e) => [e.name, e]));
    const next: Item[] = [];
    for (const item of items) {
      const ea = entries(item.a);
      const eb = entries(item.b);
      for (const name of new Set([...ea.keys(), ...eb.keys()])) {
        const path = item.dir + name;
        const x = ea.get(name);
        const y = eb.get(name);
        const ta = x?.mode === TREE_MODE ? x.oid : null;
        const tb = y?.mode === TREE_MODE ? y.oid : null;
        if (
          (ta !== null || tb !== null) && ((differences && ta !== tb) || dirs.has(`${path}/`))
        ) {
          next.push({ dir: `${path}/`, a: ta, b: tb });
        }
        const la = x && x.mode !== TREE_MODE ? { mode: x.mode, oid: x.oid } : undefined;
        const lb = y && y.mode !== TREE_MODE ? { mode: y.mode, oid: y.oid } : undefined;
        const same = !differences || (la?.mode === lb?.mode && la?.oid === lb?.oid);
        if (!same) pair.differ.push(path);
        if (!same || want.has(path)) {
          if (la) pair.before.set(path, la);
          if (lb) pair.after.set(path, lb);
        }
      }
    }
    items = next;
  }
  pair.differ.sort();
  return pair;
}
