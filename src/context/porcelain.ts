/**
 * Parsing `git status --porcelain=v1 -z` into entries and counting them. Pure: the
 * bytes come from the caller.
 *
 * @module
 */

/** One line of `git status --porcelain=v1 -z --no-renames`. */
export interface StatusEntry {
  /** The two status letters, `XY` (`??` for untracked). */
  xy: string;
  /** Path relative to the top level, as git prints it (no quoting under `-z`). */
  path: string;
  /** Blob id of the worktree content when git could hash it, else null. */
  oid: string | null;
}

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
