/**
 * What a seed cannot record and a worktree cannot carry, decided from output git already
 * printed (no probe per file or directory): unmerged index entries, left by a merge,
 * rebase or cherry-pick that stopped on conflicts, and nested git repositories. Pure
 * functions; each refusal is one line that names the paths (a few, then `and N more`).
 *
 * @module
 */

import { decodePaths } from "../paths.ts";
import { listPaths } from "../show.ts";

/** How many paths a refusal names before it says "and N more". */
export const REFUSAL_PATH_CAP = 5;

/** The `XY` codes `git status --porcelain` gives an unmerged path. */
const UNMERGED_CODES: ReadonlySet<string> = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

function records(bytes: Uint8Array): string[] {
  return decodePaths(bytes); // each record decoded exactly: a name keeps its bytes
}

/**
 * The unmerged paths of an index, from `git ls-files --stage -z` (entries at a stage
 * other than 0), each named once, in index order.
 *
 * @example A conflicted path has stages 1 to 3
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const oid = "a".repeat(40);
 * const entries = [`100644 ${oid} 0\tok.txt`, `100644 ${oid} 2\tc.txt`, `100644 ${oid} 3\tc.txt`];
 * assertEquals(unmergedPaths(new TextEncoder().encode(entries.join("\0") + "\0")), ["c.txt"]);
 * ```
 * @param stage What `git ls-files --stage -z` printed.
 * @returns The paths with an entry at stage 1, 2 or 3.
 */
export function unmergedPaths(stage: Uint8Array): string[] {
  const paths = new Set<string>();
  for (const entry of records(stage)) {
    const tab = entry.indexOf("\t");
    if (tab > 0 && entry[tab - 1] !== "0") paths.add(entry.slice(tab + 1));
  }
  return [...paths];
}

/**
 * The refusal for an index with unmerged paths.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(
 *   unmergedMessage(["a.txt"]),
 *   "The index has unmerged paths: a.txt; finish or abort the merge first",
 * );
 * ```
 * @param paths The unmerged paths.
 * @returns One line.
 */
export function unmergedMessage(paths: readonly string[]): string {
  return `The index has unmerged paths: ${
    listPaths(paths, REFUSAL_PATH_CAP)
  }; finish or abort the merge first`;
}

/**
 * The refusal for nested repositories in a tree a worktree should carry: a child cannot
 * hold one honestly (a gitlink checks out as an empty directory; copying a `.git`
 * directory is no checkout).
 *
 * @example One and two repositories
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(
 *   nestedMessage(["n/"]),
 *   "n/ is a nested git repository; a worktree cannot carry it (commit it as a submodule, ignore it, or move it out)",
 * );
 * assertEquals(nestedMessage(["a/", "b/"]).startsWith("a/, b/ are nested git repositories;"), true);
 * ```
 * @param paths The repositories' paths, each ending in `/`.
 * @returns One line.
 */
export function nestedMessage(paths: readonly string[]): string {
  const named = listPaths(paths, REFUSAL_PATH_CAP);
  return paths.length === 1
    ? `${named} is a nested git repository; a worktree cannot carry it (commit it as a submodule, ignore it, or move it out)`
    : `${named} are nested git repositories; a worktree cannot carry them (commit each as a submodule, ignore it, or move it out)`;
}

/**
 * Why a worktree cannot carry the tree whose status this is, if it cannot: unmerged paths
 * first, then nested repositories. Under `--untracked-files=all` git lists every untracked
 * file on its own, so an untracked entry ending in `/` is a directory git does not enter:
 * a nested repository (with or without a commit).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const z = (...e: string[]) => new TextEncoder().encode(e.join("\0") + "\0");
 * assertEquals(spawnRefusal(z(" M a.txt", "?? d/f.txt")), undefined);
 * assertEquals(spawnRefusal(z("?? n/"))?.startsWith("n/ is a nested git repository"), true);
 * assertEquals(spawnRefusal(z("?? n/", "UU a.txt"))?.startsWith("The index has unmerged"), true);
 * ```
 * @param status What `git status --porcelain -z --no-renames --untracked-files=all` printed.
 * @returns The one-line refusal, or undefined when the tree can be carried.
 */
export function spawnRefusal(status: Uint8Array): string | undefined {
  const entries = records(status);
  const unmerged = entries.filter((e) => UNMERGED_CODES.has(e.slice(0, 2))).map((e) => e.slice(3));
  if (unmerged.length > 0) return unmergedMessage(unmerged);
  const nested = entries.filter((e) => e.startsWith("?? ") && e.endsWith("/")).map((e) =>
    e.slice(3)
  );
  return nested.length > 0 ? nestedMessage(nested) : undefined;
}
