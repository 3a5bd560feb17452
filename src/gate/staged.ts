/**
 * What the index holds that the live HEAD does not, found without trusting anything a
 * child can rewrite beside the index's own entries. `git status` compares the index with
 * HEAD through two caches: the index's cache-tree (its `TREE` extension), which lets it
 * skip a directory whose recorded tree id equals HEAD's, and the tree objects themselves,
 * read unchecked. A child that rewrites either (review gate-5, findings 1 and 2) makes a
 * staged change of any size invisible to status. Here the tree of every index directory is
 * computed from the entries in process, and HEAD's trees are read checked against their
 * names, descending only where the two differ: one `git ls-files` (shared with the
 * unchecked entries) and one `git cat-file --batch` per differing directory level.
 *
 * @module
 */
import type { ObjectFormat } from "../git.ts";
import { runGit } from "../git.ts";
import { decodePaths, encodePath } from "../seed/paths.ts";
import { objectId } from "../seed/commit.ts";
import { GateError } from "./repo.ts";
import { readTreeLevel, type TreeEntry } from "./trees.ts";

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
  return decodePaths(listing).map((record) => {
    const match = /^(\S) (\d{6}) ([0-9a-f]{40}|[0-9a-f]{64}) ([0-3])\t(.+)$/s.exec(record);
    if (!match) {
      throw new GateError(`Cannot evaluate: git listed an index entry gate cannot read`);
    }
    return {
      tag: match[1]!,
      mode: match[2]!,
      oid: match[3]!,
      stage: Number(match[4]),
      path: match[5]!,
    };
  });
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

/** One directory of the index: its direct children in index order, and its tree id. */
interface IndexDir {
  /** `""` for the top level, else `a/b/`. */
  dir: string;
  depth: number;
  /** Files (and gitlinks) by name. */
  leaves: Map<string, { mode: string; oid: string }>;
  /** Subdirectory names. */
  subdirs: Set<string>;
  /** Children in index order, for the tree's bytes: a leaf, or a subdirectory's key. */
  order: { name: string; dir?: string }[];
  /** The tree id the entries make; null when they make none (a conflict below). */
  id: string | null;
}

const HEX = /^[0-9a-f]+$/;

function rawId(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
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
  const dirs = new Map<string, IndexDir>();
  const node = (dir: string, depth: number): IndexDir => {
    let found = dirs.get(dir);
    if (!found) {
      found = { dir, depth, leaves: new Map(), subdirs: new Set(), order: [], id: "" };
      dirs.set(dir, found);
    }
    return found;
  };
  const conflicted = new Set<IndexDir>();
  node("", 0);
  for (const e of entries) {
    const parts = e.path.split("/");
    let parent = node("", 0);
    let key = "";
    for (let i = 0; i < parts.length - 1; i++) {
      key += `${parts[i]}/`;
      const had = dirs.has(key);
      const child = node(key, i + 1);
      if (!had) {
        parent.subdirs.add(parts[i]!);
        parent.order.push({ name: parts[i]!, dir: key });
      }
      parent = child;
    }
    const name = parts[parts.length - 1]!;
    if (e.stage !== 0 || !HEX.test(e.oid)) {
      conflicted.add(parent);
      continue;
    }
    parent.leaves.set(name, { mode: e.mode, oid: e.oid });
    parent.order.push({ name });
  }
  const byDepth = [...dirs.values()].sort((a, b) => b.depth - a.depth);
  let at = 0;
  while (at < byDepth.length) {
    const depth = byDepth[at]!.depth;
    const level: IndexDir[] = [];
    while (at < byDepth.length && byDepth[at]!.depth === depth) level.push(byDepth[at++]!);
    await Promise.all(level.map(async (d) => {
      if (conflicted.has(d)) {
        d.id = null;
        return;
      }
      const parts: Uint8Array[] = [];
      let size = 0;
      for (const child of d.order) {
        let mode: string;
        let oid: string | null;
        if (child.dir !== undefined) {
          mode = "40000";
          oid = dirs.get(child.dir)!.id;
        } else {
          const leaf = d.leaves.get(child.name)!;
          mode = leaf.mode;
          oid = leaf.oid;
        }
        if (oid === null) {
          d.id = null;
          return;
        }
        const head = encodePath(`${mode} ${child.name}\0`);
        const raw = rawId(oid);
        parts.push(head, raw);
        size += head.length + raw.length;
      }
      const bytes = new Uint8Array(size);
      let offset = 0;
      for (const part of parts) {
        bytes.set(part, offset);
        offset += part.length;
      }
      d.id = await objectId("tree", bytes, format);
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
      const names = new Set([
        ...tree.keys(),
        ...(index?.leaves.keys() ?? []),
        ...(index?.subdirs ?? []),
      ]);
      for (const name of names) {
        const path = dir + name;
        const inHead = tree.get(name);
        const leaf = index?.leaves.get(name);
        const sub = index?.subdirs.has(name) ? dirs.get(`${path}/`) : undefined;
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
