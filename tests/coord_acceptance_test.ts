/**
 * Seed 003 acceptance tests A–C for `coord`: a basic message, an exact handoff, and W1 and W2
 * blind to each other. (D–G: `coord_acceptance_release_test.ts`; H, I, identity and hostile git
 * settings: `coord_acceptance_hostile_test.ts`; the helpers: `_coord_acceptance_run.ts`.)
 * Black box: the real entry point under its binary's exact permission flags, on real
 * throwaway repositories with a main worktree (Primary) and linked worktrees W1, W2, W3 (see
 * `_coord_acceptance_fixture.ts`).
 *
 * Each test gets its own scenario; sub-cases share it through `t.step`. Every blindness
 * and artifact case asserts the denial AND an authorised positive next to it, so neither a
 * guard that is switched off nor an implementation that refuses everything passes.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { commitAll, git, writeFiles } from "./_helpers.ts";
import { commitStatus, LANE_DIR, SEALED } from "./_coord_acceptance_fixture.ts";
import {
  assertLikeMissing,
  assertMessageUnseen,
  assertProbesRefused,
  assertRefusal,
  coord,
  coordIn,
  everythingVisibleTo,
  expectId,
  handoff,
  handoffArgs,
  handoffDenied,
  inbox,
  inboxLine,
  inboxRaw,
  NO_SUCH_SHA,
  type Probe,
  read,
  send,
  sendDenied,
  short,
  show,
  statusText,
  WI,
  withScenario,
} from "./_coord_acceptance_run.ts";

// ---------------------------------------------------------------------------------------
// A. Basic message

Deno.test("coord A: W1 sends Primary a note, Primary lists, reads and acks it, the ack never rewrites the message", async () => {
  await withScenario({}, async (s) => {
    const id = await send(s, "W1", "Primary", "basic hello", "Hello Primary, W1 here.\n");

    const line = await inboxLine(s, "Primary", id);
    for (const part of ["W1", "NOTE", "SENT", "basic hello"]) assertIncludes(line, part);
    assertExcludes(line, "ACKNOWLEDGED");

    const text = await read(s, "Primary", id);
    for (const part of ["Hello Primary, W1 here.", "basic hello", "W1"]) assertIncludes(text, part);
    assertOk(
      text.indexOf("basic hello") < text.indexOf("Hello Primary, W1 here."),
      "read prints headers, then the body",
    );
    const json = JSON.parse(await read(s, "Primary", id, true));
    assertIncludes(JSON.stringify(json), "Hello Primary, W1 here.");
    JSON.parse((await coord(s, "Primary", ["inbox", WI, "--json"])).stdout);

    const msgs = join(s.commonDir, "coord-lite", WI, "msgs");
    const acks = join(s.commonDir, "coord-lite", WI, "acks");
    const before = await snapshotDir(msgs);
    assertEquals(Object.keys(before).length, 1, "one immutable file per message");

    const ack = await coord(s, "Primary", ["ack", id]);
    assertEquals(ack.code, 0, show(ack));

    assertEquals(await snapshotDir(msgs), before, "ack must not touch the message file");
    const ackFiles = await snapshotDir(acks);
    assertEquals(Object.keys(ackFiles), [`${id}.Primary.json`]);

    const acked = await inboxLine(s, "Primary", id);
    assertIncludes(acked, "ACKNOWLEDGED");
    for (const state of ["ACCEPTED", "EXECUTED"]) assertExcludes(acked, state);
    assertExcludes((await inbox(s, "Primary", ["--unacked"])).join(" "), id);

    await coord(s, "Primary", ["ack", id]);
    assertEquals(await snapshotDir(acks), ackFiles, "a second ack rewrites nothing");
    assertEquals(await snapshotDir(msgs), before);
  });
});

/** path → bytes (as text) and mtime of every file in a directory. */
async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile) continue;
    const p = join(dir, e.name);
    const st = await Deno.stat(p);
    out[e.name] = `${st.mtime?.getTime()}:${await Deno.readTextFile(p)}`;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

// ---------------------------------------------------------------------------------------
// B. Exact handoff

Deno.test("coord B: a handoff pins the exact commit and file, survives branch movement, and reports objects that are gone", async (t) => {
  await withScenario({}, async (s) => {
    const { a } = s.sha;
    const blob = await git(s.dir.W1, ["rev-parse", `${a}:proof/w1.md`]);
    const tree = await git(s.dir.W1, ["rev-parse", `${a}^{tree}`]);
    const id = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen for review");

    await t.step("the recipient reads commit, path, blob id and tree id", async () => {
      const text = await read(s, "Primary", id);
      for (const part of [a, "proof/w1.md", blob, tree, "W1 frozen for review"]) {
        assertIncludes(text, part);
      }
      assertIncludes(text, "artifact-check: ok"); // docs/coord.md
      assertIncludes(await read(s, "Primary", id, true), a);
      const line = await inboxLine(s, "Primary", id);
      assertIncludes(line, "HANDOFF");
    });

    await t.step("moving W1's branch afterwards changes nothing the recipient reads", async () => {
      await writeFiles(s.dir.W1, { "proof/w1.md": "W1 rewrote everything after the handoff\n" });
      const moved = await commitAll(s.dir.W1, "W1 after handoff");
      await git(s.dir.W1, ["branch", "-f", "w1-pointer", moved]);
      const again = await read(s, "Primary", id);
      for (const part of [a, blob, tree, "artifact-check: ok"]) assertIncludes(again, part);
      assertExcludes(again, moved);
    });

    await t.step("HEAD is resolved to the sender's full SHA before it is stored", async () => {
      const head = await git(s.dir.W1, ["rev-parse", "HEAD"]);
      const h = await handoff(s, "W1", "Primary", "HEAD", "proof/w1.md", "W1 head");
      await commitAll(s.dir.W1, "W1 moves on");
      assertIncludes(await read(s, "Primary", h), head);
    });

    await t.step(
      "a handoff whose commit lost every ref is flagged, and gone objects are reported on read",
      async () => {
        await git(s.dir.W1, ["checkout", "-q", "-b", "w1-tmp"]);
        await writeFiles(s.dir.W1, { "proof/ephemeral.md": "W1 ephemeral 7f3c\n" });
        const x = await commitAll(s.dir.W1, "W1 ephemeral");
        const hx = await handoff(s, "W1", "Primary", x, "proof/ephemeral.md", "ephemeral");
        const intact = await read(s, "Primary", hx);
        assertIncludes(intact, x);
        await git(s.dir.W1, ["checkout", "-q", "w1"]);
        await git(s.dir.W1, ["branch", "-q", "-D", "w1-tmp"]);

        const status = await coord(s, "Primary", ["status", WI]);
        assertEquals(status.code, 0, show(status));
        assertIncludes(status.stdout, hx);
        assertIncludes(status.stdout, "OWNER ACTION:");

        await git(s.dir.Primary, ["reflog", "expire", "--expire=now", "--all"]);
        await git(s.dir.Primary, ["gc", "-q", "--prune=now"]);
        const gone = await run0(s.dir.Primary, ["cat-file", "-e", x]);
        assertOk(!gone, "fixture: the commit must really be gone");

        const r = await coord(s, "Primary", ["read", hx]);
        const out = r.stdout + r.stderr;
        assertOk(out !== intact, "the read must differ once the objects are gone");
        assertOk(
          /gone|missing|no longer|mismatch|unavailable|not found|cannot|does not/i.test(out),
          `the read must say plainly that the artifact is gone\n${show(r)}`,
        );
        assertIncludes(out, "artifact-check: GONE"); // docs/coord.md
      },
    );
  });
});

/** Run git; true when it exits 0. */
async function run0(cwd: string, args: string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// C. Blind W1/W2

Deno.test("coord C: W1 and W2 stay blind to each other through every channel and artifact route", async (t) => {
  await withScenario({}, async (s) => {
    const { a, a0, c, b, tagOnly, renamed, deleted, w2Merge, primaryMerge, primaryOnA, ghostOnA } =
      s.sha;
    let p1 = "";
    let p2 = "";

    await t.step("W1→W2 and W2→W1 direct messages are refused and never delivered", async () => {
      await sendDenied(s, "W1", "W2", "psst", "W1 secret lemma text\n");
      await sendDenied(s, "W2", "W1", "psst", "W2 secret induction text\n");
      await sendDenied(s, "W1", "Primary,W2", "to both", "W1 secret lemma text\n");
      p1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");
      p2 = await send(s, "W2", "Primary", "W2 private derivation", "W2 secret induction text\n");
      assertEquals(await inbox(s, "W2"), []);
      assertEquals(await inbox(s, "W1"), []);
      assertEquals((await inbox(s, "Primary")).sort(), [p1, p2].sort());
    });

    await t.step("CC of the other blind lane is refused at send", async () => {
      await sendDenied(s, "W1", "Primary", "cc attempt", "W1 cc secret\n", ["--cc", "W2"]);
      await sendDenied(s, "W2", "Primary", "cc attempt", "W2 cc secret\n", ["--cc", "W1"]);
      assertEquals(await inbox(s, "W2"), []);
      assertEquals(await inbox(s, "W1"), []);
      assertEquals((await inbox(s, "Primary")).sort(), [p1, p2].sort());
    });

    await t.step(
      "W2 cannot read, ack, forward or reply to W1's message: it is answered like a missing id",
      async () => {
        await assertMessageUnseen(s, "W2", p1, true);
        await assertMessageUnseen(s, "W1", p2, true);
      },
    );

    await t.step("Primary cannot forward W1's message to W2", async () => {
      await sendDenied(s, "Primary", "W2", "fwd", "see below\n", ["--forward", p1]);
      await sendDenied(s, "Primary", "W1", "fwd", "see below\n", ["--forward", p2]);
      assertEquals(await inbox(s, "W2"), []);
    });

    await t.step("a Primary reply to W1's message shows W2 nothing of the parent", async () => {
      const r = await coord(
        s,
        "Primary",
        ["send", WI, "--to", "W2", "--subject", "Primary question", "--reply-to", p1],
        "Primary's own words only\n",
      );
      if (r.code === 0) {
        const reply = expectId(r, "Primary reply", s, "Primary");
        const text = (await read(s, "W2", reply)) + (await read(s, "W2", reply, true));
        assertIncludes(text, "Primary's own words only");
        for (const leak of ["W1 secret lemma text", "W1 private derivation", p1]) {
          assertExcludes(text, leak);
        }
        const back = await send(s, "W2", "Primary", "W2 answers", "W2 answer\n", [
          "--reply-to",
          reply,
        ]);
        assertOk((await inbox(s, "Primary")).includes(back));
      }
      await assertLikeMissing(s, "W2", p1, (x) => ["read", x]);
    });

    await t.step(
      "forwarding that reply to W2 does not reveal the hidden parent either",
      async () => {
        const reply = await send(s, "Primary", "W2", "Primary asks", "Primary's question\n", [
          "--reply-to",
          p1,
        ]);
        const fwd = await send(s, "Primary", "W2", "fwd", "Primary forwards its question\n", [
          "--forward",
          reply,
        ]);
        const text = (await read(s, "W2", fwd)) + (await read(s, "W2", fwd, true));
        assertIncludes(text, "Primary's question");
        for (const leak of [p1, "W1 secret lemma text", "W1 private derivation"]) {
          assertExcludes(text, leak);
        }
      },
    );

    await t.step(
      "W2 handoffs of W1's work are refused exactly like a missing commit, by every route",
      async () => {
        const primaryBefore = await inboxRaw(s, "Primary");
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "W1's frozen commit by full SHA", sha: a, path: "proof/w1.md" },
          { label: "W1's frozen commit, missing path", sha: a, path: "proof/none.md" },
          { label: "W1's draft by full SHA", sha: a0, path: "proof/w1.md" },
          { label: "W1's later draft by full SHA", sha: c, path: "proof/w1.md" },
          { label: "W1's branch name", sha: "w1", path: "proof/w1.md" },
          { label: "W1's branch full ref", sha: "refs/heads/w1", path: "proof/w1.md" },
          { label: "W1's tag-only commit", sha: tagOnly, path: "proof/w1-tagonly.md" },
          { label: "the misleading tag", sha: s.tag, path: "proof/w1-tagonly.md" },
          {
            label: "W1's commit on a branch renamed w2-side",
            sha: renamed,
            path: "proof/w1-side.md",
          },
          { label: "the renamed branch by name", sha: "w2-side", path: "proof/w1-side.md" },
          {
            label: "W1's commit whose branch was deleted",
            sha: deleted,
            path: "proof/w1-doomed.md",
          },
          {
            label: "W1's commit reached through W2's own merge",
            sha: `${w2Merge}^2`,
            path: "proof/w1.md",
          },
          { label: "Primary's merge of W1's commit", sha: primaryMerge, path: "proof/w1.md" },
          { label: "Primary's commit on top of W1's", sha: primaryOnA, path: "proof/w1.md" },
          { label: "a reflog-less commit on top of W1's", sha: ghostOnA, path: "proof/w1.md" },
          { label: "abbreviated W1 SHA (7)", sha: short(a), path: "proof/w1.md" },
          { label: "abbreviated W1 SHA (12)", sha: short(a, 12), path: "proof/w1.md" },
          { label: "upper-case W1 SHA", sha: a.toUpperCase(), path: "proof/w1.md" },
          { label: "rev expression w1~1", sha: "w1~1", path: "proof/w1.md" },
          { label: "rev expression <sha>^{commit}", sha: `${a}^{commit}`, path: "proof/w1.md" },
          { label: "message search :/W1 frozen", sha: ":/W1 frozen", path: "proof/w1.md" },
          { label: "W1's reflog w1@{1}", sha: "w1@{1}", path: "proof/w1.md" },
        ]);
        assertEquals(await inboxRaw(s, "Primary"), primaryBefore, "no probe created a message");
      },
    );

    await t.step(
      "W2's own commits pass while its abbreviations and rev expressions do not",
      async () => {
        const own = await handoff(s, "W2", "Primary", b, "proof/w2.md", "W2 frozen");
        assertIncludes(await read(s, "Primary", own), b);
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "own abbreviated SHA", sha: short(b), path: "proof/w2.md" },
          { label: "HEAD~1", sha: "HEAD~1", path: "proof/w2.md" },
          { label: "main^{tree}", sha: "main^{tree}", path: "STATUS" },
          { label: "own branch name", sha: "w2", path: "proof/w2.md" },
          { label: ":/W2 frozen", sha: ":/W2 frozen", path: "proof/w2.md" },
        ]);
      },
    );

    await t.step(
      "W1's own commits pass by full SHA however its branches moved (tag-only, renamed, deleted)",
      async () => {
        for (
          const [sha, path] of [
            [tagOnly, "proof/w1-tagonly.md"],
            [renamed, "proof/w1-side.md"],
            [deleted, "proof/w1-doomed.md"],
          ] as const
        ) {
          const id = await handoff(s, "W1", "Primary", sha, path, "W1 side work");
          assertIncludes(await read(s, "Primary", id), sha);
        }
      },
    );

    await t.step(
      "W2 cannot launder W1's work through its own merge or a commit built on W1's",
      async () => {
        const W2 = s.dir.W2;
        try {
          await git(W2, ["checkout", "-q", "--detach", a]);
          await writeFiles(W2, { "proof/w2-on-w1.md": "W2 builds on W1\n" });
          const onA = await commitAll(W2, "W2 on top of W1");
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "W2's merge of W1's commit", sha: w2Merge, path: "proof/w1.md" },
            { label: "W2's merge, its own file", sha: w2Merge, path: "proof/w2.md" },
            { label: "W2's commit on top of W1's", sha: onA, path: "proof/w1.md" },
            { label: "HEAD = W2's commit on top of W1's", sha: "HEAD", path: "proof/w2-on-w1.md" },
          ]);
          await handoffDenied(s, "Primary", "W2", onA, "proof/w1.md");
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step(
      "W2 sharing W1's branch (checkout --ignore-other-worktrees) cannot hand off HEAD",
      async () => {
        const W2 = s.dir.W2;
        try {
          await git(W2, ["checkout", "-q", "--ignore-other-worktrees", "w1"]);
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "HEAD on W1's branch", sha: "HEAD", path: "proof/w1.md" },
          ]);
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step(
      "a W1 commit whose subject mentions HEAD@{1} is still W1's, not Primary's",
      async () => {
        const W1 = s.dir.W1;
        await git(W1, ["checkout", "-q", "-b", "w1-parser", "main"]);
        try {
          await writeFiles(W1, { "proof/parser.md": "W1 private parser notes\n" });
          const x = await commitAll(W1, "support HEAD@{1} syntax");
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "W1's commit with @{1} in its subject", sha: x, path: "proof/parser.md" },
          ]);
          await assertProbesRefused(s, "W3", "Primary", [
            { label: "W1's commit with @{1} in its subject", sha: x, path: "proof/parser.md" },
          ]);
          const own = await handoff(s, "W1", "Primary", x, "proof/parser.md", "parser");
          assertIncludes(await read(s, "Primary", own), x);
        } finally {
          await git(W1, ["checkout", "-q", "w1"]);
        }
      },
    );

    await t.step("W2 that checks out W1's commit still cannot hand off HEAD", async () => {
      await git(s.dir.W2, ["checkout", "-q", "--detach", a]);
      try {
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "HEAD at W1's commit", sha: "HEAD", path: "proof/w1.md" },
          { label: "HEAD at W1's commit, missing path", sha: "HEAD", path: "proof/none.md" },
        ]);
      } finally {
        await git(s.dir.W2, ["checkout", "-q", "w2"]);
      }
    });

    await t.step(
      "W2 fast-forwarding onto W1's commits (merge --ff-only, rebase, cherry-pick --ff, pull) does not take them",
      async () => {
        const W2 = s.dir.W2;
        const probes = (label: string): Probe[] => [
          { label: `HEAD after ${label}`, sha: "HEAD", path: "proof/w1.md" },
          { label: `W1's later draft after ${label}`, sha: c, path: "proof/w1.md" },
          { label: `W1's frozen commit after ${label}`, sha: a, path: "proof/w1.md" },
        ];
        try {
          await git(W2, ["checkout", "-q", "-b", "w2-ff", s.sha.status]);
          await git(W2, ["merge", "-q", "--ff-only", "w1"]);
          await assertProbesRefused(s, "W2", "Primary", probes("merge --ff-only"));
          await git(W2, ["checkout", "-q", "-B", "w2-ff", s.sha.status]);
          await git(W2, ["rebase", "-q", "w1"]);
          await git(W2, ["checkout", "-q", "--detach", a0]);
          await git(W2, ["cherry-pick", "--ff", a]);
          await git(W2, ["checkout", "-q", "--detach", s.sha.status]);
          await git(W2, ["pull", "-q", "--ff-only", s.dir.Primary, "w1"]);
          await assertProbesRefused(s, "W2", "Primary", probes("rebase, cherry-pick --ff, pull"));
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step("Primary cannot hand W1's commits, or commits built on them, to W2", async () => {
      const h = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen");
      for (const sha of [a, c, primaryOnA, primaryMerge, ghostOnA, tagOnly]) {
        await handoffDenied(s, "Primary", "W2", sha, "proof/w1.md");
      }
      await sendDenied(s, "Primary", "W2", "fwd", "fwd\n", ["--forward", h]);
      await assertLikeMissing(s, "W2", h, (x) => ["read", x]);
      const pub = await handoff(s, "Primary", "W2", s.sha.base, "problem.md", "the problem");
      const own = await handoff(s, "Primary", "W2", b, "proof/w2.md", "your result");
      assertEquals((await inbox(s, "W2")).filter((x) => x === pub || x === own).length, 2);
    });

    await t.step("a lane whose worktree was created at W1's commit does not own it", async () => {
      const w5 = join(s.dir.Primary, LANE_DIR, "W5");
      await git(s.dir.Primary, ["worktree", "add", "-q", "--detach", w5, a]);
      await commitStatus(s, { ...SEALED, extraLanes: [["W5", `${LANE_DIR}/W5`]] });
      const r = await coordIn(
        w5,
        handoffArgs("Primary", NO_SUCH_SHA, "proof/w1.md", "probe"),
        "probe\n",
      );
      assertRefusal(r, "W5 handoff of a nonexistent full SHA");
      for (const sha of ["HEAD", a]) {
        const p = await coordIn(w5, handoffArgs("Primary", sha, "proof/w1.md", "probe"), "probe\n");
        assertEquals(p, r, `W5 handoff of ${sha} (W1's commit it was created at)`);
      }
      await commitStatus(s, SEALED);
    });

    await t.step("nothing W2 can list or read mentions W1's commits or words", async () => {
      const status = await statusText(s, "W2");
      for (const word of ["W1 secret", "W1 private", "W1 frozen", "lemma", p1]) {
        assertExcludes(status, word);
      }
      for (const sha of [a, a0, c, tagOnly, renamed, deleted]) assertExcludes(status, short(sha));
      const all = await everythingVisibleTo(s, "W2");
      for (const sha of [a, a0, c, tagOnly, renamed, deleted]) {
        assertExcludes(all, sha);
        assertExcludes(all, short(sha));
      }
      for (const word of ["W1 secret", "W1 private", "W1 frozen", "lemma", p1]) {
        assertExcludes(all, word);
      }
    });
  });
});
