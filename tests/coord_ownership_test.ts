/**
 * The ownership rule: a lane owns only the commits it made. A pull's arguments, a commit
 * re-created bit for bit, a creation entry written long after its commit, a commit its HEAD
 * has already been at, and an amend of a commit it may not inspect own nothing. Each test
 * names the attack it closes; every attack uses branch names only (what `git branch` lists),
 * never another lane's commit id.
 *
 * @module
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { run } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

const REFUSED =
  "refused: artifact not available (it does not resolve, or you may not inspect it)\n";

/** A commit time long before any test runs, so that "now" is always far from it. */
const LONG_AGO = "2020-01-01T00:00:00Z";

/** Run `coord handoff` in a lane's worktree (work item E001, a fixed subject and body). */
function handoff(repo: CoordRepo, lane: Lane, sha: string, path: string) {
  const args = ["handoff", "E001", "--to", "Primary", "--sha", sha, "--path", path];
  return repo.coord(lane, [...args, "--subject", "s"], "b\n");
}

/** Assert a handoff went through (it printed a message id). */
async function handsOff(repo: CoordRepo, lane: Lane, sha: string, path: string, what: string) {
  const r = await handoff(repo, lane, sha, path);
  assertEquals([r.code, r.stderr], [0, ""], what);
  assertOk(/^E001-M\d{4}\n$/.test(r.stdout), what);
}

/** Assert a handoff got the single artifact refusal. */
async function refused(repo: CoordRepo, lane: Lane, sha: string, path: string, what: string) {
  const r = await handoff(repo, lane, sha, path);
  assertEquals([r.code, r.stdout, r.stderr], [4, "", REFUSED], what);
}

/** Run git in a lane's worktree with extra environment (dates, reflog action). */
async function gitEnv(
  repo: CoordRepo,
  lane: Lane,
  args: string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<string> {
  const r = await run("git", args, {
    cwd: repo.wt[lane],
    ...(stdin === undefined ? {} : { stdin }),
    env: {
      GIT_AUTHOR_NAME: "Fixture",
      GIT_AUTHOR_EMAIL: "fixture@example.invalid",
      GIT_COMMITTER_NAME: "Fixture",
      GIT_COMMITTER_EMAIL: "fixture@example.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_EDITOR: "true",
      ...env,
    },
  });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

/** W1's secret commit A, committed long ago (author and committer date), on branch w1. */
async function oldSecret(repo: CoordRepo): Promise<string> {
  await Deno.mkdir(`${repo.wt.W1}/proof`, { recursive: true });
  await Deno.writeTextFile(`${repo.wt.W1}/proof/w1.md`, "W1 secret: the answer is 42\n");
  await gitEnv(repo, "W1", ["add", "-A"]);
  const dates = { GIT_AUTHOR_DATE: LONG_AGO, GIT_COMMITTER_DATE: LONG_AGO };
  await gitEnv(repo, "W1", ["commit", "-q", "-m", "W1 secret draft"], dates);
  return await repo.git("W1", ["rev-parse", "HEAD"]);
}

/** W1's stash-like WIP X on branch w1-wip, built with plumbing: no reflog records its creation. */
async function wipOnBranch(repo: CoordRepo): Promise<string> {
  await Deno.writeTextFile(`${repo.wt.W1}/wip.md`, "stash-like WIP of W1\n");
  const blob = await repo.git("W1", ["hash-object", "-w", "wip.md"]);
  await Deno.remove(`${repo.wt.W1}/wip.md`);
  const listing = await repo.git("W1", ["ls-tree", repo.base]);
  const tree = await gitEnv(
    repo,
    "W1",
    ["mktree"],
    {},
    `${listing}\n100644 blob ${blob}\twip.md\n`,
  );
  const x = await gitEnv(repo, "W1", ["commit-tree", tree, "-p", repo.base, "-m", "wip"]);
  await repo.git("W1", ["update-ref", "refs/heads/w1-wip", x]);
  return x;
}

Deno.test("a git pull's arguments cannot make a fast-forward read as a rebase pick", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 secret\n" }, "W1 secret draft");
    const x = await wipOnBranch(repo);
    await refused(repo, "W2", x, "wip.md", "before: no reflog records X");
    // Gain: a fast-forward to X whose message holds " (pick): ", its entry even dated at
    // X's committer time as a creation's would be.
    const pull = ["pull", "-q", "--ff-only", "-X", "theirs (pick): x", "."];
    const dated = async (branch: string) => ({
      GIT_COMMITTER_DATE: await repo.git("W2", ["log", "-1", "--format=%cI", branch]),
    });
    await repo.git("W2", ["checkout", "-q", "--detach", repo.base]);
    await gitEnv(repo, "W2", [...pull, "w1-wip"], await dated("w1-wip"));
    assertEquals(await repo.git("W2", ["rev-parse", "HEAD"]), x, "precondition: W2 is at X");
    await refused(repo, "W2", x, "wip.md", "after W2's pull: it made nothing");
    // Denial: the same against W1's live commit A must not contest it.
    await repo.git("W2", ["checkout", "-q", "--detach", "w1~1"]);
    await gitEnv(repo, "W2", [...pull, "w1"], await dated("w1"));
    await handsOff(repo, "W1", a, "proof/w1.md", "W1 keeps its own A");
    await refused(repo, "W2", a, "proof/w1.md", "W2 gets nothing");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a pull's own creations own nothing, whatever its arguments", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 secret\n" }, "W1 secret draft");
    // A real merge made by pull: `pull <arguments>: Merge made by …` carries what the caller
    // typed, so it is no creation git alone wrote (Primary's only, fail closed).
    await repo.commit("W2", { "w2.md": "W2 work\n" }, "W2 work");
    await repo.git("W2", ["pull", "-q", "--no-rebase", "--no-edit", ".", "main"]);
    const merged = await repo.git("W2", ["rev-parse", "HEAD"]);
    assertEquals(
      (await repo.git("W2", ["rev-list", "--parents", "-1", "HEAD"])).split(" ").length,
      3,
    );
    await refused(repo, "W2", merged, "w2.md", "a pull's merge is no lane's");
    await handsOff(repo, "W1", a, "proof/w1.md", "W1 is untouched");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("re-creating another lane's commit bit for bit from its branch takes nothing and contests nothing", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await oldSecret(repo);
    await repo.setStatus(`blind: W1 W2\nreleased: W1 ${a}\n`);
    await handsOff(repo, "W1", a, "proof/w1.md", "before: W1's own A");
    await handsOff(repo, "W3", a, "proof/w1.md", "before: W3 reads released A");
    await gitEnv(repo, "W3", ["checkout", "-q", "-b", "copy", "w1"]);
    await gitEnv(repo, "W3", [
      "rebase",
      "-q",
      "--force-rebase",
      "--committer-date-is-author-date",
      "w1~1",
    ]);
    assertEquals(await repo.git("W3", ["rev-parse", "HEAD"]), a, "precondition: A re-created");
    await handsOff(repo, "W1", a, "proof/w1.md", "after: W1 keeps its own A");
    await handsOff(repo, "W3", a, "proof/w1.md", "after: W3 still reads released A");
    // Gain: W2 re-creates W1's unrecorded X and would be its only maker.
    const x = await wipOnBranch(repo);
    await gitEnv(repo, "W2", ["checkout", "-q", "-b", "take", "w1-wip"]);
    await gitEnv(repo, "W2", [
      "rebase",
      "-q",
      "--force-rebase",
      "--committer-date-is-author-date",
      repo.base,
    ]);
    assertEquals(await repo.git("W2", ["rev-parse", "HEAD"]), x, "precondition: X re-created");
    await refused(repo, "W2", x, "wip.md", "W2 is still refused X");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a creation entry written long after its commit was committed is none", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await oldSecret(repo);
    // A forged creation message on a move to W1's A from its parent (branch names only):
    // consistent with A's parents and W3's first visit of A, but written now, years after
    // A was committed.
    await gitEnv(repo, "W3", ["checkout", "-q", "--detach", "w1~1"]);
    await gitEnv(repo, "W3", ["checkout", "-q", "--detach", "w1"], {
      GIT_REFLOG_ACTION: "commit: mine",
    });
    assertEquals(
      await repo.git("W3", ["log", "-g", "-1", "--format=%gs", "HEAD"]),
      "commit: mine",
      "precondition: the forged message",
    );
    await handsOff(repo, "W1", a, "proof/w1.md", "W1 keeps its own A");
    await refused(repo, "W3", a, "proof/w1.md", "W3 gets nothing");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a lane cannot create a commit its HEAD has already been at", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await oldSecret(repo);
    // W3 visits A, then picks it again from its parent with A's own committer date: the
    // pick's entry matches A's time and parents, but W3's HEAD was at A before.
    await gitEnv(repo, "W3", ["checkout", "-q", "--detach", "w1"]);
    await gitEnv(repo, "W3", ["checkout", "-q", "--detach", "w1~1"]);
    await gitEnv(repo, "W3", ["cherry-pick", "w1"], { GIT_COMMITTER_DATE: LONG_AGO });
    assertEquals(await repo.git("W3", ["rev-parse", "HEAD"]), a, "precondition: A re-created");
    await handsOff(repo, "W1", a, "proof/w1.md", "W1 keeps its own A");
    await refused(repo, "W3", a, "proof/w1.md", "W3 gets nothing");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("amending a commit the lane may not inspect makes nothing it may inspect", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1\n" });
  try {
    const a = await oldSecret(repo);
    await refused(repo, "W3", a, "proof/w1.md", "W3 may not inspect A");
    await repo.git("W3", ["reset", "-q", "--hard", "w1"]);
    await gitEnv(repo, "W3", ["commit", "-q", "--amend", "--no-edit"]);
    const a2 = await repo.git("W3", ["rev-parse", "HEAD"]);
    assertOk(a2 !== a, "precondition: a new commit");
    assertEquals(
      await repo.git("W3", ["rev-parse", `${a2}^{tree}`]),
      await repo.git("W3", ["rev-parse", `${a}^{tree}`]),
    );
    await refused(repo, "W3", a2, "proof/w1.md", "W3 is refused A' as it is refused A");
    // W3's own work built on A' is refused too; W3's amend of its own commit is its own.
    await repo.git("W3", ["checkout", "-q", "--detach", repo.base]);
    const own = await repo.commit("W3", { "w3.md": "W3 draft\n" }, "W3 draft");
    await gitEnv(repo, "W3", ["commit", "-q", "--amend", "-m", "W3 work"]);
    const amended = await repo.git("W3", ["rev-parse", "HEAD"]);
    assertOk(amended !== own, "precondition: a new commit");
    await handsOff(repo, "W3", amended, "w3.md", "W3's amend of its own commit");
    // Once W1 releases A, the amend of A is W3's to show (it starts from a released commit).
    await repo.setStatus(`blind: W1\nreleased: W1 ${a}\n`);
    await handsOff(repo, "W3", a2, "proof/w1.md", "after A's release");
  } finally {
    await repo.cleanup();
  }
});
