/**
 * Which lane made a commit: the lane whose worktree HEAD reflog records its creation
 * (commit, amend, merge, rebase, cherry-pick, revert, am), never a lane that merely
 * checked it out, reset to it or fast-forwarded onto it. All lanes' reflogs are read in
 * one git call, NUL-separated, so no commit subject can shift a field.
 *
 * @module
 */
import { runGit } from "../git.ts";
import type { At, LaneWorktree } from "./identity.ts";
import { CONTESTED, type Ownership } from "./visibility.ts";

/**
 * Reflog messages that move HEAD to a commit that already existed. Only the action part
 * (before the first `: `) and git's own fixed text are matched; a commit subject appears
 * only after `commit: `, `cherry-pick: ` and the like, which never match here.
 */
const MOVES: readonly RegExp[] = [
  /^$/, // a worktree's first entry, `update-ref` without a message
  /^(checkout|switch): moving from .* to .*$/s,
  /^reset: moving to .+$/s,
  /^(merge|pull)\b[^\n]*: Fast-forward( \(no commit created; -m option ignored\))?$/,
  /^(rebase|pull\b[^\n]*?)( -i)? \((start|finish|abort)\): (checkout|returning to) .+$/s,
  /^(rebase|pull\b[^\n]*?)( -i)? \(reset\): .+$/s,
  /^clone: from .+$/s,
  /^branch: (Created from|Reset to) .+$/s,
];

/**
 * `cherry-pick --ff` (and a fast-forwarded revert or rebase step) writes
 * `cherry-pick: fast-forward`, exactly what a cherry-pick that creates a commit whose
 * subject is `fast-forward` writes. Such an entry never makes a commit a lane's: any lane
 * can write one for any existing commit, so it would let a lane claim a commit no reflog
 * records (a popped stash, a removed worktree's work). The rare real cherry-pick of a
 * commit titled `fast-forward` is then Primary's only: fail closed.
 */
const EITHER = /^(cherry-pick|revert|rebase)( \([a-z -]+\))?: fast-forward$/;

/** What a reflog entry says happened to the commit it points at. */
export type ReflogEvent = "creation" | "move" | "either";

/**
 * Classify a reflog message (`%gs`). Anything that is not recognisably a move of HEAD
 * (checkout, switch, reset, a fast-forward merge or pull, the start, finish, abort and
 * reset steps of a rebase, a clone) counts as creation: a message git writes in another
 * language, or one nobody foresaw, can at worst make a commit contested, never hand it
 * to Primary's side.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(reflogEvent("commit: merge w1: Fast-forward"), "creation");
 * assertEquals(reflogEvent("merge w1: Fast-forward"), "move");
 * assertEquals(reflogEvent("cherry-pick: fast-forward"), "either");
 * ```
 * @param subject The reflog message.
 * @returns `creation`, `move`, or `either` (a fast-forward that a commit subject could imitate).
 */
export function reflogEvent(subject: string): ReflogEvent {
  if (MOVES.some((pattern) => pattern.test(subject))) return "move";
  return EITHER.test(subject) ? "either" : "creation";
}

/**
 * Whether a reflog message (`%gs`) plainly records the creation of the commit it points
 * at (see {@linkcode reflogEvent}).
 *
 * @example Checkout, reset and fast-forward create nothing; a subject cannot pretend
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isCreation("commit (amend): fix"), true);
 * assertEquals(isCreation("commit: merge w1: Fast-forward"), true);
 * assertEquals(isCreation("commit: checkout: moving from a to b"), true);
 * assertEquals(isCreation("merge w1: Merge made by the 'ort' strategy."), true);
 * assertEquals(isCreation("rebase (pick): step"), true);
 * assertEquals(isCreation("cherry-pick: step"), true);
 * assertEquals(isCreation("checkout: moving from w2 to w1"), false);
 * assertEquals(isCreation("merge w1: Fast-forward"), false);
 * assertEquals(isCreation("pull: Fast-forward"), false);
 * assertEquals(isCreation("cherry-pick: fast-forward"), false);
 * assertEquals(isCreation("rebase (start): checkout main"), false);
 * assertEquals(isCreation("reset: moving to HEAD~1"), false);
 * ```
 * @param subject The reflog message.
 * @returns True for a plain creation event (or one that is not known bookkeeping).
 */
export function isCreation(subject: string): boolean {
  return reflogEvent(subject) === "creation";
}

/**
 * Build the ownership map from `git log -g -z --format=%H%x00%gD%x00%gs` output over
 * several reflogs (three NUL-terminated fields an entry). A commit belongs to the one
 * lane whose reflog records its creation; when two or more lanes' reflogs record it, it
 * is contested, whatever the times say (a reflog entry can be forged and backdated), and
 * only Primary may inspect it. An `either` entry (a fast-forward) owns nothing. Output that does not have that exact shape makes the
 * ownership incomplete, so that nothing after `base` is shown to a lane.
 *
 * @example W2 checking out W1's commit does not take it; a forged creation entry contests it
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { CONTESTED } from "./visibility.ts";
 * const [a, b] = ["a".repeat(40), "b".repeat(40)];
 * const entry = (sha: string, reflog: string, msg: string) => `${sha}\0${reflog}@{0}\0${msg}\0`;
 * const text = entry(a, "worktrees/w2/HEAD", "checkout: moving from w2 to w1") +
 *   entry(a, "worktrees/w1/HEAD", "commit: support HEAD@{1} syntax") +
 *   entry(b, "worktrees/w1/HEAD", "commit: proof") +
 *   entry(b, "worktrees/w2/HEAD", "commit: mine: moving from w2 to b") +
 *   entry(b, "worktrees/w3/HEAD", "cherry-pick: fast-forward");
 * const lanes = new Map([["worktrees/w1/HEAD", "W1"], ["worktrees/w2/HEAD", "W2"]]);
 * const { owners, complete } = parseOwnership(text, lanes);
 * assertEquals(complete, true);
 * assertEquals(owners.get(a), "W1");
 * assertEquals(owners.get(b), CONTESTED);
 * assertEquals(parseOwnership(`${a} worktrees/w1/HEAD@{0} commit: x\n`, lanes).complete, false);
 * ```
 * @param text git's output.
 * @param reflogToLane Reflog name → lane.
 * @returns Commit → lane (or {@linkcode CONTESTED}), and whether the text parsed cleanly.
 */
export function parseOwnership(
  text: string,
  reflogToLane: ReadonlyMap<string, string>,
): Ownership {
  const makers = new Map<string, Set<string>>();
  let complete = true;
  const body = text.endsWith("\0") ? text.slice(0, -1) : text;
  const fields = body === "" ? [] : body.split("\0");
  if (fields.length % 3 !== 0) complete = false;
  for (let i = 0; complete && i + 2 < fields.length; i += 3) {
    const [commit = "", selector = "", subject = ""] = fields.slice(i, i + 3);
    const at = selector.lastIndexOf("@{");
    if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(commit) || at <= 0 || !selector.endsWith("}")) {
      complete = false;
      break;
    }
    // The reflog is the one whose name the selector starts with (whatever follows `@{`).
    let lane: string | undefined;
    for (const [name, owner] of reflogToLane) {
      if (selector.startsWith(`${name}@{`)) lane = owner;
    }
    // Only a plain creation owns: a move, or a fast-forward any lane can write, never does.
    if (lane === undefined || reflogEvent(subject) !== "creation") continue;
    const set = makers.get(commit) ?? new Set<string>();
    set.add(lane);
    makers.set(commit, set);
  }
  if (!complete) return { owners: new Map(), complete };
  const owners = new Map<string, string>();
  for (const [commit, lanes] of makers) {
    owners.set(commit, lanes.size === 1 ? [...lanes][0]! : CONTESTED);
  }
  return { owners, complete };
}

/**
 * The options of every reflog read: NUL-separated fields, UTF-8 output whatever the
 * configuration or the environment says, no signature lines.
 */
export const REFLOG_ARGS: readonly string[] = [
  "-c",
  "i18n.logOutputEncoding=UTF-8",
  "-c",
  "log.showSignature=false",
  "log",
  "-g",
  "-z",
  "--encoding=UTF-8",
  "--no-abbrev",
  "--format=%H%x00%gD%x00%gs",
];

/**
 * Read every lane's HEAD reflog and decide who made which commit; the reflogs of worktrees
 * that are no lane's count as {@linkcode CONTESTED}. A reflog that exists but cannot be
 * read makes the ownership incomplete (fail closed). Commits no reflog records (a popped
 * stash, a removed worktree's work) have no owner here and are Primary's only.
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param worktrees The lanes' worktrees and reflog names.
 * @param unowned HEAD reflogs of worktrees that are no lane's.
 * @returns Commit → lane, and whether every reflog was read.
 * @throws {GitError} when git cannot be started.
 */
export async function readOwnership(
  at: At,
  worktrees: readonly LaneWorktree[],
  unowned: readonly string[] = [],
): Promise<Ownership> {
  const reflogToLane = new Map<string, string>([
    ...unowned.map((name) => [name, CONTESTED] as [string, string]),
    ...worktrees.map((w) => [w.reflog, w.lane] as [string, string]),
  ]);
  const decoder = new TextDecoder();
  const all = await runGit([...REFLOG_ARGS, "--end-of-options", ...reflogToLane.keys()], {
    ...at,
    parse: true,
    allowFailure: true,
  });
  if (all.code === 0) return parseOwnership(decoder.decode(all.stdout), reflogToLane);
  // A worktree with no reflog yet makes the combined call fail; read the others one by one.
  const texts = await Promise.all([...reflogToLane.keys()].map(async (name) => {
    const one = await runGit([...REFLOG_ARGS, "--end-of-options", name], {
      ...at,
      parse: true,
      allowFailure: true,
    });
    if (one.code === 0) return decoder.decode(one.stdout);
    const exists = await runGit(["reflog", "exists", name], {
      ...at,
      parse: true,
      allowFailure: true,
    });
    return exists.code === 1 ? "" : undefined;
  }));
  if (texts.some((t) => t === undefined)) return { owners: new Map(), complete: false };
  return parseOwnership(texts.join(""), reflogToLane);
}
