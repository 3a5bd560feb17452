/**
 * The visibility decisions of `coord`, as pure functions of today's policy and the
 * commit facts read from git: which lanes may talk, which commits a lane may inspect,
 * which messages a lane may read.
 *
 * @module
 */
import { isBlind, isSealed, type Policy, PRIMARY } from "./policy.ts";
import type { Message } from "./message.ts";

/** Owner value for a commit whose creation two or more lanes' reflogs record. */
export const CONTESTED = "\u0000contested";

/** Who made which commit, as the lanes' HEAD reflogs tell. */
export interface Ownership {
  /** Commit → the lane whose reflog records its creation ({@linkcode CONTESTED} when several do). */
  owners: ReadonlyMap<string, string>;
  /**
   * Commit → the commits it was made from besides its parents: for an amend (`commit
   * (amend)`, `rebase (squash|fixup)`), the commit it replaced, whose tree it starts from.
   */
  sources?: ReadonlyMap<string, readonly string[]>;
  /** False when a reflog could not be read reliably: no lane but Primary then inspects anything after `base`. */
  complete: boolean;
}

/** What git says about the commits a decision needs. */
export interface History {
  /** Commits asked about that exist (and are commits). */
  commits: ReadonlySet<string>;
  /** Every commit reachable from those and not from `base`, with its parents. */
  parents: ReadonlyMap<string, readonly string[]>;
  /** Commit → the lane whose HEAD reflog records its creation (absent: Primary's side). */
  owners: ReadonlyMap<string, string>;
  /**
   * Commit → the commits it was made from besides its parents (see
   * {@linkcode Ownership.sources}); every source that exists is in `commits`, with its
   * history in `parents`.
   */
  sources?: ReadonlyMap<string, readonly string[]>;
  /** Whether the policy's base was given (parents then stop at base). */
  hasBase: boolean;
  /**
   * False when git could not give the whole history or every reflog reliably (a shallow
   * repository, a reflog it cannot read): no lane but Primary may then inspect anything.
   */
  complete: boolean;
}

/**
 * Whether two lanes may exchange messages under a policy: Primary talks with anyone; two
 * blind lanes never talk; a sealed lane talks only with Primary; a released blind lane
 * also talks with non-blind lanes; non-blind lanes talk freely.
 *
 * @example Blind lanes are kept apart until release, and then only from non-blind lanes
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { parsePolicy } from "./policy.ts";
 * const sha = "b".repeat(40);
 * const sealed = parsePolicy("lane: W1 w1\nlane: W2 w2\nlane: W3 w3\nblind: W1 W2\n", "sha1");
 * assertEquals(channelAllowed(sealed, "W1", "Primary"), true);
 * assertEquals(channelAllowed(sealed, "W1", "W2"), false);
 * assertEquals(channelAllowed(sealed, "W3", "W1"), false);
 * const released = parsePolicy(`lane: W1 w1\nlane: W2 w2\nlane: W3 w3\nblind: W1 W2\nreleased: W1 ${sha}\n`, "sha1");
 * assertEquals(channelAllowed(released, "W3", "W1"), true);
 * assertEquals(channelAllowed(released, "W1", "W2"), false);
 * ```
 * @param policy Today's policy.
 * @param a One lane.
 * @param b The other lane.
 * @returns True when the channel is open.
 */
export function channelAllowed(policy: Policy, a: string, b: string): boolean {
  if (!policy.lanes.has(a) || !policy.lanes.has(b)) return false;
  if (a === b || a === PRIMARY || b === PRIMARY) return true;
  return blindnessAllows(policy, a, b); // GUARD:blindness (the mutation test replaces this line)
}

function blindnessAllows(policy: Policy, a: string, b: string): boolean {
  const blindA = isBlind(policy, a);
  const blindB = isBlind(policy, b);
  if (blindA && blindB) return false;
  if (blindA) return !isSealed(policy, a);
  if (blindB) return !isSealed(policy, b);
  return true;
}

/**
 * Whether a lane may inspect a commit: ancestors of `base`; commits it made, with
 * history that holds nothing it may not inspect; exact commits released by others when
 * it is not blind (covering their ancestors inside such history, and only there); and
 * Primary's commits whose history since `base` holds nothing it may not inspect.
 * History here is a commit's parents and its sources (the commit an amend replaced): a
 * lane that amends a commit it may not inspect makes a commit it may not inspect either.
 * Primary may inspect everything that exists.
 *
 * @example A released commit is visible to a non-blind lane, its parent is not
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { parsePolicy } from "./policy.ts";
 * const [base, draft, frozen] = ["0".repeat(40), "1".repeat(40), "2".repeat(40)];
 * const policy = parsePolicy(`lane: W1 w1\nlane: W3 w3\nbase: ${base}\nblind: W1\nreleased: W1 ${frozen}\n`, "sha1");
 * const history = {
 *   commits: new Set([draft, frozen]),
 *   parents: new Map([[draft, [base]], [frozen, [draft]]]),
 *   owners: new Map([[draft, "W1"], [frozen, "W1"]]),
 *   hasBase: true,
 *   complete: true,
 * };
 * assertEquals(canInspect(policy, "W3", frozen, history), true);
 * assertEquals(canInspect(policy, "W3", draft, history), false);
 * assertEquals(canInspect(policy, "W1", draft, history), true);
 * assertEquals(canInspect(policy, "Primary", draft, history), true);
 * ```
 * @param policy Today's policy.
 * @param lane The lane that wants to inspect.
 * @param commit A full commit id.
 * @param history What git says about it.
 * @param memo Decisions already made for this lane, policy and history (shared across calls).
 * @returns True when the lane may inspect it.
 */
export function canInspect(
  policy: Policy,
  lane: string,
  commit: string,
  history: History,
  memo: Map<string, boolean> = new Map(),
): boolean {
  if (!policy.lanes.has(lane)) return false;
  if (!history.commits.has(commit)) return false;
  if (lane === PRIMARY) return true;
  if (!history.complete) return false; // fail closed: history or ownership unknown
  const blind = isBlind(policy, lane);
  const released = new Set<string>();
  if (!blind) {
    for (const set of policy.released.values()) {
      for (const sha of set) released.add(sha);
    }
  }
  const decided = memo;
  const immediate = (c: string): boolean | undefined => {
    const parents = history.parents.get(c);
    if (parents === undefined) return history.hasBase; // reachable from base
    if (released.has(c)) return true;
    // A commit after base that no reflog records as made (a popped or dropped stash, a
    // removed lane worktree's work, notes, fetched commits) may hold any lane's work:
    // Primary only, until STATUS publishes it (base or a release). Fail closed.
    const owner = history.owners.get(c) ?? CONTESTED;
    if (owner !== lane && owner !== PRIMARY) return false; // GUARD:artifact (the mutation test removes this line)
    // A source that is gone cannot be shown to be one the lane may inspect.
    if (sourcesOf(c).some((s) => !history.commits.has(s))) return false;
    return undefined;
  };
  const sourcesOf = (c: string): readonly string[] => history.sources?.get(c) ?? [];
  const madeFrom = (c: string): readonly string[] => [
    ...(history.parents.get(c) ?? []),
    ...sourcesOf(c), // GUARD:amend-source
  ];
  const stack = [commit];
  // Commits being decided (the path of the walk): sources can, unlike parents, loop.
  const open = new Set<string>();
  const decide = (c: string, value: boolean) => {
    decided.set(c, value);
    open.delete(c);
    stack.pop();
  };
  while (stack.length > 0) {
    const c = stack[stack.length - 1]!;
    if (decided.has(c)) {
      stack.pop();
      continue;
    }
    const now = immediate(c);
    if (now !== undefined) {
      decide(c, now);
      continue;
    }
    open.add(c);
    const parents = madeFrom(c);
    const pending = parents.filter((p) => !decided.has(p));
    if (pending.length > 0) {
      // Stop early when a decided parent is already refused, or on a loop (fail closed).
      if (parents.some((p) => decided.get(p) === false) || pending.some((p) => open.has(p))) {
        decide(c, false);
        continue;
      }
      stack.push(...pending);
      continue;
    }
    decide(c, parents.every((p) => decided.get(p) === true));
  }
  return decided.get(commit) === true;
}

/**
 * Whether a lane may still see a handoff whose commit is gone from the repository: its
 * maker (by reflog, when every reflog was read), Primary, or a non-blind lane when the
 * commit was released.
 *
 * @param policy Today's policy.
 * @param lane The reader.
 * @param commit The missing commit.
 * @param ownership Commit → lane, from the reflogs.
 * @returns True when the reader may be told about it.
 */
export function canInspectMissing(
  policy: Policy,
  lane: string,
  commit: string,
  ownership: Ownership,
): boolean {
  if (lane === PRIMARY) return true;
  if (ownership.complete && ownership.owners.get(commit) === lane) return true;
  if (isBlind(policy, lane)) return false;
  for (const set of policy.released.values()) if (set.has(commit)) return true;
  return false;
}

/**
 * Whether a reader may see a message today: the reader is its sender or a recipient (to
 * or cc), the channel from its sender is open under today's policy, every artifact it
 * carries is visible to the reader, and a forward's original is readable by the reader.
 *
 * @example A blind lane's message to Primary stays private after release
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { parsePolicy } from "./policy.ts";
 * const policy = parsePolicy(`lane: W1 w1\nlane: W3 w3\nblind: W1\nreleased: W1 ${"c".repeat(40)}\n`, "sha1");
 * const message = { sender: "W1", to: ["Primary"], cc: [], artifact: null, forward_of: null };
 * const yes = () => true;
 * assertEquals(messageVisible(policy, "Primary", message, yes, yes), true);
 * assertEquals(messageVisible(policy, "W3", message, yes, yes), false);
 * ```
 * @param policy Today's policy.
 * @param reader The reading lane.
 * @param message The message (sender, to, cc, artifact, forward_of).
 * @param artifactVisible Whether the reader may inspect a commit.
 * @param originalVisible Whether the reader may read a forwarded original.
 * @returns True when the reader may see it.
 */
export function messageVisible(
  policy: Policy,
  reader: string,
  message: Pick<Message, "sender" | "to" | "cc" | "artifact" | "forward_of">,
  artifactVisible: (commit: string) => boolean,
  originalVisible: (id: string) => boolean,
): boolean {
  const isSender = message.sender === reader;
  if (!isSender && !message.to.includes(reader) && !message.cc.includes(reader)) return false;
  if (!policy.lanes.has(message.sender)) return false;
  if (!isSender && !channelAllowed(policy, message.sender, reader)) return false;
  if (message.artifact && !artifactVisible(message.artifact.commit)) return false;
  if (message.forward_of !== null && !originalVisible(message.forward_of)) return false;
  return true;
}
