/**
 * Which lane made a commit: the lane whose worktree HEAD reflog plainly records its
 * creation. An entry owns the commit it points at only when its message is one of git's
 * own creation messages, matched from the start on git's exact action words (commit,
 * amend, merge, cherry-pick, revert, am, the picks of a rebase; never a `pull`, whose
 * messages carry its arguments), AND it is consistent with the commit: the entry's old
 * value (the entry before it in the same reflog) is the new commit's first parent, or for
 * an amend has the same parents, or for an initial commit the commit has none; AND it was
 * written at the commit's committer time; AND it is the reflog's first visit of the
 * commit. Every other entry, a move git wrote (checkout, switch, reset, a fast-forward,
 * `rebase: checkout <branch>`), a re-creation of an existing commit, or one nobody
 * foresaw, owns nothing. An amend names the commit it replaced as the new commit's source:
 * the old value git wrote in the entry itself (the reflog file), which must be the commit of
 * the entry before it, or the amend owns nothing.
 * All lanes' reflogs are read in one git call, NUL-separated, so no commit subject can
 * shift a field.
 *
 * @module
 */
import { dirname, join } from "../_path.ts";
import { runGit } from "../git.ts";
import type { At, LaneWorktree } from "./identity.ts";
import { readRegularFile } from "./regular_file.ts";
import { CONTESTED, type Ownership } from "./visibility.ts";

/** The largest reflog file read for the old values of its entries (a larger one: amends own nothing). */
const MAX_REFLOG_BYTES = 64 * 1024 * 1024;

/**
 * How a creation entry must agree with the commit it points at: `first-parent` (the old
 * value is the commit's first parent), `amend` (the old value's parents are the commit's
 * parents), `initial` (the commit has no parents; HEAD was unborn).
 */
export type CreationRule = "first-parent" | "amend" | "initial";

/**
 * git's own creation messages, each anchored at the start and matched on git's exact
 * action words (and for a merge, git's fixed English wording at the very end); what
 * follows the action is the commit's subject, which never changes the rule. Messages
 * that carry caller-supplied text before or inside the action own nothing: `pull
 * <its arguments>: …` and `pull <its arguments> (pick): …` (an argument such as
 * `-X "theirs (pick): x"` could make a fast-forward read as a pick). A message git
 * writes in another language, and any message not listed, owns nothing (fail closed).
 * A merge's `merge <names>: ` carries what the caller typed too, but git ends the
 * message with `Merge made by …` only for a merge it made: every other merge message
 * ends in `Fast-forward`, so the end-anchored wording cannot be supplied.
 */
const CREATIONS: ReadonlyArray<readonly [RegExp, CreationRule]> = [
  [/^commit: /s, "first-parent"],
  [/^commit \((merge|cherry-pick)\): /s, "first-parent"],
  [/^commit \(amend\): /s, "amend"],
  [/^commit \(initial\): /s, "initial"],
  [/^merge [^\n]*: Merge made by (the '[a-z-]+' strategy|[a-z-]+)\.$/, "first-parent"], // GUARD:no-pull-merge
  [/^(cherry-pick|revert|am): /s, "first-parent"],
  [/^rebase( -i)? \((pick|reword|edit|continue|merge)\): /s, "first-parent"], // GUARD:exact-action
  [/^rebase( -i)? \((squash|fixup)\): /s, "amend"],
];

/**
 * `cherry-pick --ff` (and a fast-forwarded rebase or revert step) writes
 * `cherry-pick: fast-forward`, exactly what a cherry-pick that creates a commit whose
 * subject is `fast-forward` writes, and a fast-forward is consistent with the commit
 * (its old value is the commit's parent). Such an entry never owns: any lane can write
 * one for any existing commit. The rare real pick of a commit titled `fast-forward` is
 * then Primary's only (fail closed).
 */
const FAST_FORWARD = /^(cherry-pick|revert|am|rebase)( -i)?( \([a-z -]+\))?: fast-forward$/;

/**
 * How far apart, in seconds, a creation entry's own time and its commit's committer time
 * may be. git writes both from one clock reading (the committer time of the commit it
 * just made is the time of the reflog entry recording it, also when a hook or an editor
 * takes minutes, and `GIT_COMMITTER_DATE` sets both), so they are equal; the slack only
 * allows for a git that reads the clock twice across a second boundary. An entry whose
 * commit was committed at another time records a move to a commit that already existed
 * (a re-creation by `rebase --committer-date-is-author-date`, `commit-tree` and a ref
 * update with a creation message): no creation (fail closed).
 */
export const CREATION_CLOCK_SLACK_SECONDS = 2;

/**
 * The rule under which a reflog message (`%gs`) records a creation, or undefined when it
 * records none.
 *
 * @example Creation messages, and moves that own nothing
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(creationRule("commit: checkout: moving from a to b"), "first-parent");
 * assertEquals(creationRule("commit (amend): fix"), "amend");
 * assertEquals(creationRule("merge w1: Merge made by the 'ort' strategy."), "first-parent");
 * assertEquals(creationRule("rebase (pick): step"), "first-parent");
 * assertEquals(creationRule("rebase: checkout w1"), undefined);
 * assertEquals(creationRule("merge w1: Fast-forward"), undefined);
 * assertEquals(creationRule("cherry-pick: fast-forward"), undefined);
 * assertEquals(creationRule("some tool: something nobody foresaw"), undefined);
 * ```
 * @param subject The reflog message.
 * @returns The rule, or undefined.
 */
export function creationRule(subject: string): CreationRule | undefined {
  if (FAST_FORWARD.test(subject)) return undefined;
  for (const [pattern, rule] of CREATIONS) if (pattern.test(subject)) return rule;
  return undefined; // GUARD:only-creation-messages
}

/**
 * Whether a reflog message is one of git's own creation messages (see
 * {@linkcode creationRule}; the entry must also agree with its commit to own it).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isCreation("commit (initial): start"), true);
 * assertEquals(isCreation("checkout: moving from w2 to w1"), false);
 * ```
 * @param subject The reflog message.
 * @returns True for a creation message.
 */
export function isCreation(subject: string): boolean {
  return creationRule(subject) !== undefined;
}

/** One reflog entry as `git log -g` lists it. */
export interface ReflogEntry {
  /** The commit the entry moved HEAD to. */
  commit: string;
  /** That commit's parents. */
  parents: readonly string[];
  /** That commit's committer time, in seconds since the epoch. */
  committed: number;
  /** The entry's own time, in seconds since the epoch. */
  time: number;
  /** The message. */
  subject: string;
}

/**
 * Whether a creation entry agrees with its commit: the entry was written at the commit's
 * committer time (within {@linkcode CREATION_CLOCK_SLACK_SECONDS}), and the entry's old
 * value is the commit of the entry just before it in the same reflog (`before`; undefined
 * when that entry is not listed, because it was expired, deleted or points at a missing
 * commit): then no `first-parent` or `amend` entry owns (fail closed).
 *
 * @example A no-op rebase's `rebase: checkout` is no creation; a real commit is
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const [p, c, x] = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
 * const at = { committed: 1_700_000_000, time: 1_700_000_000 };
 * const entry = (subject: string, parents: string[]) => ({ commit: c, parents, subject, ...at });
 * const before = { commit: p, parents: [], subject: "commit (initial): p", ...at };
 * assertEquals(ownsCommit(entry("commit: c", [p]), before), true);
 * assertEquals(ownsCommit(entry("commit: c", [x]), before), false);
 * assertEquals(ownsCommit(entry("rebase: checkout w1", [p]), before), false);
 * assertEquals(ownsCommit(entry("commit (amend): c", [x]), { ...before, parents: [x] }), true);
 * assertEquals(ownsCommit(entry("commit: c", [p]), undefined), false);
 * // Re-created from an old commit: committed an hour before the entry was written.
 * assertEquals(ownsCommit({ ...entry("rebase (pick): c", [p]), time: at.time + 3600 }, before), false);
 * ```
 * @param entry The entry.
 * @param before The entry before it in the same reflog.
 * @returns True when the entry plainly records the creation of its commit.
 */
export function ownsCommit(entry: ReflogEntry, before: ReflogEntry | undefined): boolean {
  const rule = creationRule(entry.subject);
  if (rule === undefined) return false;
  // A commit committed at another time than its entry was written already existed.
  if (Math.abs(entry.time - entry.committed) > CREATION_CLOCK_SLACK_SECONDS) return false; // GUARD:creation-time
  if (rule === "initial") return entry.parents.length === 0;
  if (before === undefined) return false;
  if (rule === "amend") {
    return before.parents.length === entry.parents.length &&
      before.parents.every((p, i) => entry.parents[i] === p);
  }
  return entry.parents[0] === before.commit; // GUARD:first-parent
}

const OID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The old value git wrote in entry `n` of a reflog file (entry 0 is its last line), when
 * that line's new value is the commit the walk listed for the entry.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const [a, b, c] = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
 * const file = `${a} ${b} T <t@x> 1 +0000\tcommit: b\n${c} ${a} T <t@x> 2 +0000\tcommit (amend): a\n`;
 * assertEquals(oldValue(file, 0, a), c);
 * assertEquals(oldValue(file, 1, b), a);
 * assertEquals(oldValue(file, 0, b), undefined);
 * assertEquals(oldValue(undefined, 0, a), undefined);
 * ```
 * @param file The reflog file's text.
 * @param n The entry's number.
 * @param commit The entry's commit as listed.
 * @returns The old value, or undefined when the file does not agree or is not there.
 */
export function oldValue(file: string | undefined, n: number, commit: string): string | undefined {
  if (file === undefined) return undefined;
  const lines = reflogLines(file);
  const line = lines[lines.length - 1 - n];
  const match = line === undefined ? null : /^([0-9a-f]+) ([0-9a-f]+) /.exec(line);
  if (!match || !OID.test(match[1]!) || match[2] !== commit) return undefined;
  return match[1];
}
/** The last file split, kept so a lane's many amends cost one split, not one each. */
let lastSplit: { file: string; lines: string[] } | undefined;

/** A reflog file's lines (without the empty one after the last newline), split once per file. */
function reflogLines(file: string): string[] {
  if (lastSplit?.file !== file) {
    const lines = file.split("\n");
    if (lines.at(-1) === "") lines.pop();
    lastSplit = { file, lines };
  }
  return lastSplit.lines;
}

/** `<reflog>@{<n>}`: an entry of a walk started at `<reflog>@{0}`. */
const BY_NUMBER = /^(.+)@\{(\d+)\}$/;
/** `<reflog>@{<seconds> <zone>}`: an entry of a walk started at `<reflog>` under `--date=raw`. */
const BY_TIME = /^(.+)@\{(\d+) [+-]\d{4}\}$/;

/** A listed entry before its time is known. */
type Listed = Omit<ReflogEntry, "time"> & { n: number };

/**
 * Build the ownership map from the output of {@linkcode REFLOG_ARGS} over several
 * reflogs, each walked twice (from `<reflog>@{0}`, whose selectors are entry numbers
 * `<reflog>@{<n>}`, and from `<reflog>`, whose selectors are the entries' own times
 * `<reflog>@{<seconds> <zone>}`): five NUL-terminated fields an entry (commit, selector,
 * parents, committer time, message). The two walks of one reflog list the same entries in
 * the same order, which gives every entry its number and its time.
 *
 * A lane's reflog owns a commit when the oldest of its listed entries that points at the
 * commit owns it ({@linkcode ownsCommit}; the entry before entry `n` is entry `n+1`): a
 * lane cannot create a commit its HEAD has already been at. A commit belongs to the one
 * lane whose reflog owns it; when two or more lanes' reflogs do, it is contested, whatever
 * the times say (a reflog entry can be forged), and only Primary may inspect it. An amend
 * (`commit (amend)`, `rebase (squash|fixup)`) that owns its commit names the commit it
 * replaced as the new commit's source: the new commit starts from that commit's tree, so
 * who may inspect it must be able to inspect that commit too. Output that does not have
 * that exact shape makes the ownership incomplete, so that nothing after `base` is shown
 * to a lane.
 *
 * @example W2 checking out W1's commit does not take it; a forged creation entry contests it
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { CONTESTED } from "./visibility.ts";
 * const [o, a, b] = ["0".repeat(40), "a".repeat(40), "b".repeat(40)];
 * const t = 1_700_000_000;
 * // One entry, as both walks list it: by number, then by time.
 * const entry = (sha: string, reflog: string, n: number, parents: string, msg: string) =>
 *   [`${reflog}@{${n}}`, `${reflog}@{${t} +0000}`].map((s) => `${sha}\0${s}\0${parents}\0${t}\0${msg}\0`)
 *     .join("");
 * const text = entry(a, "worktrees/w2/HEAD", 0, o, "checkout: moving from w2 to w1") +
 *   entry(o, "worktrees/w2/HEAD", 1, "", "commit (initial): o") +
 *   entry(a, "worktrees/w1/HEAD", 0, o, "commit: support HEAD@{1} syntax") +
 *   entry(o, "worktrees/w1/HEAD", 1, "", "reset: moving to HEAD") +
 *   entry(b, "worktrees/w3/HEAD", 0, a, "cherry-pick: fast-forward") +
 *   entry(a, "worktrees/w3/HEAD", 1, o, "checkout: moving from w3 to a");
 * const lanes = new Map([["worktrees/w1/HEAD", "W1"], ["worktrees/w2/HEAD", "W2"], ["worktrees/w3/HEAD", "W3"]]);
 * const { owners, complete } = parseOwnership(text, lanes);
 * assertEquals(complete, true);
 * assertEquals(owners.get(a), "W1");
 * assertEquals(owners.get(o), "W2");
 * assertEquals(owners.has(b), false);
 * assertEquals(parseOwnership(`${a} worktrees/w1/HEAD@{0} commit: x\n`, lanes).complete, false);
 * ```
 * @param text git's output.
 * @param reflogToLane Reflog name → lane.
 * @param files Reflog name → the text of its file (`<old> <new> <who> <when>\t<message>` a
 * line, oldest first), for the old values of amends; an amend in a reflog not given owns
 * nothing.
 * @returns Commit → lane (or {@linkcode CONTESTED}), amends' sources, and whether the text
 * parsed cleanly.
 *
 * Kept whole: a line-by-line parser whose state (the commit being read, its reflog entries,
 * amends seen) spans every branch of the loop.
 */
export function parseOwnership(
  text: string,
  reflogToLane: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string> = new Map(),
): Ownership {
  const incomplete: Ownership = { owners: new Map(), sources: new Map(), complete: false };
  const body = text.endsWith("\0") ? text.slice(0, -1) : text;
  const fields = body === "" ? [] : body.split("\0");
  if (fields.length % 5 !== 0) return incomplete;
  // Reflog name → its entries in listed order, from each walk.
  const numbered = new Map<string, Listed[]>();
  const timed = new Map<string, { commit: string; subject: string; time: number }[]>();
  for (let i = 0; i + 4 < fields.length; i += 5) {
    const [commit = "", selector = "", parentText = "", committed = "", subject = ""] = fields
      .slice(i, i + 5);
    const parents = parentText === "" ? [] : parentText.split(" ");
    if (!OID.test(commit) || !parents.every((p) => OID.test(p)) || !/^\d+$/.test(committed)) {
      return incomplete;
    }
    const byNumber = BY_NUMBER.exec(selector);
    const byTime = BY_TIME.exec(selector);
    const name = byNumber?.[1] ?? byTime?.[1];
    if (name === undefined) return incomplete;
    if (!reflogToLane.has(name)) continue;
    if (byNumber) {
      const list = numbered.get(name) ?? [];
      list.push({ n: Number(byNumber[2]), commit, parents, committed: Number(committed), subject });
      numbered.set(name, list);
    } else {
      const list = timed.get(name) ?? [];
      list.push({ commit, subject, time: Number(byTime![2]) });
      timed.set(name, list);
    }
  }
  // Reflog name → entry number → entry.
  const reflogs = new Map<string, Map<number, ReflogEntry>>();
  for (const name of new Set([...numbered.keys(), ...timed.keys()])) {
    const byNumber = numbered.get(name) ?? [];
    const byTime = timed.get(name) ?? [];
    if (byNumber.length !== byTime.length) return incomplete;
    const entries = new Map<number, ReflogEntry>();
    for (const [i, { n, ...entry }] of byNumber.entries()) {
      const same = byTime[i]!;
      if (same.commit !== entry.commit || same.subject !== entry.subject) return incomplete;
      entries.set(n, { ...entry, time: same.time });
    }
    reflogs.set(name, entries);
  }
  const makers = new Map<string, Set<string>>();
  const sources = new Map<string, Set<string>>();
  for (const [name, entries] of reflogs) {
    const lane = reflogToLane.get(name)!;
    // The oldest listed entry of this reflog at each commit (the highest number).
    const first = new Map<string, number>();
    for (const [n, entry] of entries) {
      first.set(entry.commit, Math.max(n, first.get(entry.commit) ?? n));
    }
    for (const [n, entry] of entries) {
      if (first.get(entry.commit) !== n) continue; // GUARD:first-visit
      const before = entries.get(n + 1);
      if (!ownsCommit(entry, before)) continue;
      // The commit an amend replaced is the old value git wrote in the entry itself; when it
      // is not the commit of the entry before (HEAD moved where this reflog did not see it),
      // the source is unknown and the amend owns nothing.
      const amend = creationRule(entry.subject) === "amend";
      if (amend && oldValue(files.get(name), n, entry.commit) !== before?.commit) continue; // GUARD:amend-old-value
      const set = makers.get(entry.commit) ?? new Set<string>();
      set.add(lane);
      makers.set(entry.commit, set);
      if (amend && before !== undefined) {
        const from = sources.get(entry.commit) ?? new Set<string>();
        from.add(before.commit);
        sources.set(entry.commit, from);
      }
    }
  }
  const owners = new Map<string, string>();
  for (const [commit, lanes] of makers) {
    owners.set(commit, lanes.size === 1 ? [...lanes][0]! : CONTESTED);
  }
  return {
    owners,
    sources: new Map([...sources].map(([commit, set]) => [commit, [...set]])),
    complete: true,
  };
}

/**
 * The options of every reflog read: NUL-separated fields (commit, selector, parents,
 * committer time, message), UTF-8 output whatever the configuration or the environment
 * says, no signature lines, and raw dates so that a walk started at `<reflog>` names its
 * entries by their own times.
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
  "--date=raw",
  "--format=%H%x00%gD%x00%P%x00%ct%x00%gs",
];

/**
 * The two walks of a reflog {@linkcode parseOwnership} reads: by entry number and by
 * entry time.
 *
 * @param name A reflog.
 * @returns The starting points.
 */
function walks(name: string): string[] {
  return [`${name}@{0}`, name];
}

/**
 * Read every lane's HEAD reflog and decide who made which commit; the reflogs of worktrees
 * that are no lane's count as {@linkcode CONTESTED}. A reflog that exists but cannot be
 * read makes the ownership incomplete (fail closed). Commits no reflog records (a popped
 * stash, a removed worktree's work) have no owner here and are Primary's only.
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param worktrees The lanes' worktrees and reflog names.
 * @param unowned HEAD reflogs of worktrees that are no lane's.
 * @param commonDir The git common dir, where the reflog files are read for the old values
 * of amends (without it, no amend owns).
 * @returns Commit → lane, and whether every reflog was read.
 * @throws {GitError} when git cannot be started.
 */
export async function readOwnership(
  at: At,
  worktrees: readonly LaneWorktree[],
  unowned: readonly string[] = [],
  commonDir?: string,
): Promise<Ownership> {
  const reflogToLane = new Map<string, string>([
    ...unowned.map((name) => [name, CONTESTED] as [string, string]),
    ...worktrees.map((w) => [w.reflog, w.lane] as [string, string]),
  ]);
  const decoder = new TextDecoder();
  const files = new Map<string, string>();
  if (commonDir !== undefined) {
    for (const name of reflogToLane.keys()) {
      // `HEAD` → `<common>/logs/HEAD`; `worktrees/<id>/HEAD` → `<common>/worktrees/<id>/logs/HEAD`.
      const file = readRegularFile(
        join(commonDir, dirname(name), "logs", "HEAD"),
        MAX_REFLOG_BYTES,
      );
      if (file?.ok) files.set(name, file.text);
    }
  }
  const all = await runGit([
    ...REFLOG_ARGS,
    "--end-of-options",
    ...[...reflogToLane.keys()].flatMap(walks),
  ], {
    ...at,
    parse: true,
    allowFailure: true,
  });
  if (all.code === 0) return parseOwnership(decoder.decode(all.stdout), reflogToLane, files);
  // A worktree with no reflog yet makes the combined call fail; read the others one by one.
  const texts = await Promise.all([...reflogToLane.keys()].map(async (name) => {
    const one = await runGit([...REFLOG_ARGS, "--end-of-options", ...walks(name)], {
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
  if (texts.some((t) => t === undefined)) {
    return { owners: new Map(), sources: new Map(), complete: false };
  }
  return parseOwnership(texts.join(""), reflogToLane, files);
}
