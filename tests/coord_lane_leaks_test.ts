/**
 * Nothing of a lane leaks to a lane that may not see it: git trace variables and trace
 * targets, status of a work item the caller sees nothing in, a blocker's acknowledgement,
 * stashes, a worktree moved off its lane path, notes, and a fast-forward by cherry-pick.
 * Each test names the leak it closes.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertOk } from "../src/_assert.ts";
import { bin, run } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

/** Run `coord handoff` in a lane's worktree (work item E001, a fixed subject and body). */
function handoff(repo: CoordRepo, lane: Lane, to: string, sha: string, path: string) {
  const args = ["handoff", "E001", "--to", to, "--sha", sha, "--path", path, "--subject", "s"];
  return repo.coord(lane, args, "b\n");
}

/** W2 hands its HEAD's `w2.md` to Primary, with `env` added to its environment. */
function handOffHead(repo: CoordRepo, env: Record<string, string>) {
  const args = ["handoff", "E001", "--to", "Primary", "--sha", "HEAD", "--path", "w2.md"];
  return bin("coord", [...args, "--subject", "x"], { cwd: repo.wt.W2, stdin: "b\n", env });
}

Deno.test("coord: git trace variables set by W2 do not dump W1's reflog to a file W2 chooses", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "s.md": "s\n" }, "W1 secret XYZZY");
    await repo.commit("W2", { "w2.md": "w2\n" }, "W2 work");
    const trace = join(repo.root, "trace");
    const env: Record<string, string> = {};
    for (
      const name of ["GIT_TRACE", "GIT_TRACE_REFS", "GIT_TRACE_SETUP", "GIT_TRACE_PERFORMANCE"]
    ) {
      env[name] = `${trace}.${name}`;
    }
    env.GIT_TRACE2_EVENT = `${trace}.event`;
    const r = await handOffHead(repo, env);
    assertEquals(r.code, 0, r.stderr);
    for (const name of [...Object.keys(env)]) {
      const text = await Deno.readTextFile(env[name]!).catch(() => "");
      assertExcludes(text, secret);
      assertExcludes(text, "XYZZY");
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord: trace targets in a configuration file W2 chooses do not dump W1's reflog either", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "s.md": "s\n" }, "W1 secret XYZZY");
    await repo.commit("W2", { "w2.md": "w2\n" }, "W2 work");
    const trace = join(repo.root, "trace");
    const config = join(repo.root, "w2.gitconfig");
    await Deno.writeTextFile(
      config,
      `[trace2]\n\teventTarget = ${trace}.event\n\tperfTarget = ${trace}.perf\n` +
        `\tnormalTarget = ${trace}.normal\n\tconfigParams = *\n`,
    );
    const r = await handOffHead(repo, { GIT_CONFIG_GLOBAL: config });
    assertEquals(r.code, 0, r.stderr);
    for (const kind of ["event", "perf", "normal"]) {
      const text = await Deno.readTextFile(`${trace}.${kind}`).catch(() => "");
      assertEquals(text, "", `git traced to ${kind}`);
      assertExcludes(text, secret);
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord status does not list a work item in which the caller sees nothing", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    assertEquals(
      (await repo.coord(
        "W1",
        ["send", "W1ProofIsWrong", "--to", "Primary", "--subject", "p"],
        "p\n",
      )).code,
      0,
    );
    for (const lane of ["W2", "W3"] as const) {
      const all = await repo.coord(lane, ["status"]);
      assertEquals(all.code, 0, all.stderr);
      assertExcludes(all.stdout, "W1ProofIsWrong");
      assertExcludes((await repo.coord(lane, ["status", "--json"])).stdout, "W1ProofIsWrong");
      // Named explicitly, it answers exactly like a work item that does not exist.
      const named = await repo.coord(lane, ["status", "W1ProofIsWrong"]);
      const missing = await repo.coord(lane, ["status", "Zzz"]);
      assertEquals(named.stdout.replaceAll("W1ProofIsWrong", "Zzz"), missing.stdout);
    }
    assertOk((await repo.coord("Primary", ["status"])).stdout.includes("W1ProofIsWrong"));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord status: W2 acknowledging a blocker does not change what blind W1 sees", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const id = (await repo.coord("Primary", [
      "send",
      "E002",
      "--to",
      "W1,W2",
      "--type",
      "BLOCKER",
      "--subject",
      "blk",
    ], "b\n"))
      .stdout.trim();
    const before = await repo.coord("W1", ["status", "E002"]);
    assertOk(before.stdout.includes("1 open blockers"), before.stdout);
    assertEquals((await repo.coord("W2", ["ack", id])).code, 0);
    assertEquals((await repo.coord("W1", ["status", "E002"])).stdout, before.stdout);
    // Primary may talk with W2, so it does see the acknowledgement.
    assertOk((await repo.coord("Primary", ["status", "E002"])).stdout.includes("0 open blockers"));
  } finally {
    await repo.cleanup();
  }
});

const REFUSED =
  "refused: artifact not available (it does not resolve, or you may not inspect it)\n";

Deno.test("coord: W2 cannot hand off W1's stashed work (stash commits belong to no lane)", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    await Deno.writeTextFile(join(repo.wt.W1, "src/shared.txt"), "W1 private draft\n");
    await Deno.writeTextFile(join(repo.wt.W1, "draft.md"), "untracked draft\n");
    await repo.git("W1", ["add", "src/shared.txt"]);
    await repo.git("W1", ["stash", "push", "-q", "-u"]);
    const stash = await repo.git("W2", ["rev-parse", "stash@{0}", "stash@{0}^2", "stash@{0}^3"]);
    const missing = await handoff(repo, "W2", "Primary", "f".repeat(40), "x");
    assertEquals(missing.stdout + missing.stderr, REFUSED);
    for (const sha of stash.split("\n")) {
      for (const path of ["src/shared.txt", "draft.md"]) {
        const r = await handoff(repo, "W2", "Primary", sha, path);
        assertEquals([r.code, r.stdout + r.stderr], [missing.code, REFUSED], `${sha} ${path}`);
      }
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord: moving W1's worktree off its lane path does not hand W1's commits to Primary's side", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "proof.md": "W1 proof\n" }, "W1 proof");
    await repo.git("Primary", ["worktree", "move", repo.wt.W1, join(repo.root, "elsewhere")]);
    const r = await handoff(repo, "W2", "Primary", secret, "proof.md");
    assertEquals(r.stdout + r.stderr, REFUSED);
    // Primary still may.
    assertEquals(
      (await handoff(repo, "Primary", "W3", repo.base, "README.md")).code,
      0,
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord: a popped or dropped stash, a removed worktree and notes do not open W1's work", async (t) => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const probe = async (lane: "W2" | "W3", sha: string, path: string) => {
      const r = await handoff(repo, lane, "Primary", sha, path);
      assertEquals(r.stdout + r.stderr, REFUSED, `${lane} ${sha} ${path}`);
    };
    await t.step("popped stash, with its untracked-files commit", async () => {
      await Deno.writeTextFile(join(repo.wt.W1, "src/shared.txt"), "W1 private idea\n");
      await Deno.writeTextFile(join(repo.wt.W1, "idea.md"), "untracked idea\n");
      await repo.git("W1", ["stash", "push", "-q", "-u"]);
      const [wip, index, untracked] =
        (await repo.git("W1", ["rev-parse", "stash@{0}", "stash@{0}^2", "stash@{0}^3"])).split(
          "\n",
        );
      await repo.git("W1", ["stash", "pop", "-q"]);
      for (const lane of ["W2", "W3"] as const) {
        await probe(lane, wip!, "src/shared.txt");
        await probe(lane, index!, "src/shared.txt");
        await probe(lane, untracked!, "idea.md");
        await probe(lane, untracked!, "nosuch.md");
      }
    });
    await t.step("dropped stash entry while another remains", async () => {
      await Deno.writeTextFile(join(repo.wt.W1, "src/shared.txt"), "first\n");
      await repo.git("W1", ["stash", "push", "-q"]);
      await Deno.writeTextFile(join(repo.wt.W1, "src/shared.txt"), "second\n");
      await repo.git("W1", ["stash", "push", "-q"]);
      const top = await repo.git("W1", ["rev-parse", "stash@{0}"]);
      await repo.git("W1", ["stash", "drop", "-q", "stash@{0}"]);
      await probe("W2", top, "src/shared.txt");
    });
    await t.step("notes W1 adds", async () => {
      const mine = await repo.commit("W1", { "n.md": "n\n" }, "W1 noted");
      await repo.git("W1", ["notes", "add", "-m", "W1 private note", mine]);
      const notes = await repo.git("W1", ["rev-parse", "refs/notes/commits"]);
      await probe("W2", notes, mine);
    });
    await t.step("W1's worktree removed", async () => {
      const secret = await repo.commit("W1", { "s1.md": "s1\n" }, "W1 s1");
      await repo.git("Primary", ["worktree", "remove", "--force", repo.wt.W1]);
      await probe("W2", secret, "s1.md");
      await probe("W3", secret, "s1.md");
    });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord: W2 cannot claim a commit no reflog records by fast-forwarding onto it with cherry-pick --ff", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "a.txt": "secret1\n" }, "w1secret");
    await repo.git("Primary", ["worktree", "remove", "--force", repo.wt.W1]);
    const refused = async () => {
      const r = await handoff(repo, "W2", "Primary", secret, "a.txt");
      assertEquals(r.stdout + r.stderr, REFUSED);
    };
    await refused();
    // The fast-forward's entry is dated at the secret's committer time (as a creation's
    // entry would be), so only its message can tell that it created nothing.
    const date = await repo.git("W2", ["log", "-1", "--format=%cI", secret]);
    const ff = await run("git", ["cherry-pick", "--ff", secret], {
      cwd: repo.wt.W2,
      env: { GIT_COMMITTER_DATE: date },
    });
    assertEquals(ff.code, 0, ff.stderr);
    assertEquals(
      await repo.git("W2", ["reflog", "-1", "--format=%gs"]),
      "cherry-pick: fast-forward",
    );
    await repo.git("W2", ["reset", "-q", "--hard", repo.base]);
    await refused();
  } finally {
    await repo.cleanup();
  }
});
