/**
 * Observed changes between a spawn snapshot and the live tree, and their split against
 * what the child claims: `confirmed`, `claimed_unobserved`, `observed_unclaimed`. Pure.
 *
 * @module
 */
import { contentKey, type PathContent } from "../context/content.ts";
import type { StatusEntry } from "../context/porcelain.ts";
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

/** A path without a trailing `/` (git prints a nested repository's directory with one). */
export function plainPath(path: string): string {
  return path.replace(/\/$/, "");
}

/**
 * Whether a path that had no status entry at spawn (so it held what the spawn HEAD held)
 * holds the same now. Raw ids are compared first; only when they differ may the filtered
 * id (what `git add` would store) prove it unchanged, never changed. Modes are not
 * compared: the spawn side's mode came from the repository's own settings, the live one
 * from `lstat`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const leaf = { mode: "100755", oid: "a" };
 * assertEquals(sameAsLeaf(leaf, { kind: "file", mode: "100644", raw: "a", filtered: "b" }), true);
 * assertEquals(sameAsLeaf(leaf, { kind: "file", mode: "100644", raw: "c", filtered: "a" }), true);
 * assertEquals(sameAsLeaf(leaf, { kind: "absent" }), false);
 * ```
 * @param leaf The spawn HEAD's leaf at the path.
 * @param now What the path holds now.
 * @returns True when nothing shows a change of content.
 */
export function sameAsLeaf(leaf: TreeLeaf, now: PathContent): boolean {
  // An uninitialised submodule is an empty directory: it cannot be told from a removed one.
  if (now.kind === "absent") return leaf.mode === "160000";
  if (now.kind === "special") return false;
  return now.raw === leaf.oid || now.filtered === leaf.oid; // guard: raw bytes first
}

/**
 * The paths whose content changed between spawn and now. A path that had a status entry
 * at spawn is compared with what the snapshot recorded (type and raw id, read directly);
 * a path without one held what the spawn HEAD held ({@linkcode sameAsLeaf}). What a path
 * holds now is always read directly, never inferred from the live status: a child can
 * hide a path from status without touching it. A path that neither the spawn nor the live
 * state knows (no entry, in no HEAD tree) is ignored by git: not observed.
 *
 * @param spawn Entries at spawn (from the snapshot), each with its `content`.
 * @param live Entries now (only their paths matter).
 * @param now What every path of interest holds now.
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @param claimed Further paths to judge (the child's claims).
 * @param unchecked Index entries status does not compare with the worktree (assume-unchanged,
 *   skip-worktree): judged as listed ones.
 * @returns Changed paths, sorted.
 */
export function observedChanges(
  spawn: readonly StatusEntry[],
  live: readonly StatusEntry[],
  now: ReadonlyMap<string, PathContent>,
  trees: TreePair,
  claimed: readonly string[] = [],
  unchecked: readonly string[] = [],
): string[] {
  const then = new Map<string, string>();
  for (const e of spawn) if (!then.has(plainPath(e.path))) then.set(plainPath(e.path), e.content!);
  // An index entry status does not compare with the worktree counts as listed: status's
  // silence says nothing of it.
  const listed = new Set([...live.map((e) => plainPath(e.path)), ...unchecked]);
  const changed: string[] = [];
  const paths = new Set([...then.keys(), ...listed, ...trees.differ, ...claimed]);
  for (const path of paths) {
    const current = now.get(path); // guard: read directly
    if (current === undefined) continue;
    const before = then.get(path);
    if (before !== undefined) {
      if (before !== contentKey(current)) changed.push(path);
      continue;
    }
    const leaf = trees.before.get(path);
    if (leaf) {
      if (!sameAsLeaf(leaf, current)) changed.push(path); // guard: content only
    } else if (current.kind !== "absent" && (listed.has(path) || trees.after.has(path))) {
      changed.push(path); // created since spawn; present but unlisted is ignored: not observed
    }
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
  return plainPath(normalizeRelative(path.replaceAll("\\", "/")) || path);
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

/** The paths an observation sorts: what files hold, everything observed, what cannot be told. */
export interface Observed {
  /** Paths whose files changed. */
  held: readonly string[];
  /** Every changed path: in files, in the index or in HEAD. */
  observed: readonly string[];
  /** Paths gate cannot tell changed or unchanged. */
  unknown: readonly string[];
}

/**
 * Classify what was observed against the claims. A claim is confirmed by what files hold;
 * what only the index or HEAD holds is listed when unclaimed and leaves a claim of it
 * unobserved, so a branch switched onto other work confirms nothing. What gate cannot tell
 * about is listed when unclaimed, never attributed or counted as work.
 *
 * @example Content only a commit has, and a path gate cannot tell about
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const observation = { held: ["a.ts"], observed: ["a.ts", "b.ts"], unknown: ["c.ts"] };
 * assertEquals(classifyObserved(observation, ["a.ts", "b.ts"]), {
 *   confirmed: ["a.ts"],
 *   claimed_unobserved: ["b.ts"],
 *   observed_unclaimed: ["c.ts"],
 * });
 * ```
 * @param observation What was observed.
 * @param claimed The claims, canonical.
 * @returns The change lists.
 */
export function classifyObserved(observation: Observed, claimed: readonly string[]): ChangeReport {
  const changes = classifyChanges(observation.held, claimed); // tether:guard gate-confirm-held
  const claims = new Set(claimed);
  const held = new Set(observation.held);
  changes.observed_unclaimed = [
    ...new Set([
      ...changes.observed_unclaimed,
      ...observation.observed.filter((p) => !held.has(p) && !claims.has(p)),
      ...observation.unknown.filter((p) => !claims.has(p)),
    ]),
  ].sort();
  return changes;
}
