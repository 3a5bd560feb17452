/**
 * Regression tests for findings 11–14 of the worktree-mode review
 * (docs/reviews/worktree-1/): verify's harness form fails closed when the parent's
 * repository cannot be resolved (14), claims are compared with the exact path bytes (11),
 * the working context of a spawned child describes the child's worktree (12), and an
 * intent-to-add entry is carried while a failed spawn leaves nothing behind (13).
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";
import { linkedWorktrees, removeWorktrees } from "./_worktree_fixture.ts";

/** A parent with a staged edit, an unstaged edit and an untracked file. */
async function parentRepo(): Promise<string> {
  const parent = await makeRepo({
    files: { "a.txt": "one\ntwo\n", "b.txt": "keep\n", ".gitignore": "*.env\n" },
  });
  await writeFiles(parent, { "a.txt": "one\ntwo\nstaged\n" });
  await git(parent, ["add", "a.txt"]);
  await writeFiles(parent, { "b.txt": "keep\nunstaged\n", "u.txt": "untracked\n" });
  return parent;
}

async function cleanup(parent: string, ...dirs: string[]): Promise<void> {
  try {
    await removeWorktrees(parent);
  } finally {
    for (const dir of [parent, ...dirs]) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
}

// ---------------------------------------------------------------------------------------
// Finding 14: the harness form matches only when "same repository" is established.

/** A linked worktree of `repo` at `wt` holding exactly the seed's state. */
async function seededWorktree(repo: string, wt: string, seed: string, head: string) {
  await git(repo, ["worktree", "add", "-q", "--detach", wt, head]);
  await git(wt, ["read-tree", "--reset", "-u", `${seed}^{tree}`]);
  await git(wt, ["read-tree", `${seed}^2^{tree}`]);
}

Deno.test("harness form: a clone's worktree is foreign, and stays a mismatch once the parent's directory is gone; the parent's own worktree then cannot be confirmed either", async () => {
  const parent = await parentRepo();
  const work = await tempDir("tether-wt14-");
  try {
    await writeFiles(parent, { "scratch/n.txt": "notes\n" });
    const hs = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: join(parent, "scratch"),
      stdin: "task\n",
    });
    assertEquals(hs.code, 0, hs.stderr);
    const prompt = hs.stdout;
    const seed = /^seed: (\S+)$/m.exec(prompt)![1]!;
    const head = await git(parent, ["rev-parse", "HEAD"]);
    // A harness that makes the child's worktree in a clone sharing the objects.
    await git(work, ["clone", "-q", "--shared", parent, join(work, "clone")]);
    await seededWorktree(join(work, "clone"), join(work, "cw"), seed, head);
    // An honest harness worktree of the parent's own repository.
    await seededWorktree(parent, join(work, "own"), seed, head);
    const ownOk = await bin("verify", [], { cwd: join(work, "own", "scratch"), stdin: prompt });
    assertEquals(ownOk.code, 0, ownOk.stdout);
    const present = await bin("verify", [], { cwd: join(work, "cw", "scratch"), stdin: prompt });
    assertEquals(present.code, 1, present.stdout);
    assertIncludes(present.stdout, "foreign worktree: ");

    await Deno.remove(join(parent, "scratch"), { recursive: true });
    const gone = await bin("verify", [], { cwd: join(work, "cw", "scratch"), stdin: prompt });
    assertEquals(gone.code, 1, gone.stdout);
    assertIncludes(gone.stdout, "**Diverged fields:** worktree_path\n");
    assertIncludes(gone.stdout, "unconfirmed repository: ");
    const json = await bin("verify", ["--json"], {
      cwd: join(work, "cw", "scratch"),
      stdin: prompt,
    });
    assertEquals(JSON.parse(json.stdout).status, "mismatch");
    // Fail closed: without the parent's directory nothing shows which repository is the
    // parent's, so even its own linked worktree is not confirmed.
    const own = await bin("verify", [], { cwd: join(work, "own", "scratch"), stdin: prompt });
    assertEquals(own.code, 1, own.stdout);
    assertIncludes(own.stdout, "unconfirmed repository: ");
  } finally {
    await git(join(work, "clone"), ["worktree", "remove", "--force", join(work, "cw")]).catch(
      () => {},
    );
    await cleanup(parent, work);
  }
});

Deno.test("harness form: GIT_DIR in the child's environment does not make the parent's directory report the child's repository", async () => {
  const parent = await parentRepo();
  const work = await tempDir("tether-wt14-");
  try {
    const hs = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: parent,
      stdin: "task\n",
    });
    assertEquals(hs.code, 0, hs.stderr);
    const seed = /^seed: (\S+)$/m.exec(hs.stdout)![1]!;
    const head = await git(parent, ["rev-parse", "HEAD"]);
    await git(work, ["clone", "-q", "--shared", parent, join(work, "clone")]);
    const cw = join(work, "cw");
    await seededWorktree(join(work, "clone"), cw, seed, head);
    const gitDir = await git(cw, ["rev-parse", "--absolute-git-dir"]);
    const r = await bin("verify", [], {
      cwd: cw,
      stdin: hs.stdout,
      env: { GIT_DIR: gitDir, GIT_WORK_TREE: cw },
    });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "foreign worktree: ");
  } finally {
    await git(join(work, "clone"), ["worktree", "remove", "--force", join(work, "cw")]).catch(
      () => {},
    );
    await cleanup(parent, work);
  }
});

// ---------------------------------------------------------------------------------------
// Finding 11: a claim covers exactly the one path whose bytes it names.

/** Spawn one child of `parent` at `dir`; its path and seed. */
async function spawnOne(parent: string, dir: string): Promise<{ path: string; seed: string }> {
  const r = await bin("handshake", ["--worktree", dir, "--json"], { cwd: parent });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return { path: doc.worktrees[0].path, seed: doc.seed };
}

/** `--seed ID` when this build's gate takes it (the parent's record of the seed). */
async function seedArgs(seed: string): Promise<string[]> {
  const help = await bin("gate", ["--help"]);
  return help.stdout.includes("--seed") ? ["--seed", seed] : [];
}

async function landResult(parent: string, child: { path: string; seed: string }, files: string[]) {
  const head = await git(parent, ["rev-parse", "HEAD"]);
  const text = JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "commit", ref: head, ok: true }],
  });
  return await bin(
    "gate",
    ["--worktree", child.path, ...await seedArgs(child.seed), "--land", "--json"],
    { cwd: parent, stdin: text },
  );
}

/** The parent's untracked and changed paths, as raw bytes in octal escapes. */
async function parentPaths(parent: string): Promise<string> {
  const r = await run("bash", ["-c", "git status --porcelain -z | od -An -c"], { cwd: parent });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout.replace(/\s+/g, " ");
}

Deno.test("gate --worktree: one claim cannot cover two file names that are not UTF-8 (x\\377, x\\376); nothing lands", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt11-");
  try {
    const child = await spawnOne(parent, join(kids, "c"));
    const made = await run("bash", [
      "-c",
      `printf 'disclosed\\n' > "$(printf 'x\\377')"; printf 'payload\\n' > "$(printf 'x\\376')"`,
    ], { cwd: child.path });
    assertEquals(made.code, 0, made.stderr);
    const before = await parentPaths(parent);
    const r = await landResult(parent, child, ["x\ufffd"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "reject");
    assertEquals(doc.land, undefined);
    assertEquals(doc.changes.confirmed, []);
    assertEquals(doc.changes.observed_unclaimed.length, 2);
    assertOk(
      doc.reasons.some((x: string) =>
        x.startsWith("Changes in the child's worktree that it did not claim: ")
      ),
      doc.reasons,
    );
    assertEquals(await parentPaths(parent), before);
    assertEquals(before.includes("377") || before.includes("376"), false);
    // A claim naming the exact bytes (U+DC80 + byte, as gate reports them) confirms one
    // path each, so both named land and nothing else.
    const exact = await landResult(parent, child, doc.changes.observed_unclaimed);
    assertEquals(exact.code, 0, exact.stdout + exact.stderr);
    assertEquals(JSON.parse(exact.stdout).land.paths.length, 2);
    const after = await parentPaths(parent);
    assertIncludes(after, "x 377");
    assertIncludes(after, "x 376");
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("gate --worktree: a byte-order mark at the start of git's output does not merge two names (\\uFEFF😀 and 😀)", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt11-");
  try {
    const child = await spawnOne(parent, join(kids, "c"));
    await writeFiles(child.path, { "😀": "disclosed\n", "\uFEFF😀": "payload\n" });
    const r = await landResult(parent, child, ["😀"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.changes.confirmed, ["😀"]);
    assertEquals(doc.changes.observed_unclaimed, ["\uFEFF😀"]);
    assertEquals(doc.land, undefined);
    assertEquals(await git(parent, ["status", "--porcelain", "--", "*😀"]), "");
  } finally {
    await cleanup(parent, kids);
  }
});
