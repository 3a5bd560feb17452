/**
 * Observed changes between a spawn snapshot and the live tree, and their split against
 * what the child claims: `confirmed`, `claimed_unobserved`, `observed_unclaimed`. Pure.
 *
 * @module
 */
import { type StatusEntry, worktreeMode } from "../context/porcelain.ts";
import { normalizeRelative } from "../context/snapshot.ts";
import type { TreeLeaf, TreePair } from "./trees.ts";

/** The change lists of a verdict. */
export interface ChangeReport {
  /** Claimed by the child and observed. */
  confirmed: string[];
  /** Claimed by the child, not observed. */
  claimed_unobserved: string[];
  /** Observed, not claimed: someone changed them, the child is not said to have. */
  observed_unclaimed: string[];
}

/**
 * What a status entry says its path holds in the worktree: mode and content id (blob of
 * the bytes or link text, the checked-out commit of a submodule), `absent` when the file
 * is gone. Untracked entries carry the `lstat` mode in `state`.
 *
 * @example A modified file, a deleted one, an untracked one
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const z = "0".repeat(40);
 * assertEquals(entryContent({ xy: " M", path: "a", oid: "1", state: `N... 100644 100644 100755 ${z} ${z}` }), "100755:1");
 * assertEquals(entryContent({ xy: " D", path: "b", oid: null, state: `N... 100644 100644 000000 ${z} ${z}` }), "absent");
 * assertEquals(entryContent({ xy: "??", path: "c", oid: "2", state: "100644" }), "100644:2");
 * ```
 * @param entry A status entry read with its content ids.
 * @returns A comparable description of the content.
 */
export function entryContent(entry: StatusEntry): string {
  if (entry.xy === "??" || entry.xy === "!!") {
    const mode = entry.state || "none";
    // Something that is no file (a nested repository's directory) still is something.
    if (mode === "none") return entry.path.endsWith("/") ? "directory" : "unreadable";
    return `${mode}:${entry.oid ?? ""}`;
  }
  const mode = worktreeMode(entry);
  return mode === "000000" ? "absent" : `${mode ?? "?"}:${entry.oid ?? ""}`; // guard: content only
}

/**
 * What a tree holds at a path, in {@linkcode entryContent}'s terms.
 *
 * @param leaf The tree's leaf, or undefined when the tree has no file there.
 * @returns A comparable description of the content.
 */
export function leafContent(leaf: TreeLeaf | undefined): string {
  return leaf ? `${leaf.mode}:${leaf.oid}` : "absent";
}

/**
 * The paths whose content changed between spawn and now. A path's content at a moment is
 * what its status entry says (the worktree's bytes, mode, link text or submodule commit)
 * or, when it had no entry, what HEAD held (git found worktree, index and HEAD equal).
 * Moving HEAD, the branch or the index changes no file, so it is no change.
 *
 * @example A commit that moved a file's change from the worktree into HEAD is no change
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const z = "0".repeat(40);
 * const spawn = [{ xy: " M", path: "a", oid: "2", state: `N... 100644 100644 100644 ${z} ${z}` }];
 * const trees = {
 *   differ: ["a", "b"],
 *   before: new Map([["a", { mode: "100644", oid: "1" }], ["b", { mode: "100644", oid: "3" }]]),
 *   after: new Map([["a", { mode: "100644", oid: "2" }], ["b", { mode: "100644", oid: "4" }]]),
 * };
 * assertEquals(observedChanges(spawn, [], trees), ["b"]);
 * ```
 * @param spawn Entries at spawn (from the snapshot).
 * @param live Entries now.
 * @param trees The spawn HEAD's and the live HEAD's trees compared, with both trees'
 *   leaves at every path of `spawn` and `live`.
 * @returns Changed paths, sorted.
 */
export function observedChanges(
  spawn: readonly StatusEntry[],
  live: readonly StatusEntry[],
  trees: TreePair,
): string[] {
  const content = (entries: readonly StatusEntry[]) => {
    const map = new Map<string, string[]>();
    for (const e of entries) map.set(e.path, [...(map.get(e.path) ?? []), entryContent(e)]);
    return new Map([...map].map(([p, xs]) => [p, [...new Set(xs)].sort().join("\n")]));
  };
  const then = content(spawn);
  const now = content(live);
  const changed: string[] = [];
  for (const path of new Set([...then.keys(), ...now.keys(), ...trees.differ])) {
    const before = then.get(path) ?? leafContent(trees.before.get(path));
    const after = now.get(path) ?? leafContent(trees.after.get(path));
    if (before !== after) changed.push(path);
  }
  return changed.sort();
}

/**
 * A claimed path in the form git prints: `/` separators, no `./`, dots folded.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(canonicalClaim(".\\src//a.ts"), "src/a.ts");
 * ```
 * @param path The path as the child wrote it.
 * @returns The canonical path (unchanged when it does not normalise to anything).
 */
export function canonicalClaim(path: string): string {
  return normalizeRelative(path.replaceAll("\\", "/")) || path;
}

/**
 * Split observed and claimed paths. Nothing observed is attributed to the child unless
 * the child claimed it.
 *
 * @example A sibling's file stays unclaimed
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(classifyChanges(["mine.ts", "sibling.txt"], ["mine.ts", "ghost.ts"]), {
 *   confirmed: ["mine.ts"],
 *   claimed_unobserved: ["ghost.ts"],
 *   observed_unclaimed: ["sibling.txt"],
 * });
 * ```
 * @param observed Paths that changed during the run.
 * @param claimed Paths the child says it changed.
 * @returns The three sorted, de-duplicated lists.
 */
export function classifyChanges(
  observed: readonly string[],
  claimed: readonly string[],
): ChangeReport {
  const seen = new Set(observed);
  const claims = new Set(claimed.map(canonicalClaim));
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  return {
    confirmed: sorted([...claims].filter((p) => seen.has(p))),
    claimed_unobserved: sorted([...claims].filter((p) => !seen.has(p))),
    observed_unclaimed: sorted([...seen].filter((p) => !claims.has(p))),
  };
}
