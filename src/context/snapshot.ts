/**
 * The working-context snapshot (seed 004): what the parent grounds a child in at spawn,
 * and what `gate` diffs against at completion. Types and pure helpers only.
 *
 * @module
 */
import type { StatusCounts, StatusEntry } from "./porcelain.ts";
import type { Remote } from "./remote.ts";

/** The snapshot format version stored in every blob. */
export const SNAPSHOT_VERSION = 1;

/** The git part of a snapshot, present only inside a git worktree. */
export interface GitSnapshot extends StatusCounts {
  /** The worktree's top level (`git rev-parse --show-toplevel`). */
  worktree: string;
  /** `git rev-parse --abbrev-ref HEAD` (`HEAD` when detached). */
  branch: string;
  /** Full HEAD object id, or null on an unborn branch. */
  head: string | null;
  /** `sha1` or `sha256`. */
  object_format: "sha1" | "sha256";
  /** Whether this is a linked worktree (`git worktree add`), not the main one. */
  linked_worktree: boolean;
  /** Remotes with credentials stripped. */
  remotes: Remote[];
  /** Every porcelain entry at capture, with worktree blob ids. */
  entries: StatusEntry[];
  /**
   * The index's skip-worktree entries at capture, as `<count>:<sha-256>` of their sorted
   * paths (src/context/sparse.ts); absent in snapshots of older tethers.
   */
  skip_worktree?: string | undefined;
  /** The full ref HEAD was attached to (`refs/heads/main`), null when detached; absent in older snapshots. */
  ref?: string | null | undefined;
  /**
   * The digest of the conversion settings no worktree file shows (src/context/conversions.ts);
   * absent in older snapshots.
   */
  conversions?: string | undefined;
}

/** The full snapshot, as stored in the git blob. */
export interface WorkingContextSnapshot {
  /** Always {@linkcode SNAPSHOT_VERSION}; tells a snapshot blob from any other blob. */
  tether_snapshot: number;
  /** UTC ISO-8601 time of capture. */
  captured_at: string;
  /** Who the rendered block was for. */
  audience: "private" | "public";
  /** The parent's working directory. */
  project_dir: string;
  /** Recent files the parent named, relative to the top level where they lie inside it. */
  recent_files: string[];
  /** The git part, or null outside a git worktree. */
  git: GitSnapshot | null;
}

/**
 * Normalise a POSIX-style relative path: drop `.` and empty segments, fold `..`.
 *
 * @example Fold dots
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(normalizeRelative("./a//b/../c"), "a/c");
 * assertEquals(normalizeRelative("../x"), "../x");
 * ```
 * @param path A relative path with `/` separators.
 * @returns The normalised path (`..` kept where it climbs above the start).
 */
export function normalizeRelative(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/**
 * Make a recent-file path canonical: relative to the top level when it lies inside it.
 *
 * @example A path named from a subdirectory
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(canonicalRecentPath("a.ts", "/r", "sub/"), "sub/a.ts");
 * assertEquals(canonicalRecentPath("/r/x/y.ts", "/r", ""), "x/y.ts");
 * assertEquals(canonicalRecentPath("../../out.ts", "/r", "sub/"), "../../out.ts");
 * ```
 * @param path The path as the parent named it.
 * @param top The top level, or null outside git.
 * @param prefix The caller's directory relative to the top level (`git rev-parse --show-prefix`).
 * @returns The canonical path, or the path unchanged when it lies outside the worktree.
 */
export function canonicalRecentPath(path: string, top: string | null, prefix: string): string {
  if (top === null) return path;
  if (path.startsWith("/")) {
    const base = top.endsWith("/") ? top : `${top}/`;
    return path.startsWith(base) ? normalizeRelative(path.slice(base.length)) || path : path;
  }
  if (/^[A-Za-z]:|^\\\\/.test(path)) return path;
  const joined = normalizeRelative(`${prefix}${path.replaceAll("\\", "/")}`);
  return joined === "" || joined.startsWith("..") ? path : joined;
}
