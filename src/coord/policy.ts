/**
 * The canonical policy: the `STATUS` file at the tip of the policy ref, parsed into
 * lanes, base, blind set and releases. Parsing is pure; reading goes through git.
 *
 * @module
 */

import { PolicyError } from "./errors.ts";
import { clip, isLaneName } from "./ids.ts";
import { isFullOid, type ObjectFormat } from "../git_objects.ts";

/** The lane of the main worktree. */
export const PRIMARY = "Primary";
/** The policy ref when `coord.policyRef` is not configured. */
export const DEFAULT_POLICY_REF = "refs/heads/main";

/** What `STATUS` says, as far as coord is concerned. */
export interface Policy {
  /** Lane name → worktree path relative to the main worktree (`Primary` → `.`). */
  lanes: Map<string, string>;
  /** The public history every lane may see, or undefined when STATUS names none. */
  base: string | undefined;
  /** Lanes kept blind. */
  blind: Set<string>;
  /** Lane → the exact commits released for it. */
  released: Map<string, Set<string>>;
}

/**
 * Parse the coord lines of a STATUS text (`lane:`, `base:`, `blind:`, `released:`); other
 * lines are ignored, a malformed coord line is an error.
 *
 * @example Two blind lanes, one released
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const sha = "a".repeat(40);
 * const p = parsePolicy(`# status\nlane: W1 ../W1\nlane: W2 ../W2\nblind: W1 W2\nreleased: W1 ${sha}\n`, "sha1");
 * assertEquals([...p.lanes.keys()], ["Primary", "W1", "W2"]);
 * assertEquals(isSealed(p, "W2"), true);
 * assertEquals(isSealed(p, "W1"), false);
 * ```
 * @param text The STATUS file.
 * @param format The repository's object format (for SHA lengths).
 * @returns The policy.
 * @throws {PolicyError} naming the offending line.
 */
export function parsePolicy(text: string, format: ObjectFormat): Policy {
  const lanes = new Map<string, string>();
  const paths = new Map<string, string>();
  const blind = new Set<string>();
  const released = new Map<string, Set<string>>();
  const laneRefs: Array<[string, string]> = [];
  let base: string | undefined;
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const match = /^(lane|base|blind|released):(.*)$/.exec(line);
    if (!match) return;
    const [, key, rest = ""] = match;
    const bad = (why: string) =>
      new PolicyError(`Malformed STATUS line ${index + 1}: "${clip(line)}" (${why})`);
    const words = rest.trim().split(/\s+/).filter(Boolean);
    if (key === "lane") {
      const name = words[0];
      const path = rest.trim().slice(name?.length ?? 0).trim();
      if (!name || !isLaneName(name)) throw bad("expected a lane name");
      if (path === "" || path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) {
        throw bad("expected a worktree path relative to the main worktree");
      }
      const normal = normalizeRelative(path);
      if (lanes.has(name)) throw bad(`lane "${name}" is declared twice`);
      if ((name === PRIMARY) !== (normal === ".")) {
        throw bad(`the main worktree "." is lane "${PRIMARY}"`);
      }
      if (paths.has(normal)) {
        throw bad(`path "${path}" already belongs to lane "${paths.get(normal)}"`);
      }
      lanes.set(name, normal);
      paths.set(normal, name);
    } else if (key === "base") {
      const sha = words[0];
      if (words.length !== 1 || !sha || !isFullOid(sha, format)) {
        throw bad("expected one full commit id");
      }
      if (base !== undefined && base !== sha) throw bad("a second, different base");
      base = sha;
    } else if (key === "blind") {
      if (words.length === 0) throw bad("expected lane names");
      for (const name of words) {
        if (!isLaneName(name)) throw bad(`"${clip(name)}" is no lane name`);
        laneRefs.push([name, line]);
        blind.add(name);
      }
    } else {
      const [name, sha] = words;
      if (words.length !== 2 || !name || !sha || !isLaneName(name)) {
        throw bad("expected a lane name and a full commit id");
      }
      if (!isFullOid(sha, format)) throw bad("expected a full commit id");
      laneRefs.push([name, line]);
      const set = released.get(name) ?? new Set<string>();
      set.add(sha);
      released.set(name, set);
    }
  });
  if (!lanes.has(PRIMARY)) lanes.set(PRIMARY, ".");
  for (const [name, line] of laneRefs) {
    if (!lanes.has(name)) {
      throw new PolicyError(`STATUS names an undeclared lane "${name}" in "${clip(line)}"`);
    }
    if (name === PRIMARY && blind.has(name)) {
      throw new PolicyError(`STATUS cannot make "${PRIMARY}" blind`);
    }
  }
  const ordered = new Map<string, string>([[PRIMARY, lanes.get(PRIMARY) ?? "."]]);
  for (const [name, path] of lanes) if (name !== PRIMARY) ordered.set(name, path);
  return { lanes: ordered, base, blind, released };
}

/**
 * Normalise a relative path: `/` separators, no `.` segments, `..` kept only at the front.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(normalizeRelative("./wt/../W1/"), "W1");
 * assertEquals(normalizeRelative("../W1"), "../W1");
 * assertEquals(normalizeRelative("."), ".");
 * ```
 * @param path A relative path.
 * @returns The normal form, `.` for the directory itself.
 */
export function normalizeRelative(path: string): string {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.length === 0 ? "." : out.join("/");
}

/**
 * Whether a lane is blind.
 *
 * @param policy The policy.
 * @param lane The lane.
 * @returns True when STATUS lists it in `blind:`.
 */
export function isBlind(policy: Policy, lane: string): boolean {
  return policy.blind.has(lane);
}

/**
 * Whether a lane is sealed: blind with nothing released.
 *
 * @param policy The policy.
 * @param lane The lane.
 * @returns True when blind and no `released:` line names it.
 */
export function isSealed(policy: Policy, lane: string): boolean {
  return policy.blind.has(lane) && (policy.released.get(lane)?.size ?? 0) === 0;
}

/**
 * Describe a lane's state in the seed's words.
 *
 * @param policy The policy.
 * @param lane The lane.
 * @returns `primary`, `open`, `sealed` or `released (N)`.
 */
export function laneState(policy: Policy, lane: string): string {
  if (lane === PRIMARY) return "primary";
  if (!policy.blind.has(lane)) return "open";
  const n = policy.released.get(lane)?.size ?? 0;
  return n === 0 ? "sealed" : `released (${n})`;
}

/**
 * Check a configured policy ref: a full ref name under `refs/`, nothing git could read as
 * an option or a rev expression.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isPolicyRef("refs/heads/main"), true);
 * assertEquals(isPolicyRef("main~1"), false);
 * ```
 * @param value The configured text.
 * @returns True when acceptable.
 */
export function isPolicyRef(value: string): boolean {
  return /^refs\/[A-Za-z0-9._/-]+$/.test(value) && !/(\.\.|\/\/|\/\.|\.lock$|\/$|\.$)/.test(value);
}
