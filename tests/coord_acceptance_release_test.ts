/**
 * Seed 003 acceptance tests D–G for `coord`: W3 before a release, the release, the dialogue
 * after it, and withdrawing it or re-blinding a lane. (A–C: `coord_acceptance_test.ts`.)
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
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { commitAll, git, writeFiles } from "./_helpers.ts";
import { commitStatus, SEALED } from "./_coord_acceptance_fixture.ts";
import {
  assertMessageUnseen,
  assertProbesRefused,
  coord,
  everythingVisibleTo,
  expectId,
  handoff,
  handoffDenied,
  inbox,
  inboxLine,
  read,
  released,
  send,
  sendDenied,
  short,
  statusText,
  WI,
  withScenario,
} from "./_coord_acceptance_run.ts";

// ---------------------------------------------------------------------------------------
// D. W3 before release

Deno.test("coord D: before release W3 sees neither frozen result and Primary cannot forward blind content to W3", async (t) => {
  await withScenario({}, async (s) => {
    const { a, b, primaryOnA, primaryMerge, ghostOnA } = s.sha;
    const h1 = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen result");
    const h2 = await handoff(s, "W2", "Primary", b, "proof/w2.md", "W2 frozen result");
    const m1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");

    await t.step("W3 lists none of it and every id is answered like a missing one", async () => {
      assertEquals(await inbox(s, "W3"), []);
      await assertMessageUnseen(s, "W3", [h1, h2, m1]);
    });

    await t.step("Primary cannot hand off, forward or reply blind content to W3", async () => {
      await handoffDenied(s, "Primary", "W3", a, "proof/w1.md");
      await handoffDenied(s, "Primary", "W3", b, "proof/w2.md");
      await handoffDenied(s, "Primary", "W3", primaryOnA, "proof/w1.md");
      await handoffDenied(s, "Primary", "W3", primaryMerge, "proof/w1.md");
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", h1]);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", h2]);
      assertEquals(await inbox(s, "W3"), []);
      const r = await coord(
        s,
        "Primary",
        ["send", WI, "--to", "W3", "--subject", "about W1", "--reply-to", h1],
        "Primary: wait for the release\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "Primary reply to W1's handoff, to W3", s, "Primary");
        const text = (await read(s, "W3", id)) + (await read(s, "W3", id, true));
        for (const leak of [a, short(a), h1, "W1 frozen result", "please review"]) {
          assertExcludes(text, leak);
        }
      }
    });

    await t.step("sealed lanes and W3 cannot talk directly", async () => {
      await sendDenied(s, "W1", "W3", "hi", "W1 secret lemma text\n");
      await sendDenied(s, "W2", "W3", "hi", "W2 secret\n");
      await sendDenied(s, "W3", "W1", "question", "what is lemma 2?\n");
      await sendDenied(s, "W3", "W2", "question", "what is the bound?\n");
      await sendDenied(s, "W1", "Primary", "cc W3", "W1 secret\n", ["--cc", "W3"]);
      await handoffDenied(s, "W1", "W3", a, "proof/w1.md");
      await handoffDenied(s, "W1", "Primary,W3", a, "proof/w1.md");
      await sendDenied(s, "W1", "Primary,W3", "to both", "W1 secret\n");
      assertEquals(await inbox(s, "Primary"), [h1, h2, m1], "refused sends deliver to nobody");
    });

    await t.step(
      "W3's probes of the frozen results are refused exactly like a missing commit",
      async () => {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-A", sha: a, path: "proof/w1.md" },
          { label: "SHA-A missing path", sha: a, path: "proof/none.md" },
          { label: "SHA-B", sha: b, path: "proof/w2.md" },
          { label: "abbreviated SHA-A", sha: short(a, 10), path: "proof/w1.md" },
          { label: "w1", sha: "w1", path: "proof/w1.md" },
          { label: "Primary on A", sha: primaryOnA, path: "notes/primary.md" },
          { label: "ghost on A", sha: ghostOnA, path: "proof/w1.md" },
        ]);
      },
    );

    await t.step("W3 that checks out SHA-A cannot hand off HEAD before release", async () => {
      await git(s.dir.W3, ["checkout", "-q", "--detach", a]);
      try {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "HEAD at SHA-A", sha: "HEAD", path: "proof/w1.md" },
        ]);
      } finally {
        await git(s.dir.W3, ["checkout", "-q", "w3"]);
      }
    });

    await t.step("W3 still talks with Primary and hands off its own work", async () => {
      const note = await send(s, "Primary", "W3", "wait for release", "Primary: please wait\n");
      const list = await inbox(s, "W3");
      assertOk(list.includes(note), `W3 must list ${note}: ${list}`);
      for (const id of [h1, h2, m1]) assertOk(!list.includes(id));
      const mine = await handoff(s, "W3", "Primary", s.sha.w3, "review/w3.md", "W3 plan");
      assertIncludes(await read(s, "Primary", mine), s.sha.w3);
      const all = await everythingVisibleTo(s, "W3");
      for (const leak of [a, b, short(a), short(b), "W1 secret", "W1 frozen", "W2 frozen"]) {
        assertExcludes(all, leak);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------
// E. Release

Deno.test("coord E: after release of SHA-A and SHA-B W3 sees exactly those, not later drafts and not private history", async (t) => {
  await withScenario({}, async (s) => {
    const { a, a0, b, b0, c, d, tagOnly, renamed, primaryOnA, ghostOnA } = s.sha;
    const m1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");
    const m2 = await send(s, "W2", "Primary", "W2 private derivation", "W2 secret induction\n");
    const h1 = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen to Primary");
    await commitStatus(s, released(["W1", a], ["W2", b]));

    let rA = "";
    let rB = "";
    await t.step("W1, W2 and Primary hand the released commits to W3, who reads them", async () => {
      rA = await handoff(s, "W1", "W3", a, "proof/w1.md", "SHA-A for comparison");
      rB = await handoff(s, "W2", "W3", b, "proof/w2.md", "SHA-B for comparison");
      const pA = await handoff(s, "Primary", "W3", a, "proof/w1.md", "SHA-A from Primary");
      assertEquals((await inbox(s, "W3")).sort(), [rA, rB, pA].sort());
      const ta = await read(s, "W3", rA);
      assertIncludes(ta, a);
      assertIncludes(ta, "proof/w1.md");
      assertIncludes(await read(s, "W3", rB), b);
      const back = await handoff(s, "W3", "Primary", a, "proof/w1.md", "W3 compares SHA-A");
      assertIncludes(await read(s, "Primary", back), a);
      await handoff(s, "W3", "Primary", b, "proof/w2.md", "W3 compares SHA-B");
    });

    await t.step(
      "W3 cannot inspect later drafts, earlier drafts or other W1/W2 commits",
      async () => {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-C (W1 later draft)", sha: c, path: "proof/w1.md" },
          { label: "SHA-D (W2 later draft)", sha: d, path: "proof/w2.md" },
          { label: "W1 draft before SHA-A", sha: a0, path: "proof/w1.md" },
          { label: "W2 draft before SHA-B", sha: b0, path: "proof/w2.md" },
          { label: "W1 tag-only commit", sha: tagOnly, path: "proof/w1-tagonly.md" },
          { label: "W1 renamed-branch commit", sha: renamed, path: "proof/w1-side.md" },
          { label: "SHA-C missing path", sha: c, path: "proof/none.md" },
          { label: "abbreviated SHA-A", sha: short(a), path: "proof/w1.md" },
          { label: "SHA-A~0", sha: `${a}~0`, path: "proof/w1.md" },
          { label: "w1 branch", sha: "w1", path: "proof/w1.md" },
        ]);
        await handoffDenied(s, "W1", "W3", c, "proof/w1.md");
        await handoffDenied(s, "W1", "W3", "HEAD", "proof/w1.md");
        await handoffDenied(s, "W2", "W3", d, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", c, "proof/w1.md");
        await handoffDenied(s, "Primary", "W3", d, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", a0, "proof/w1.md");
      },
    );

    await t.step("historical private W1→Primary and W2→Primary messages stay private", async () => {
      await assertMessageUnseen(s, "W3", [m1, m2, h1], true);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "W1", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "W2", "W3", "fwd", "fwd\n", ["--forward", m2]);
      const r = await coord(
        s,
        "W1",
        ["send", WI, "--to", "W3", "--subject", "context", "--reply-to", m1],
        "see my earlier note\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "W1 reply to its own private message, to W3", s, "W1");
        const text = (await read(s, "W3", id)) + (await read(s, "W3", id, true));
        assertExcludes(text, "W1 secret lemma text");
        assertExcludes(text, "W1 private derivation");
      }
      const all = await everythingVisibleTo(s, "W3");
      for (const leak of ["secret", "private derivation", c, d, a0, b0, short(c), short(d)]) {
        assertExcludes(all, leak);
      }
      const status = await statusText(s, "W3");
      for (const leak of ["secret", "private derivation", "W1 frozen to Primary"]) {
        assertExcludes(status, leak);
      }
    });

    await t.step("the release does not open the blind lanes to each other", async () => {
      await sendDenied(s, "W1", "W2", "now?", "W1 text\n");
      await handoffDenied(s, "W1", "W2", a, "proof/w1.md");
      await handoffDenied(s, "W3", "W1", b, "proof/w2.md");
      await handoffDenied(s, "W3", "W2", a, "proof/w1.md");
      await handoffDenied(s, "Primary", "W2", a, "proof/w1.md");
      await sendDenied(s, "W3", "W1", "fwd", "fwd\n", ["--forward", rB]);
    });

    await t.step(
      "a Primary commit on top of SHA-A is covered by the release; one on SHA-C and reflog-less ones are not",
      async () => {
        const onC = await git(s.dir.Primary, [
          "commit-tree",
          `${c}^{tree}`,
          "-p",
          c,
          "-m",
          "ghost on C",
        ]);
        const ok = await handoff(
          s,
          "Primary",
          "W3",
          primaryOnA,
          "notes/primary.md",
          "Primary on A",
        );
        assertIncludes(await read(s, "W3", ok), primaryOnA);
        // A commit no reflog records may hold any lane's work (a popped stash, a removed
        // worktree's commits): Primary only, even on top of a released commit.
        await handoffDenied(s, "Primary", "W3", ghostOnA, "proof/w1.md");
        await handoffDenied(s, "Primary", "W3", onC, "proof/w1.md");
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "Primary's reflog-less commit on SHA-C", sha: onC, path: "proof/w1.md" },
        ]);
      },
    );
  });
});

// ---------------------------------------------------------------------------------------
// F. Post-release dialogue

Deno.test("coord F: after release W3 challenges W1 and W2 and they reply, while unreleased repairs stay blocked", async (t) => {
  await withScenario({}, async (s) => {
    const { a, b } = s.sha;
    await commitStatus(s, released(["W1", a], ["W2", b]));
    let q1 = "";
    let r1 = "";
    let q2 = "";
    let r2 = "";

    await t.step("W3 ↔ W1 and W3 ↔ W2 challenge and reply", async () => {
      q1 = await send(s, "W3", "W1", "challenge lemma 2", "W3: lemma 2 fails for n=0\n", [
        "--type",
        "QUESTION",
      ]);
      q2 = await send(s, "W3", "W2", "challenge bound", "W3: the bound is loose\n", [
        "--type",
        "QUESTION",
      ]);
      const l1 = await inboxLine(s, "W1", q1);
      assertIncludes(l1, "W3");
      assertIncludes(l1, "QUESTION");
      assertIncludes(await read(s, "W1", q1), "lemma 2 fails for n=0");
      assertIncludes(await read(s, "W2", q2), "the bound is loose");
      r1 = await send(s, "W1", "W3", "re: lemma 2", "W1: n=0 is excluded by hypothesis\n", [
        "--reply-to",
        q1,
        "--provenance",
        "DERIVED_INDEPENDENTLY",
      ]);
      r2 = await send(s, "W2", "W3", "re: bound", "W2: tightened in the appendix\n", [
        "--reply-to",
        q2,
      ]);
      assertEquals((await inbox(s, "W3")).sort(), [r1, r2].sort());
      assertIncludes(await read(s, "W3", r1), "n=0 is excluded by hypothesis");
      assertIncludes(await read(s, "W3", r2), "tightened in the appendix");
    });

    await t.step("each blind lane sees only its own thread", async () => {
      await assertMessageUnseen(s, "W1", [q2, r2]);
      await assertMessageUnseen(s, "W2", [q1, r1]);
    });

    await t.step("W3 cannot carry one blind lane's words or release to the other", async () => {
      await sendDenied(s, "W3", "W1", "fwd", "fwd\n", ["--forward", r2]);
      await sendDenied(s, "W3", "W2", "fwd", "fwd\n", ["--forward", r1]);
      await handoffDenied(s, "W3", "W1", b, "proof/w2.md");
      await handoffDenied(s, "W3", "W2", a, "proof/w1.md");
      const r = await coord(
        s,
        "W3",
        ["send", WI, "--to", "W1", "--subject", "compare", "--reply-to", r2],
        "W3 asks W1 to compare\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "W3 reply to W2's message, sent to W1", s, "W3");
        const text = (await read(s, "W1", id)) + (await read(s, "W1", id, true));
        assertExcludes(text, "tightened in the appendix");
        assertExcludes(text, "re: bound");
      }
      const all = await everythingVisibleTo(s, "W1");
      for (const leak of [b, short(b), "tightened", "the bound is loose"]) {
        assertExcludes(all, leak);
      }
    });

    await t.step(
      "unreleased repair commits stay blocked until they get their own release",
      async () => {
        await writeFiles(s.dir.W1, { "proof/w1.md": "W1 repair: n=0 handled\n" });
        const repair1 = await commitAll(s.dir.W1, "W1 repair after challenge");
        await writeFiles(s.dir.W2, { "proof/w2.md": "W2 repair: tighter bound\n" });
        const repair2 = await commitAll(s.dir.W2, "W2 repair after challenge");
        await handoffDenied(s, "W1", "W3", repair1, "proof/w1.md");
        await handoffDenied(s, "W1", "W3", "HEAD", "proof/w1.md");
        await handoffDenied(s, "W2", "W3", repair2, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", repair1, "proof/w1.md");
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "W1 repair", sha: repair1, path: "proof/w1.md" },
          { label: "W2 repair", sha: repair2, path: "proof/w2.md" },
        ]);
        const ok = await handoff(s, "W1", "W3", a, "proof/w1.md", "still SHA-A");
        assertIncludes(await read(s, "W3", ok), a);

        await commitStatus(s, released(["W1", a], ["W1", repair1], ["W2", b]));
        const rel = await handoff(s, "W1", "W3", repair1, "proof/w1.md", "repair, released");
        assertIncludes(await read(s, "W3", rel), repair1);
        await handoffDenied(s, "W2", "W3", repair2, "proof/w2.md");
      },
    );
  });
});

// ---------------------------------------------------------------------------------------
// G. Withdraw / re-blind

Deno.test("coord G: withdrawing a release or re-blinding a lane hides earlier messages at the next read", async (t) => {
  await withScenario({}, async (s) => {
    const { a, c } = s.sha;
    await commitStatus(s, released(["W1", a]));
    const n1 = await send(s, "W1", "W3", "note after release", "W1 note for W3\n");
    const h1 = await handoff(s, "W1", "W3", a, "proof/w1.md", "SHA-A for W3");

    await t.step("while released W3 reads and acks both", async () => {
      assertEquals((await inbox(s, "W3")).sort(), [n1, h1].sort());
      assertIncludes(await read(s, "W3", h1), a);
      assertIncludes(await read(s, "W3", n1), "W1 note for W3");
      assertEquals((await coord(s, "W3", ["ack", n1])).code, 0);
    });

    await t.step(
      "removing the released line hides the note and the handoff like missing ids",
      async () => {
        await commitStatus(s, SEALED);
        assertEquals(await inbox(s, "W3"), []);
        await assertMessageUnseen(s, "W3", [n1, h1]);
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-A after withdrawal", sha: a, path: "proof/w1.md" },
        ]);
        await sendDenied(s, "W3", "W1", "still there?", "W3 asks\n");
      },
    );

    await t.step("releasing again shows them again", async () => {
      await commitStatus(s, released(["W1", a]));
      assertEquals((await inbox(s, "W3")).sort(), [n1, h1].sort());
      assertIncludes(await read(s, "W3", h1), a);
    });

    await t.step(
      "a release moved to another commit keeps the channel but hides the old artifact",
      async () => {
        await commitStatus(s, released(["W1", c]));
        assertEquals(await inbox(s, "W3"), [n1]);
        await assertMessageUnseen(s, "W3", h1);
        assertIncludes(await read(s, "W3", n1), "W1 note for W3");
      },
    );

    await t.step("lifting W1 and re-blinding it takes effect at the next read", async () => {
      await commitStatus(s, { blind: ["W2"], released: [] });
      const n2 = await send(s, "W1", "W3", "lifted note", "W1 lifted words\n");
      assertIncludes(await read(s, "W3", n2), "W1 lifted words");
      await commitStatus(s, SEALED);
      await assertMessageUnseen(s, "W3", [n2, n1]);
      assertEquals(await inbox(s, "W3"), []);
    });

    await t.step("a Primary forward stays readable only while the original is", async () => {
      await commitStatus(s, released(["W1", a]));
      const m = await send(s, "W1", "Primary,W3", "to both", "W1 words for both\n");
      const f = await send(s, "Primary", "W3", "fwd", "Primary forwards\n", ["--forward", m]);
      assertIncludes(await read(s, "W3", f), "Primary forwards");
      await commitStatus(s, SEALED);
      await assertMessageUnseen(s, "W3", f);
      assertEquals(await inbox(s, "W3"), []);
      await commitStatus(s, released(["W1", a]));
      assertIncludes(await read(s, "W3", f), "Primary forwards");
    });
  });
});
