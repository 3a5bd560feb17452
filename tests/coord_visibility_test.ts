/**
 * The pure decisions behind coord's visibility, on hand-built policies and histories:
 * channel matrix, commit inspection through merges, releases and unowned commits,
 * ownership from reflog subjects, and message visibility through CC and forwards.
 *
 * @module
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { normalizeRelative, parsePolicy } from "../src/coord/policy.ts";
import {
  canInspect,
  canInspectMissing,
  channelAllowed,
  CONTESTED,
  type History,
  messageVisible,
} from "../src/coord/visibility.ts";
import { creationRule, isCreation, ownsCommit, parseOwnership } from "../src/coord/ownership.ts";
import { PolicyError } from "../src/coord/errors.ts";

const sha = (c: string) => c.repeat(40);
const [BASE, A0, A, C, B, M, P, G, W3C] = ["0", "1", "2", "3", "4", "5", "6", "7", "8"].map(
  sha,
) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
/** A fixed time for hand-built reflog entries (the entries and their commits agree on it). */
const T = 1_700_000_000;
const LANES = "lane: W1 ../W1\nlane: W2 ../W2\nlane: W3 ../W3\nlane: W4 ../W4\n";

function policy(extra: string) {
  return parsePolicy(`${LANES}base: ${BASE}\n${extra}`, "sha1");
}

// base ← A0 ← A ← C (W1); base ← B (W2); M = merge(B, A) made by W2; P = Primary on A;
// G = unowned on A; W3C = W3's commit on base.
const history: History = {
  commits: new Set([A0, A, C, B, M, P, G, W3C]),
  parents: new Map([
    [A0, [BASE]],
    [A, [A0]],
    [C, [A]],
    [B, [BASE]],
    [M, [B, A]],
    [P, [A]],
    [G, [A]],
    [W3C, [BASE]],
  ]),
  owners: new Map([[A0, "W1"], [A, "W1"], [C, "W1"], [B, "W2"], [M, "W2"], [P, "Primary"], [
    W3C,
    "W3",
  ]]),
  hasBase: true,
  complete: true,
};

Deno.test("channels: Primary with all, blind lanes never together, sealed only with Primary, released with open lanes", () => {
  const sealed = policy("blind: W1 W2\n");
  const released = policy(`blind: W1 W2\nreleased: W1 ${A}\n`);
  const table: Array<[string, string, boolean, boolean]> = [
    // a, b, sealed, released(W1)
    ["Primary", "W1", true, true],
    ["W1", "W2", false, false],
    ["W2", "W1", false, false],
    ["W1", "W3", false, true],
    ["W3", "W1", false, true],
    ["W2", "W3", false, false],
    ["W3", "W4", true, true],
    ["W1", "W9", false, false],
  ];
  for (const [a, b, s, r] of table) {
    assertEquals(channelAllowed(sealed, a, b), s, `${a}→${b} sealed`);
    assertEquals(channelAllowed(released, a, b), r, `${a}→${b} released`);
  }
});

Deno.test("inspection: W2 cannot inspect W1's commits, its own merge of them, or commits built on them", () => {
  const p = policy("blind: W1 W2\n");
  for (const c of [A0, A, C, M, P, G]) assertEquals(canInspect(p, "W2", c, history), false, c);
  assertEquals(canInspect(p, "W2", B, history), true);
  assertEquals(canInspect(p, "W1", C, history), true);
  assertEquals(canInspect(p, "W1", P, history), true, "Primary's commit on W1's own work");
  assertEquals(canInspect(p, "W1", M, history), false, "W2's merge holds W2's work");
  for (const c of [A0, A, C, B, M, P, G]) assertEquals(canInspect(p, "Primary", c, history), true);
  assertEquals(canInspect(p, "W2", sha("9"), history), false, "missing commit");
});

Deno.test("inspection fails closed: an incomplete history or ownership shows a lane nothing, Primary everything", () => {
  const p = policy("");
  const partial: History = { ...history, complete: false };
  assertEquals(canInspect(p, "W3", W3C, history), true);
  assertEquals(canInspect(p, "W3", W3C, partial), false, "own commit, history unreliable");
  assertEquals(canInspect(p, "W1", C, partial), false);
  assertEquals(canInspect(p, "Primary", C, partial), true);
  const owners = new Map([[C, "W1"]]);
  assertOk(canInspectMissing(p, "W1", C, { owners, complete: true }));
  assertOk(!canInspectMissing(p, "W1", C, { owners, complete: false }));
});

Deno.test("inspection: a release shows a non-blind lane the exact commit and what Primary built on it, not drafts", () => {
  const p = policy(`blind: W1 W2\nreleased: W1 ${A}\n`);
  assertEquals(canInspect(p, "W3", A, history), true);
  assertEquals(canInspect(p, "W3", A0, history), false, "earlier draft");
  assertEquals(canInspect(p, "W3", C, history), false, "later draft");
  assertEquals(canInspect(p, "W3", P, history), true, "Primary on the released commit");
  assertEquals(
    canInspect(p, "W3", G, history),
    false,
    "a commit no reflog records is Primary's only, even on the released commit",
  );
  assertEquals(
    canInspect(p, "W2", A, history),
    false,
    "a blind lane does not see another's release",
  );
  assertEquals(canInspect(p, "W3", W3C, history), true);
  assertEquals(canInspect(p, "W4", W3C, history), false, "another open lane's unreleased commit");
});

Deno.test("inspection of a handoff whose commit is gone: its maker, Primary, and non-blind lanes for a released one", () => {
  const p = policy(`blind: W1 W2\nreleased: W1 ${A}\n`);
  const owners = { owners: new Map([[A, "W1"], [C, "W1"]]), complete: true };
  assertOk(canInspectMissing(p, "W1", C, owners));
  assertOk(canInspectMissing(p, "Primary", C, owners));
  assertOk(canInspectMissing(p, "W3", A, owners));
  assertOk(!canInspectMissing(p, "W3", C, owners));
  assertOk(!canInspectMissing(p, "W2", A, owners));
});

Deno.test("ownership: only git's creation messages can own; moves, fast-forwards and unknown messages never do", () => {
  for (
    const [s, rule] of [
      ["commit: x", "first-parent"],
      ["commit (initial): x", "initial"],
      ["commit (amend): x", "amend"],
      ["commit (merge): x", "first-parent"],
      ["merge w1: Merge made by the 'ort' strategy.", "first-parent"],
      ["merge w1: Merge made by recursive.", "first-parent"],
      ["rebase (pick): x", "first-parent"],
      ["rebase -i (fixup): x", "amend"],
      ["rebase (squash): x", "amend"],
      ["rebase (continue): x", "first-parent"],
      ["commit (cherry-pick): x", "first-parent"],
      ["cherry-pick: x", "first-parent"],
      ["revert: Revert x", "first-parent"],
      ["am: x", "first-parent"],
      // A merge's names are the caller's, but only a merge git made ends in these words.
      ["merge :/x: Fast-forward and: Merge made by the 'ort' strategy.", "first-parent"],
      // A commit subject cannot change the rule of its own creation.
      ["commit: checkout: moving from w1 to w2", "first-parent"],
      ["commit: merge w1: Fast-forward", "first-parent"],
      ["commit: fast-forward the parser", "first-parent"],
      ["commit: fast-forward", "first-parent"],
      ["rebase (pick): rebase (start): checkout main", "first-parent"],
    ] as const
  ) {
    assertEquals(creationRule(s), rule, s);
    assertOk(isCreation(s), s);
  }
  for (
    const s of [
      "checkout: moving from w2 to w1",
      "switch: moving from w2 to w1",
      "reset: moving to HEAD",
      "merge w1: Fast-forward",
      "merge w1: Fast-forward (no commit created; -m option ignored)",
      "merge w1: Merge durch die Strategie 'ort'.",
      "pull: Fast-forward",
      "pull -q --ff-only . w1: Fast-forward",
      "pull --rebase . w1: Fast-forward",
      // A pull's messages carry its arguments, free text before git's own words: never a creation.
      "pull --rebase . w1 (pick): x",
      "pull -q --ff-only -X theirs (pick): x . w1: Fast-forward",
      "pull: Merge made by the 'ort' strategy.",
      "pull --no-rebase . main: Merge made by the 'ort' strategy.",
      "pull -X x: Merge made by the 'ort' strategy. . w1: Fast-forward",
      "merge :/x: Merge made by the 'ort' strategy.: Fast-forward",
      // Anchored at the start: the action words are git's, exactly.
      " commit: x",
      "xcommit: x",
      "recommit: x",
      "rebase --onto w1 (pick): x",
      "my rebase (pick): x",
      "rebase (pick) (pick): x",
      "rebase: checkout w1",
      "rebase: checkout 0123456789abcdef0123456789abcdef01234567",
      "rebase: fast-forward",
      "rebase: a commit applied by the apply backend",
      "rebase (start): checkout main",
      "rebase -i (start): checkout main",
      "rebase (finish): returning to refs/heads/w2",
      "rebase (abort): returning to refs/heads/w2",
      "rebase (reset): onto",
      "rebase (pick): fast-forward",
      "pull --rebase . w1 (start): checkout 0123abc",
      "clone: from /srv/repo",
      "branch: Created from HEAD",
      "branch: Reset to 0123abc",
      "cherry-pick: fast-forward",
      "revert: fast-forward",
      "some tool: something nobody foresaw",
      "Commit: x",
      "",
    ]
  ) {
    assertEquals(creationRule(s), undefined, s);
    assertOk(!isCreation(s), s);
  }
});

Deno.test("ownership: a creation entry owns only when it agrees with its commit's parents", () => {
  const e = (commit: string, parents: string[], subject: string) => ({
    commit,
    parents,
    subject,
    committed: T,
    time: T,
  });
  // first parent: the entry before it is the commit's first parent.
  assertOk(ownsCommit(e(A, [A0], "commit: a"), e(A0, [BASE], "commit: a0")));
  assertOk(
    ownsCommit(e(M, [A, B], "merge w2: Merge made by the 'ort' strategy."), e(A, [A0], "x")),
  );
  assertOk(!ownsCommit(e(M, [B, A], "merge w2: Merge made by the 'ort' strategy."), e(A, [], "x")));
  assertOk(!ownsCommit(e(A, [A0], "commit: a"), e(BASE, [], "checkout: moving")), "not its parent");
  assertOk(!ownsCommit(e(A, [A0], "commit: a"), undefined), "the entry before is not listed");
  // An up-to-date rebase writes `rebase: checkout <branch>`, consistent with the parents but no creation.
  assertOk(!ownsCommit(e(A, [A0], "rebase: checkout review"), e(A0, [BASE], "commit: a0")));
  assertOk(!ownsCommit(e(A, [A0], "cherry-pick: fast-forward"), e(A0, [BASE], "commit: a0")));
  // amend: same parents as the commit it replaces.
  assertOk(ownsCommit(e(C, [A0], "commit (amend): c"), e(A, [A0], "commit: a")));
  assertOk(!ownsCommit(e(C, [A], "commit (amend): c"), e(A, [A0], "commit: a")));
  assertOk(ownsCommit(e(C, [A0], "rebase -i (fixup): c"), e(A, [A0], "rebase (pick): a")));
  // initial: a root commit.
  assertOk(ownsCommit(e(BASE, [], "commit (initial): base"), undefined));
  assertOk(!ownsCommit(e(A, [A0], "commit (initial): a"), undefined));
  // time: the entry is written at its commit's committer time; a commit made at another
  // time already existed (a re-creation, or a forged message on a move).
  const at = (time: number) => ({ ...e(A, [A0], "rebase (pick): a"), time });
  assertOk(ownsCommit(at(T + 2), e(A0, [BASE], "commit: a0")), "within the slack");
  assertOk(ownsCommit(at(T - 2), e(A0, [BASE], "commit: a0")), "within the slack");
  assertOk(!ownsCommit(at(T + 3), e(A0, [BASE], "commit: a0")), "committed before the entry");
  assertOk(!ownsCommit(at(T - 3), e(A0, [BASE], "commit: a0")), "committed after the entry");
  assertOk(!ownsCommit({ ...e(BASE, [], "commit (initial): b"), time: T + 3600 }, undefined));
});

Deno.test("ownership: consistent creations own a commit, moves never do, two makers contest it", () => {
  const map = new Map([["worktrees/a/HEAD", "W1"], ["worktrees/b/HEAD", "W2"], [
    "main-worktree/HEAD",
    "Primary",
  ]]);
  // One entry as both walks list it: by number (`name@{n}`), then by time (`name@{t zone}`).
  const entry = (commit: string, selector: string, parents: string, subject: string) =>
    [selector, selector.replace(/@\{\d+\}$/, `@{${T} +0000}`)]
      .map((at) => `${commit}\0${at}\0${parents}\0${T}\0${subject}\0`).join("");
  const { owners, complete } = parseOwnership(
    [
      entry(G, "worktrees/a/HEAD@{0}", A, "rebase (pick): g"),
      entry(A, "worktrees/a/HEAD@{1}", A0, "commit: support HEAD@{1} syntax"),
      entry(A0, "worktrees/a/HEAD@{2}", BASE, "commit: a0"),
      entry(BASE, "worktrees/a/HEAD@{3}", "", "reset: moving to HEAD"),
      // W2: a forged, backdated entry consistent with C's parent contests C.
      entry(C, "worktrees/b/HEAD@{0}", BASE, "commit: mine: moving from w2 to c"),
      entry(BASE, "worktrees/b/HEAD@{1}", "", "reset: moving to HEAD"),
      // W2's no-op rebase and fast-forwards onto W1's commits claim nothing.
      entry(A, "worktrees/b/HEAD@{5}", A0, "rebase: checkout review"),
      entry(A0, "worktrees/b/HEAD@{6}", BASE, "cherry-pick: fast-forward"),
      entry(BASE, "worktrees/b/HEAD@{7}", "", "checkout: moving from a to b"),
      // W1's C, whose entry before is not listed (an expired or deleted entry): not owned.
      entry(C, "worktrees/a/HEAD@{9}", BASE, "commit: c"),
      entry(M, "worktrees/zzz/HEAD@{10}", A, "commit: not a lane"),
      entry(B, "main-worktree/HEAD@{0}", BASE, "checkout: moving from main to w2"),
      entry(BASE, "main-worktree/HEAD@{1}", "", "commit (initial): base"),
    ].join(""),
    map,
  );
  assertOk(complete);
  assertEquals(owners.get(A), "W1", "a subject holding @{1} shifts no field");
  assertEquals(owners.get(A0), "W1", "W2's fast-forward onto it takes nothing");
  assertEquals(owners.get(G), "W1");
  assertEquals(owners.get(C), "W2", "W1's entry for C has no listed entry before it");
  assertEquals(owners.get(BASE), "Primary");
  assertEquals(owners.has(B), false);
  assertEquals(owners.has(M), false);
  const both = parseOwnership(
    entry(C, "worktrees/a/HEAD@{0}", BASE, "commit: c") +
      entry(BASE, "worktrees/a/HEAD@{1}", "", "checkout: x") +
      entry(C, "worktrees/b/HEAD@{0}", BASE, "commit: c") +
      entry(BASE, "worktrees/b/HEAD@{1}", "", "checkout: x"),
    map,
  );
  assertEquals(both.owners.get(C), CONTESTED, "two lanes record its creation, whatever the order");
  const p = policy("blind: W1 W2\n");
  const contested: History = { ...history, owners: new Map([...history.owners, [C, CONTESTED]]) };
  assertEquals(canInspect(p, "W1", C, contested), false, "a contested commit is no lane's");
  assertEquals(canInspect(p, "W2", C, contested), false);
  assertEquals(canInspect(p, "Primary", C, contested), true);
});

Deno.test("ownership: only a lane's first visit of a commit can be its creation; an amend names its source", () => {
  const map = new Map([["worktrees/a/HEAD", "W1"], ["worktrees/c/HEAD", "W3"]]);
  const entry = (commit: string, selector: string, parents: string, subject: string) =>
    [selector, selector.replace(/@\{\d+\}$/, `@{${T} +0000}`)]
      .map((at) => `${commit}\0${at}\0${parents}\0${T}\0${subject}\0`).join("");
  const { owners, sources } = parseOwnership(
    [
      // W1 makes A0 and A.
      entry(A, "worktrees/a/HEAD@{0}", A0, "commit: a"),
      entry(A0, "worktrees/a/HEAD@{1}", BASE, "commit: a0"),
      entry(BASE, "worktrees/a/HEAD@{2}", "", "reset: moving to HEAD"),
      // W3 was at A before it "picked" A from A0: a re-creation, no creation.
      entry(A, "worktrees/c/HEAD@{0}", A0, "cherry-pick: a"),
      entry(A0, "worktrees/c/HEAD@{1}", BASE, "checkout: moving from a to a0"),
      entry(A, "worktrees/c/HEAD@{2}", A0, "checkout: moving from w3 to a"),
      // W3 amends W1's A0 after a reset to it: C is W3's, made from A0.
      entry(C, "worktrees/c/HEAD@{3}", BASE, "commit (amend): a0"),
      entry(A0, "worktrees/c/HEAD@{4}", BASE, "reset: moving to a0"),
      entry(BASE, "worktrees/c/HEAD@{5}", "", "reset: moving to HEAD"),
    ].join(""),
    map,
  );
  assertEquals(owners.get(A), "W1", "W3's pick of a commit it had been at contests nothing");
  assertEquals(owners.get(A0), "W1");
  assertEquals(owners.get(C), "W3");
  assertEquals(sources?.get(C), [A0]);
  assertEquals(sources?.has(A), false);
  // C holds A0's tree: W3 may not inspect it while it may not inspect A0.
  const amended: History = {
    ...history,
    commits: new Set([...history.commits, C]),
    parents: new Map([...history.parents, [C, [BASE]]]),
    owners: new Map([...history.owners, [C, "W3"]]),
    sources: new Map([[C, [A0]]]),
  };
  assertEquals(canInspect(policy("blind: W1\n"), "W3", C, amended), false, "its source is W1's");
  assertEquals(canInspect(policy(`blind: W1\nreleased: W1 ${A0}\n`), "W3", C, amended), true);
  assertEquals(canInspect(policy(""), "W1", C, amended), false, "nor W1: C is W3's");
  assertEquals(canInspect(policy(""), "Primary", C, amended), true);
  // A source that is gone cannot be shown to be visible; sources that loop decide nothing.
  const gone: History = { ...amended, sources: new Map([[C, [sha("9")]]]) };
  assertEquals(canInspect(policy(""), "W3", C, gone), false);
  const loop: History = {
    ...amended,
    owners: new Map([...history.owners, [C, "W3"], [W3C, "W3"]]),
    sources: new Map([[C, [W3C]], [W3C, [C]]]),
  };
  assertEquals(canInspect(policy(""), "W3", C, loop), false);
  assertEquals(canInspect(policy(""), "W3", W3C, loop), false);
  assertEquals(canInspect(policy(""), "W3", W3C, { ...loop, sources: new Map() }), true);
});

Deno.test("ownership: reflog output of the wrong shape is incomplete, never a partial answer", () => {
  const map = new Map([["worktrees/a/HEAD", "W1"]]);
  const byNumber = `${A}\0worktrees/a/HEAD@{0}\0\0${T}\0commit (initial): x\0`;
  const byTime = `${A}\0worktrees/a/HEAD@{${T} +0000}\0\0${T}\0commit (initial): x\0`;
  const good = byNumber + byTime;
  assertEquals(parseOwnership(good, map).owners.get(A), "W1");
  assertEquals(parseOwnership("", map), { owners: new Map(), sources: new Map(), complete: true });
  for (
    const bad of [
      `${A} worktrees/a/HEAD@{0}  ${T} commit: x\n`, // not NUL-separated (an encoding rewrote it)
      `${A}\0worktrees/a/HEAD@{0}\0\0${T}\0`, // a field short
      `${A.slice(0, 12)}\0worktrees/a/HEAD@{0}\0\0${T}\0commit: x\0`, // abbreviated
      `${A}\0worktrees/a/HEAD@{0}\0${A0.slice(0, 7)}\0${T}\0commit: x\0`, // abbreviated parent
      `${A}\0worktrees/a/HEAD\0\0${T}\0commit: x\0`, // no selector
      `${A}\0worktrees/a/HEAD@{2 minutes ago}\0\0${T}\0commit: x\0`, // a date, not raw
      `${A}\0worktrees/a/HEAD@{0}\0\0yesterday\0commit: x\0`, // a committer time, not a number
      byNumber, // the walk by time is missing: the entry's time is unknown
      byTime, // the walk by number is missing
      byNumber + byTime.replace(A, A0), // the two walks disagree
      byNumber + byTime.replace("commit (initial): x", "commit (initial): y"),
      good + "\u00fe\u00ff", // trailing bytes of another encoding
    ]
  ) {
    const parsed = parseOwnership(bad, map);
    assertEquals(parsed.complete, false, JSON.stringify(bad));
    assertEquals(parsed.owners.size, 0);
  }
});

Deno.test("messages: CC and forwards never widen; a blind lane's thread stays private after release", () => {
  const p = policy(`blind: W1 W2\nreleased: W1 ${A}\n`);
  const yes = () => true;
  const no = () => false;
  const m = (sender: string, to: string[], cc: string[] = []) => ({
    sender,
    to,
    cc,
    artifact: null,
    forward_of: null,
  });
  assertEquals(
    messageVisible(p, "W2", m("W1", ["Primary"], ["W2"]), yes, yes),
    false,
    "CC across blind lanes",
  );
  assertEquals(messageVisible(p, "W3", m("W1", ["Primary"]), yes, yes), false, "not a recipient");
  assertEquals(
    messageVisible(p, "W3", m("W1", ["W3"]), yes, yes),
    true,
    "released lane to open lane",
  );
  const withArtifact = {
    ...m("Primary", ["W3"]),
    artifact: { commit: C, path: "p", object: C, tree: C },
  };
  assertEquals(messageVisible(p, "W3", withArtifact, no, yes), false, "artifact not visible");
  const forward = { ...m("Primary", ["W3"]), forward_of: "E001-M0001" };
  assertEquals(
    messageVisible(p, "W3", forward, yes, no),
    false,
    "forward of an unreadable original",
  );
  assertEquals(
    messageVisible(policy("blind: W1 W2\n"), "W3", m("W1", ["W3"]), yes, yes),
    false,
    "withdrawn release",
  );
});

Deno.test("policy parsing: lanes, repeated blind lines, Primary implied, and malformed coord lines rejected", () => {
  const p = parsePolicy(
    `${LANES}blind: W1\nblind: W2\n# blind: W3 is a comment\nlaned: x\n`,
    "sha1",
  );
  assertEquals([...p.blind], ["W1", "W2"]);
  assertEquals(p.lanes.get("Primary"), ".");
  assertEquals(p.base, undefined);
  assertEquals(normalizeRelative("a/./b/../c"), "a/c");
  const bad = [
    "blind: W9",
    "released: W1",
    `released: W1 ${A.slice(0, 12)}`,
    "base: HEAD",
    `base: ${A}\nbase: ${B}`,
    "lane: W1 ../other",
    "lane: X ../W1",
    "lane: Primary sub",
    "blind: Primary",
    "lane: ../x y",
    "released: W1 " + "g".repeat(40),
  ];
  for (const line of bad) {
    let threw = false;
    try {
      parsePolicy(`${LANES}${line}\n`, "sha1");
    } catch (error) {
      threw = error instanceof PolicyError;
    }
    assertOk(threw, line);
  }
  assertOk(
    parsePolicy(`${LANES}released: W1 ${"a".repeat(64)}\n`, "sha256").released.get("W1")?.size ===
      1,
  );
});
