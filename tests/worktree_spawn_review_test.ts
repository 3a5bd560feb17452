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
