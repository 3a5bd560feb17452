/**
 * What the index holds that the live HEAD does not, found without trusting anything a
 * child can rewrite beside the index's own entries. `git status` compares the index with
 * HEAD through two caches: the index's cache-tree (its `TREE` extension), which lets it
 * skip a directory whose recorded tree id equals HEAD's, and the tree objects themselves,
 * read unchecked. A child that rewrites either makes a staged change of any size invisible
 * to status. Here the tree of every index directory is computed from the entries in
 * process, and HEAD's trees are read checked against their names, descending only where the
 * two differ: one `git ls-files` (shared with the unchecked entries) and one
 * `git cat-file --batch` per differing directory level.
 *
 * @module
 */

import { runGit } from "../git.ts";
import { decodePaths, encodePath } from "../paths.ts";
import { objectId } from "../seed/commit.ts";
import { GateError } from "./repo.ts";
import { readTreeLevel, type TreeEntry } from "./trees.ts";
import { type ObjectFormat } from "../git_objects.ts";

const HEX = /^[0-9a-f]+$/;
const MODE = /^\d{6}$/;

/** One index entry as `git ls-files -z -s -v` lists it. */
export interface IndexEntry {
  /** The `-v` tag: `H`, a lower-case letter for assume-unchanged, `S` for skip-worktree. */
  tag: string;
  /** `100644`, `100755`, `120000` or `160000`. */
  mode: string;
  /** The object id the entry names. */
  oid: string;
  /** 0, or 1–3 for the sides of a conflict. */
  stage: number;
  /** The path, decoded exactly. */
  path: string;
}

/**
 * Parse `git ls-files -z -s -v` output.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const oid = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
 * const listing = new TextEncoder().encode(`h 100644 ${oid} 0\ta b\0`);
 * assertEquals(parseIndexListing(listing), [{ tag: "h", mode: "100644", oid, stage: 0, path: "a b" }]);
 * ```
 * @param listing git's output.
 * @returns The entries in index order.
 * @throws {GateError} when a record is not an index entry (nothing is skipped unread).
 */
export function parseIndexListing(listing: Uint8Array): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const record of decodePaths(listing)) {
    // `<tag> <mode> <id> <stage>\t<path>`: fixed places, checked without a pattern per record.
    const tab = record.indexOf("\t");
    const width = tab - 11; // tag, space, six-digit mode, space … space, stage
    const oid = record.slice(9, 9 + width);
    const stage = record.charCodeAt(tab - 1) - 48;
    if (
      tab < 0 || (width !== 40 && width !== 64) || record[1] !== " " || record[8] !== " " ||
      record[tab - 2] !== " " || !(stage >= 0 && stage <= 3) || tab + 1 >= record.length ||
      !MODE.test(record.slice(2, 8)) || !HEX.test(oid)
    ) {
      throw new GateError(`Cannot evaluate: git listed an index entry gate cannot read`);
    }
    entries.push({
      tag: record[0]!,
      mode: record.slice(2, 8),
      oid,
      stage,
      path: record.slice(tab + 1),
    });
  }
  return entries;
}

/**
 * The index entries git status does not compare with the worktree: assume-unchanged (a
 * lower-case tag) and skip-worktree (`S`). A child can set either bit on a path it changed
 * and status says nothing of it, so gate reads what such a path holds itself.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const e = (tag: string, path: string) => ({ tag, mode: "100644", oid: "", stage: 0, path });
 * assertEquals(uncheckedEntries([e("H", "a"), e("h", "b"), e("S", "c"), e("s", "d")]), ["b", "c", "d"]);
 * ```
 * @param entries The index entries.
 * @returns The paths, each once.
 */
export function uncheckedEntries(entries: readonly IndexEntry[]): string[] {
  const paths = new Set<string>();
  for (const e of entries) {
    if (e.tag === "S" || /^[a-z]$/.test(e.tag)) paths.add(e.path); // tether:guard gate-unchecked
  }
  return [...paths];
}

/**
 * Every entry of the index of the worktree at `top`, in one `git ls-files` over the whole
 * index, whatever it holds.
 *
 * @param top The worktree's top level.
 * @returns The entries.
 * @throws {GitError} when git fails.
 * @throws {GateError} when git lists something that is not an entry.
 */
export async function readIndex(top: string): Promise<IndexEntry[]> {
  return parseIndexListing(
    (await runGit(["ls-files", "-z", "-s", "-v"], { cwd: top, parse: true })).stdout,
  );
}

/** A child of an index directory: a leaf (file, link, gitlink) or a subdirectory. */
interface IndexChild {
  name: string;
  mode: string;
  /** The leaf's id. */
  oid?: string;
  /** The subdirectory. */
  sub?: IndexDir;
}

/** One directory of the index: its direct children in index order, and its tree id. */
interface IndexDir {
  /** `""` for the top level, else `a/b/`. */
  dir: string;
  depth: number;
  children: IndexChild[];
  /** Whether a conflicted entry (stage 1–3) lies directly in it. */
  conflicted: boolean;
  /** The tree id the entries make; null when they make none (a conflict below). */
  id: string | null;
}

/** A hex digit's value by its character code. */
const NIBBLE = new Uint8Array(128);
for (let i = 0; i < 16; i++) NIBBLE["0123456789abcdef".charCodeAt(i)] = i;

/**
 * The bytes of the tree a directory's children make, `<mode> <name>\0<raw id>` each in
 * index order (which is tree order: a directory sorts as its name and `/`), or null when
 * a subdirectory makes no tree.
 */
function treeBytes(d: IndexDir, width: number): Uint8Array | null {
  const heads: (string | Uint8Array)[] = [];
  const ids: string[] = [];
  let size = 0;
  for (const child of d.children) {
    const oid = child.sub ? child.sub.id : child.oid!;
    if (oid === null || oid.length !== 2 * width) return null;
    const head = `${child.mode} ${child.name}\0`;
    // An ASCII name is its own bytes; anything else is encoded exactly (lone surrogates
    // back to the bytes git printed).
    const encoded = /[\u0080-\uffff]/.test(head) ? encodePath(head) : head;
    heads.push(encoded);
    ids.push(oid);
    size += encoded.length + width;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < heads.length; i++) {
    const head = heads[i]!;
    if (typeof head === "string") {
      for (let j = 0; j < head.length; j++) bytes[at++] = head.charCodeAt(j);
    } else {
      bytes.set(head, at);
      at += head.length;
    }
    const oid = ids[i]!;
    for (let j = 0; j < width; j++) {
      bytes[at++] = (NIBBLE[oid.charCodeAt(2 * j)]! << 4) | NIBBLE[oid.charCodeAt(2 * j + 1)]!;
    }
  }
  return bytes;
}

/**
 * The directories of the index, each with the id of the tree its entries make (what
 * `git write-tree` would write, computed here, never taken from the cache-tree). A
 * directory holding a conflicted entry (stage 1–3) makes no tree: its id is null, and so
 * is every directory above it.
 *
 * @example The empty file at the top level
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const oid = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
 * const dirs = await indexTrees([{ tag: "H", mode: "100644", oid, stage: 0, path: "a" }], "sha1");
 * assertEquals(dirs.get("")!.id, "496d6428b9cf92981dc9495211e6e1120fb6f2ba");
 * ```
 * @param entries The index entries, in index order.
 * @param format The repository's object format.
 * @returns Directory key (`""`, `a/`, `a/b/`) → its children and tree id.
 */
export async function indexTrees(
  entries: readonly IndexEntry[],
  format: ObjectFormat,
): Promise<Map<string, IndexDir>> {
  const root: IndexDir = { dir: "", depth: 0, children: [], conflicted: false, id: "" };
  const dirs = new Map<string, IndexDir>([["", root]]);
  // Index order keeps a directory's entries together: the directories of the previous
  // entry are kept open (a stack), and only what differs is looked up.
  const open: IndexDir[] = [root];
  for (const e of entries) {
    const slash = e.path.lastIndexOf("/");
    while (open.length > 1 && !e.path.startsWith(open[open.length - 1]!.dir)) open.pop();
    let parent = open[open.length - 1]!;
    for (
      let i = e.path.indexOf("/", parent.dir.length);
      i >= 0 && i <= slash;
      i = e.path.indexOf("/", i + 1)
    ) {
      const key = e.path.slice(0, i + 1);
      let child = dirs.get(key);
      if (!child) {
        child = { dir: key, depth: parent.depth + 1, children: [], conflicted: false, id: "" };
        dirs.set(key, child);
        parent.children.push({ name: key.slice(parent.dir.length, -1), mode: "40000", sub: child });
      }
      open.push(child);
      parent = child;
    }
    if (e.stage !== 0) parent.conflicted = true;
    else parent.children.push({ name: e.path.slice(slash + 1), mode: e.mode, oid: e.oid });
  }
  const width = format === "sha256" ? 32 : 20;
  const byDepth = [...dirs.values()].sort((a, b) => b.depth - a.depth);
  let at = 0;
  while (at < byDepth.length) {
    const depth = byDepth[at]!.depth;
    const level: IndexDir[] = [];
    while (at < byDepth.length && byDepth[at]!.depth === depth) level.push(byDepth[at++]!);
    await Promise.all(level.map((d) => {
      const bytes = d.conflicted ? null : treeBytes(d, width);
      if (bytes === null) {
        d.id = null;
        return;
      }
      return objectId("tree", bytes, format).then((id) => {
        d.id = id;
      });
    }));
  }
  return dirs;
}

/**
 * The paths where the index differs from the tree `headTree` (the live HEAD's, read from a
 * checked commit): a superset is harmless (gate reads each path's content and compares it
 * with the spawn), a missing path is a hidden change, so every doubt lists more. A
 * directory whose computed tree id equals HEAD's holds the same entries (its id names its
 * bytes); every other HEAD tree on the way is read checked against its name.
 *
 * @param top The worktree's top level.
 * @param format The repository's object format.
 * @param headTree The live HEAD's root tree id, or null on an unborn branch.
 * @param entries The index entries ({@linkcode readIndex}).
 * @returns The paths, each once.
 * @throws {GateError} when a HEAD tree is missing or does not hash to its id.
 */
export async function stagedPaths(
  top: string,
  format: ObjectFormat,
  headTree: string | null,
  entries: readonly IndexEntry[],
): Promise<string[]> {
  const out = new Set<string>();
  // A conflict's sides are listed by status, and always by gate.
  for (const e of entries) if (e.stage !== 0) out.add(e.path);
  if (headTree === null) {
    for (const e of entries) out.add(e.path);
    return [...out];
  }
  const dirs = await indexTrees(entries, format);
  // Index directories none of whose entries HEAD can vouch for: all their paths are listed.
  const indexOnly = new Set<string>();
  let level: { dir: string; head: string | null; index: IndexDir | undefined }[] = [];
  const root = dirs.get("")!;
  if (root.id !== headTree) level.push({ dir: "", head: headTree, index: root }); // tether:guard gate-staged-descend
  while (level.length > 0) {
    const heads = level.flatMap((l) => l.head === null ? [] : [l.head]);
    const read = await readTreeLevel(top, heads, format);
    const next: typeof level = [];
    for (const { dir, head, index } of level) {
      const tree = new Map<string, TreeEntry>(
        head === null ? [] : read.get(head)!.map((e) => [e.name, e]),
      );
      const leaves = new Map<string, IndexChild>();
      const subs = new Map<string, IndexDir>();
      for (const child of index?.children ?? []) {
        if (child.sub) subs.set(child.name, child.sub);
        else leaves.set(child.name, child);
      }
      for (const name of new Set([...tree.keys(), ...leaves.keys(), ...subs.keys()])) {
        const path = dir + name;
        const inHead = tree.get(name);
        const leaf = leaves.get(name);
        const sub = subs.get(name);
        const headSub = inHead?.mode === "40000" ? inHead.oid : null;
        if (leaf !== undefined) {
          if (inHead?.mode !== leaf.mode || inHead.oid !== leaf.oid) out.add(path);
        } else if (inHead !== undefined && headSub === null) {
          out.add(path); // a file HEAD has and the index does not (or has as a directory)
        }
        if (sub !== undefined && headSub === null) indexOnly.add(`${path}/`);
        else if (headSub !== null && (sub === undefined || sub.id !== headSub)) {
          next.push({ dir: `${path}/`, head: headSub, index: sub });
        }
      }
    }
    level = next;
  }
  if (indexOnly.size > 0) {
    for (const e of entries) {
      for (let i = e.path.indexOf("/"); i > 0; i = e.path.indexOf("/", i + 1)) {
        if (indexOnly.has(e.path.slice(0, i + 1))) {
          out.add(e.path);
          break;
        }
      }
    }
  }
  return [...out];
}
