/**
 * Observed changes between a spawn snapshot and the live tree, and their split against
 * what the child claims: `confirmed`, `claimed_unobserved`, `observed_unclaimed`. Pure.
 *
 * @module
 */
import type { StatusEntry } from "../context/porcelain.ts";
import { normalizeRelative } from "../context/snapshot.ts";

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
 * Paths whose status entry differs between two readings: an entry that appeared or
 * disappeared, changed its `XY` letters, its porcelain v2 state (modes, HEAD and index
 * object ids: a re-staged file whose letters stay `MM`, a `chmod +x`), or its worktree
 * content (blob id).
 *
 * @example A file modified further, one that appeared, one unchanged
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const before = [{ xy: " M", path: "a", oid: "1" }, { xy: "??", path: "b", oid: "2" }];
 * const after = [{ xy: " M", path: "a", oid: "3" }, { xy: "??", path: "b", oid: "2" }, { xy: "??", path: "c", oid: "4" }];
 * assertEquals(changedEntries(before, after), ["a", "c"]);
 * ```
 * @param before Entries at spawn.
 * @param after Entries now.
 * @returns Changed paths, sorted.
 */
export function changedEntries(
  before: readonly StatusEntry[],
  after: readonly StatusEntry[],
): string[] {
  // Snapshots written before entries carried their porcelain v2 state compare without it.
  const withState = before.length === 0 || before.some((e) => e.state !== undefined);
  const key = (e: StatusEntry) => `${e.xy}\0${e.oid ?? ""}${withState ? `\0${e.state ?? ""}` : ""}`;
  const then = new Map<string, Set<string>>();
  for (const e of before) then.set(e.path, (then.get(e.path) ?? new Set()).add(key(e)));
  const now = new Map<string, Set<string>>();
  for (const e of after) now.set(e.path, (now.get(e.path) ?? new Set()).add(key(e)));
  const changed = new Set<string>();
  for (const path of new Set([...then.keys(), ...now.keys()])) {
    const a = [...(then.get(path) ?? [])].sort().join("\n");
    const b = [...(now.get(path) ?? [])].sort().join("\n");
    if (a !== b) changed.add(path);
  }
  return [...changed].sort();
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
