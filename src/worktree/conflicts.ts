/**
 * What a conflicted land reports, decided from `git merge-tree --write-tree -z` output as
 * pure functions: the paths as they are in the trees (never the names merge-tree gives the
 * side it moves out of the way, such as `d~5ea889d5…`), and the kind of each conflict.
 *
 * @module
 */
import { decodePath } from "../paths.ts";

/** A conflict's kind: lines of one file, file types (file, directory, link), or other. */
export type ConflictKind = "lines" | "types" | "other";

/** The paths of a conflicted merge, each under one kind. */
export interface Conflicts {
  /** Both sides changed the same lines of a file. */
  lines: string[];
  /** One side has a file, directory, link or nested repository where the other has another type. */
  types: string[];
  /** Anything else: one side deleted or renamed what the other changed. */
  other: string[];
}

/** The merged tree and, when the merge conflicted, the conflicts. */
export interface MergeOutput {
  tree: string;
  conflicts: Conflicts;
}

/** Split NUL-terminated fields, keeping each field's bytes. */
function fields(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      out.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

const TEXT = new TextDecoder();

/** The type a mode's file has: `100644` and `100755` are both a regular file. */
function fileType(mode: string): string {
  return mode.startsWith("100") ? "file" : mode;
}

/**
 * Parse `git merge-tree --write-tree -z` output (without `--name-only` or
 * `--no-messages`): the tree, the conflicted entries (`<mode> <oid> <stage>\t<path>`), an
 * empty field, then per message `<n>`, n paths, a type and the text. A path merge-tree
 * moved aside (`<path>~<side>`, named with its own path in a file/directory or
 * distinct-types message) is reported as that path. A conflict is of file types when its
 * message says so or its stages hold different types (a file against a link); of lines
 * when it is a content conflict of one type; otherwise other.
 *
 * @example A directory/file conflict and a content conflict
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const z = (...f: string[]) => new TextEncoder().encode(f.map((x) => `${x}\0`).join(""));
 * const out = z(
 *   "t1",
 *   "120000 aa 2\td~5ea889d5",
 *   "100644 bb 1\tf",
 *   "100644 cc 2\tf",
 *   "100644 dd 3\tf",
 *   "",
 *   "2", "d~5ea889d5", "d", "CONFLICT (file/directory)", "directory in the way of d",
 *   "1", "f", "CONFLICT (contents)", "Merge conflict in f",
 * );
 * assertEquals(parseMergeTree(out), {
 *   tree: "t1",
 *   conflicts: { lines: ["f"], types: ["d"], other: [] },
 * });
 * ```
 * @param bytes What git printed.
 * @returns The tree and the conflicts (all empty for a clean merge).
 */
export function parseMergeTree(bytes: Uint8Array): MergeOutput {
  const all = fields(bytes);
  const tree = TEXT.decode(all[0] ?? new Uint8Array());
  const stages = new Map<string, Set<string>>();
  let i = 1;
  for (; i < all.length && all[i]!.length > 0; i++) {
    const entry = decodePath(all[i]!);
    const tab = entry.indexOf("\t");
    const path = entry.slice(tab + 1);
    const types = stages.get(path) ?? new Set<string>();
    types.add(fileType(entry.slice(0, entry.indexOf(" "))));
    stages.set(path, types);
  }
  const moved = new Map<string, string>();
  const messages: { paths: string[]; type: string }[] = [];
  for (i++; i < all.length;) {
    const n = Number(TEXT.decode(all[i]!));
    if (!Number.isInteger(n) || n < 0) break;
    const paths = all.slice(i + 1, i + 1 + n).map(decodePath);
    const type = TEXT.decode(all[i + 1 + n] ?? new Uint8Array());
    messages.push({ paths, type });
    i += n + 3;
    for (const p of paths) {
      const own = paths.find((q) => q !== p && p.startsWith(`${q}~`));
      if (own !== undefined) moved.set(p, own);
    }
  }
  const real = (p: string) => moved.get(p) ?? p;
  const kinds = new Map<string, ConflictKind>();
  const mark = (path: string, kind: ConflictKind) => {
    const was = kinds.get(path);
    // A path with two conflicts is named once, under the one that says most about it.
    if (was === undefined || rank(kind) > rank(was)) kinds.set(path, kind);
  };
  for (const m of messages) {
    if (!m.type.startsWith("CONFLICT")) continue;
    const kind: ConflictKind = /\((file\/directory|distinct (modes|types))\)/.test(m.type)
      ? "types"
      : /\((contents|content|add\/add)\)/.test(m.type)
      ? "lines"
      : "other";
    for (const p of m.paths) mark(real(p), kind);
  }
  for (const [path, types] of stages) {
    mark(real(path), types.size > 1 ? "types" : kinds.get(real(path)) ?? "lines");
  }
  const of = (kind: ConflictKind) =>
    [...kinds].filter(([, k]) => k === kind).map(([p]) => p).sort();
  return { tree, conflicts: { lines: of("lines"), types: of("types"), other: of("other") } };
}

function rank(kind: ConflictKind): number {
  return kind === "types" ? 2 : kind === "other" ? 1 : 0;
}
