/**
 * Parsing `git status --porcelain -z` (v1 and v2) into entries and counting them. Pure:
 * the bytes come from the caller.
 *
 * @module
 */

/** One entry of `git status --porcelain=v2 -z --no-renames`, with v1's status letters. */
export interface StatusEntry {
  /** The two status letters, `XY`, as porcelain v1 writes them (`??` for untracked). */
  xy: string;
  /** Path relative to the top level, as git prints it (no quoting under `-z`). */
  path: string;
  /**
   * Blob id of the worktree content when it is a regular file (its bytes, no filters) or a
   * symbolic link (its link text, as git stores a link), else null. Special files (FIFOs,
   * devices) are never read.
   */
  oid: string | null;
  /**
   * The porcelain v2 facts between the letters and the path: submodule state, HEAD, index
   * and worktree modes, HEAD and index object ids (`<sub> <mH> <mI> <mW> <hH> <hI>`; an
   * unmerged entry has its three stages); for an untracked entry the worktree mode read
   * with `lstat` (`100644`, `100755`, `120000`, or `none`). Absent in snapshots written
   * before it existed.
   */
  state?: string | undefined;
  /**
   * What the path held when it was read, compared as is: `<lstat mode>:<raw id>` (bytes
   * with no filters, link text, or a submodule's commit), `special:<mode>`, or `absent`.
   * Absent in snapshots written before it existed.
   */
  content?: string | undefined;
}

/** The worktree modes of regular files. */
export const REGULAR_MODES: ReadonlySet<string> = new Set(["100644", "100755"]);
/** The mode git gives a symbolic link. */
export const SYMLINK_MODE = "120000";

/** Staged, modified and untracked entry counts. */
export interface StatusCounts {
  /** Entries with a change in the index (`X` set). */
  staged: number;
  /** Entries with a change in the worktree (`Y` set) or a merge conflict. */
  modified: number;
  /** Untracked files (`??`). */
  untracked: number;
}

const CONFLICTS = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

/**
 * Parse the NUL-separated output of `git status --porcelain=v1 -z`.
 *
 * Renames and copies (`R`/`C`) carry a second, original path; both become entries so a
 * rename shows up as a change of both paths.
 *
 * @example Parse a modified and an untracked file
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const entries = parsePorcelainZ(" M a.txt\0?? new.txt\0");
 * assertEquals(entries.map((e) => e.xy + e.path), [" Ma.txt", "??new.txt"]);
 * ```
 * @param text What git printed.
 * @returns The entries in git's order, `oid` null.
 * @throws {Error} when a record is not `XY PATH`.
 */
export function parsePorcelainZ(text: string): StatusEntry[] {
  const records = text.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? "";
    if (record === "") continue;
    if (record.length < 4 || record[2] !== " ") {
      throw new Error(`Cannot parse status entry: "${record.slice(0, 80)}"`);
    }
    const xy = record.slice(0, 2);
    entries.push({ xy, path: record.slice(3), oid: null });
    if (xy.includes("R") || xy.includes("C")) {
      const original = records[++i];
      if (original) entries.push({ xy, path: original, oid: null });
    }
  }
  return entries;
}

const V2_ORDINARY =
  /^([12]) (\S\S) (\S{4} \d{6} \d{6} \d{6} [0-9a-f]+ [0-9a-f]+)(?: [RC]\d+)? (.*)$/s;
const V2_UNMERGED =
  /^u (\S\S) (\S{4} \d{6} \d{6} \d{6} \d{6} [0-9a-f]+ [0-9a-f]+ [0-9a-f]+) (.*)$/s;

/**
 * Parse the NUL-separated output of `git status --porcelain=v2 -z`.
 *
 * Letters are given v1's spelling (`.` becomes a space) so counts read the same; a rename
 * or copy (`2`) becomes an entry for each of its two paths; `# ` header lines are skipped.
 *
 * @example A staged-and-modified file and an untracked one
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const z = "0".repeat(40);
 * const entries = parsePorcelainV2Z(`1 MM N... 100644 100644 100755 ${z} ${z} a b\0? new\0`);
 * assertEquals(entries.map((e) => e.xy + "|" + e.path), ["MM|a b", "??|new"]);
 * assertEquals(worktreeMode(entries[0]!), "100755");
 * ```
 * @param text What git printed.
 * @returns The entries in git's order, `oid` null, `state` set (empty for untracked).
 * @throws {Error} when a record has an unknown shape.
 */
export function parsePorcelainV2Z(text: string): StatusEntry[] {
  const records = text.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? "";
    if (record === "" || record.startsWith("# ")) continue;
    const kind = record[0];
    if ((kind === "?" || kind === "!") && record[1] === " " && record.length > 2) {
      entries.push({ xy: `${kind}${kind}`, path: record.slice(2), oid: null, state: "" });
      continue;
    }
    const ordinary = V2_ORDINARY.exec(record);
    if (ordinary) {
      const [, type, xy, state, path] = ordinary as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const letters = xy.replaceAll(".", " ");
      entries.push({ xy: letters, path, oid: null, state });
      if (type === "2") {
        const original = records[++i];
        if (original) entries.push({ xy: letters, path: original, oid: null, state });
      }
      continue;
    }
    const unmerged = V2_UNMERGED.exec(record);
    if (unmerged) {
      const [, xy, state, path] = unmerged as unknown as [string, string, string, string];
      entries.push({ xy, path, oid: null, state });
      continue;
    }
    throw new Error(`Cannot parse status entry: ${JSON.stringify(record.slice(0, 80))}`);
  }
  return entries;
}

/**
 * The worktree mode porcelain v2 gave a tracked entry (`000000` when it is gone).
 *
 * @param entry A parsed entry.
 * @returns The mode, or undefined for untracked entries and v1 entries.
 */
export function worktreeMode(entry: StatusEntry): string | undefined {
  const fields = (entry.state ?? "").split(" ");
  if (fields.length === 6) return fields[3];
  if (fields.length === 8) return fields[4];
  return undefined;
}

/**
 * Count staged, modified and untracked entries the way `git status` groups them.
 *
 * @example Count one entry staged and modified, one untracked
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const counts = countEntries([
 *   { xy: "MM", path: "a", oid: null },
 *   { xy: "??", path: "b", oid: null },
 * ]);
 * assertEquals(counts, { staged: 1, modified: 1, untracked: 1 });
 * ```
 * @param entries Parsed status entries.
 * @returns The three counts.
 */
export function countEntries(entries: readonly StatusEntry[]): StatusCounts {
  const counts: StatusCounts = { staged: 0, modified: 0, untracked: 0 };
  for (const { xy } of entries) {
    if (xy === "??") counts.untracked++;
    else if (CONFLICTS.has(xy)) counts.modified++;
    else {
      if (xy[0] !== " ") counts.staged++;
      if (xy[1] !== " ") counts.modified++;
    }
  }
  return counts;
}

/**
 * Whether the worktree still holds a file for this entry (so git can hash it).
 *
 * @param entry A status entry.
 * @returns False for deletions and for directory entries (a nested repository).
 */
export function hasWorktreeFile(entry: StatusEntry): boolean {
  if (entry.path.endsWith("/")) return false;
  if (entry.xy[1] === "D") return false;
  if (entry.xy === "D ") return false;
  return true;
}
