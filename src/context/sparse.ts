/**
 * Which index entries are marked skip-worktree, recorded at spawn as a digest. In a sparse
 * checkout every path outside the patterns is skip-worktree and absent from the worktree:
 * that is its normal state, and git judges such a path by its index entry. gate reads a
 * skip-worktree entry directly (a child can set the bit on a file it changed), so without
 * knowing which entries were skip-worktree at spawn it would take each absent one for a
 * deletion. One digest, whatever the number of entries.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { decodePaths, encodePath } from "../paths.ts";

/**
 * The skip-worktree paths among `git ls-files -v` records (tag `S`, or `s` when the entry
 * is assume-unchanged too).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(skipWorktreePaths([{ tag: "H", path: "a" }, { tag: "S", path: "b" }, { tag: "s", path: "c" }]), ["b", "c"]);
 * ```
 * @param entries Index entries with their `-v` tags.
 * @returns The paths, in index order.
 */
export function skipWorktreePaths(entries: Iterable<{ tag: string; path: string }>): string[] {
  const out: string[] = [];
  for (const e of entries) if (e.tag === "S" || e.tag === "s") out.push(e.path);
  return out;
}

/**
 * A digest of a set of paths: their number and the SHA-256 of their bytes, sorted, each
 * followed by a NUL.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals((await pathSetDigest([])).startsWith("0:"), true);
 * assertEquals(await pathSetDigest(["b", "a"]), await pathSetDigest(["a", "b"]));
 * ```
 * @param paths The paths.
 * @returns `<count>:<hex digest>`.
 */
export async function pathSetDigest(paths: readonly string[]): Promise<string> {
  const sorted = [...new Set(paths)].sort();
  const bytes = new Uint8Array(encodePath(sorted.map((p) => `${p}\0`).join("")));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `${sorted.length}:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The digest of the skip-worktree entries of the worktree at `top`: one `git ls-files -v`.
 *
 * @param top The worktree's top level.
 * @returns What {@linkcode pathSetDigest} returns for them.
 * @throws {GitError} when git fails.
 */
export async function readSkipWorktreeDigest(top: string): Promise<string> {
  const listing = await runGit(["ls-files", "-z", "-v"], { cwd: top, parse: true });
  const entries = decodePaths(listing.stdout).map((r) => ({ tag: r[0] ?? "", path: r.slice(2) }));
  return await pathSetDigest(skipWorktreePaths(entries));
}
