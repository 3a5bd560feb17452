/**
 * `gate --worktree DIR --seed ID` finds the child from the parent's side and acts only on
 * what spawn made for it: regressions for the worktree-mode review (docs/reviews/worktree-1,
 * findings 2, 4, 5, 7, 9), through the real entry points (`--allow-run=git` only). The
 * child is hostile and uses plain git and the file system in its own worktree.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, writeFiles } from "./_helpers.ts";
import {
  claimResult as result,
  dirtyFamily,
  exists,
  spawnChildren as spawn,
  treeFacts,
} from "./_worktree_fixture.ts";

Deno.test("a child's symlinks at the old land index names (its git dir) change neither the parent's index nor a file they name (finding 2)", async () => {
  const f = await dirtyFamily();
  try {
    const [[child], seed] = await spawn(f, "c");
    const victim = join(f.kids, "victim.txt");
    await Deno.writeTextFile(victim, "victim\n");
    await writeFiles(child!, { "child.txt": "child\n" });
    const gitDir = await git(child!, ["rev-parse", "--path-format=absolute", "--git-dir"]);
    const index = join(f.parent, ".git", "index");
    await Deno.symlink(index, join(gitDir, "tether-land-index"));
    await Deno.symlink(victim, join(gitDir, "tether-land-index-staged"));
    const before = await Deno.readFile(index);
    const facts = await treeFacts(f.parent);
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("child.txt"),
    });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: child.txt\n");
    assertEquals(await Deno.readFile(index), before);
    assertEquals(await Deno.readTextFile(victim), "victim\n");
    assertEquals((await treeFacts(f.parent)).staged, facts.staged);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child whose core.worktree names another worktree is refused (exit 3): that worktree is neither judged, landed nor removed (finding 4)", async () => {
  const f = await dirtyFamily();
  try {
    const feature = join(f.kids, "feature");
    await git(f.parent, ["worktree", "add", "-q", "-b", "feature", feature]);
    await writeFiles(feature, { "design.md": "a week of work\n" });
    const [[child], seed] = await spawn(f, "c");
    await git(child!, ["sparse-checkout", "set", "--no-cone", "/*"]);
    await git(child!, ["config", "--worktree", "core.worktree", feature]);
    const before = await treeFacts(f.parent);
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("design.md", "a.txt"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `reports top level "${feature}"`);
    assertEquals(r.stdout, "");
    assertEquals(await Deno.readTextFile(join(feature, "design.md")), "a week of work\n");
    assertEquals(await exists(join(f.parent, "design.md")), false);
    assertEquals(await treeFacts(f.parent), before);
    assertOk(await exists(child!));
  } finally {
    await git(f.parent, ["config", "--unset", "extensions.worktreeConfig"]).catch(() => "");
    await f.cleanup();
  }
});

Deno.test("the seed comes from the parent: a forged spawn ref, another spawn's seed and a missing --seed are refused and nothing lands (finding 5)", async () => {
  const f = await dirtyFamily();
  try {
    const [[child], seed] = await spawn(f, "c");
    await writeFiles(f.parent, { "notes.txt": "parent notes, new since the spawn\n" });
    const [[other], otherSeed] = await spawn(f, "other");
    // The child points its spawn ref at a seed-shaped commit of its own making.
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const spawnRef = `refs/tether/spawned/${branch.slice("tether/".length)}`;
    const forged = await git(child!, [
      "commit-tree",
      "-p",
      `${seed}^1`,
      "-p",
      `${seed}^2`,
      "-m",
      "x",
      `${seed}^{tree}`,
    ]);
    await git(child!, ["update-ref", spawnRef, forged]);
    const before = await treeFacts(f.parent);
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("notes.txt"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `The spawn ref ${spawnRef} does not point at the seed ${seed}`);
    assertEquals(await treeFacts(f.parent), before);
    // The right worktree with another spawn's seed: its branch is not that seed's.
    const wrong = await bin("gate", ["--worktree", other!, "--seed", seed], {
      cwd: f.parent,
      stdin: result("notes.txt"),
    });
    assertEquals(wrong.code, 3, wrong.stdout + wrong.stderr);
    assertIncludes(
      wrong.stderr,
      `not a branch handshake --worktree made for seed ${seed.slice(0, 12)}`,
    );
    assertOk(otherSeed !== seed);
    const none = await bin("gate", ["--worktree", other!], { cwd: f.parent, stdin: result("x") });
    assertEquals(none.code, 2);
    assertIncludes(none.stderr, "--worktree needs --seed ID");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child that checks out its sibling's branch is refused and never removes it; the sibling lands once the intruder is gone (finding 7)", async () => {
  const f = await dirtyFamily();
  try {
    const [[one, two], seed] = await spawn(f, "batch", 2);
    const branch2 = await git(two!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const spawnRef2 = `refs/tether/spawned/${branch2.slice("tether/".length)}`;
    await writeFiles(two!, { "c2.txt": "c2 work\n" });
    await git(two!, ["add", "c2.txt"]);
    await git(two!, ["commit", "-q", "-m", "c2 work"]);
    const tip2 = await git(f.parent, ["rev-parse", `refs/heads/${branch2}`]);
    await writeFiles(one!, { "c1.txt": "c1 work\n" });
    await git(one!, ["symbolic-ref", "HEAD", `refs/heads/${branch2}`]);
    const r = await bin("gate", ["--worktree", one!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("c1.txt"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `its branch ${branch2} is also checked out at "${two}"`);
    assertEquals(await exists(join(f.parent, "c1.txt")), false);
    assertEquals(await git(f.parent, ["rev-parse", `refs/heads/${branch2}`]), tip2);
    assertEquals(await git(f.parent, ["rev-parse", spawnRef2]), seed);
    await git(f.parent, ["worktree", "remove", "--force", "--force", one!]);
    const l2 = await bin("gate", ["--worktree", two!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("c2.txt"),
    });
    assertEquals(l2.code, 0, l2.stdout + l2.stderr);
    assertIncludes(l2.stdout, "landed: 1 path: c2.txt\nremoved: worktree and branch\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child that rewrites its gitdir file is refused before anything lands (finding 9)", async () => {
  const f = await dirtyFamily();
  try {
    const [[child], seed] = await spawn(f, "c");
    await writeFiles(child!, { "child.txt": "child\n" });
    const gitDir = await git(child!, ["rev-parse", "--path-format=absolute", "--git-dir"]);
    await Deno.writeTextFile(join(gitDir, "gitdir"), join(f.kids, "elsewhere", ".git") + "\n");
    const before = await treeFacts(f.parent);
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("child.txt"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "git worktree list has no worktree at");
    assertEquals(await treeFacts(f.parent), before);
    assertEquals(await exists(join(f.parent, "child.txt")), false);
    await Deno.writeTextFile(join(gitDir, "gitdir"), join(child!, ".git") + "\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a land whose clean-up fails is still reported as landed (exit 0, the paths, a warning naming what stays), never as not evaluated (finding 9)", async () => {
  const f = await dirtyFamily();
  try {
    const [[child], seed] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    await writeFiles(child!, { "child.txt": "child\n" });
    // The child holds its branch's lock, so the branch cannot be deleted after the land.
    const lock = join(f.parent, ".git", "refs", "heads", `${branch}.lock`);
    await Deno.writeTextFile(lock, "");
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land", "--json"], {
      cwd: f.parent,
      stdin: result("child.txt"),
    });
    await Deno.remove(lock);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "accept");
    assertEquals(doc.land.status, "landed");
    assertEquals(doc.land.paths, ["child.txt"]);
    assertEquals(doc.land.removed, false);
    assertEquals(doc.land.not_removed.length, 1);
    assertIncludes(doc.land.not_removed[0], `the branch ${branch} (`);
    assertIncludes(
      r.stderr,
      `warning: after the land, tether could not remove: the branch ${branch}`,
    );
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertEquals(await Deno.readTextFile(join(f.parent, "child.txt")), "child\n");
    assertEquals(await exists(child!), false);
    // The spawn ref stays with the branch it names.
    assertEquals(
      await git(f.parent, ["rev-parse", `refs/tether/spawned/${branch.slice(7)}`]),
      seed,
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("a worktree that cannot be removed after a land keeps its branch and spawn ref, and the human report says so", async () => {
  const f = await dirtyFamily();
  try {
    const [[child], seed] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    await writeFiles(child!, { "child.txt": "child\n" });
    // The child's .git names an admin dir of its own making that git worktree list does
    // not know: reading works, but `git worktree remove` refuses the worktree.
    const gitDir = await git(child!, ["rev-parse", "--path-format=absolute", "--git-dir"]);
    const fake = `${gitDir}-fake`;
    await Deno.mkdir(fake);
    for (const name of ["HEAD", "commondir", "index"]) {
      await Deno.copyFile(join(gitDir, name), join(fake, name));
    }
    await Deno.writeTextFile(join(child!, ".git"), `gitdir: ${fake}\n`);
    const r = await bin("gate", ["--worktree", child!, "--seed", seed, "--land"], {
      cwd: f.parent,
      stdin: result("child.txt"),
    });
    await Deno.writeTextFile(join(child!, ".git"), `gitdir: ${gitDir}\n`);
    await Deno.remove(fake, { recursive: true });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: child.txt\nnot removed: the worktree ");
    assertIncludes(r.stdout, `; the branch ${branch} (checked out at "${child}")`);
    assertIncludes(r.stderr, "warning: after the land, tether could not remove: the worktree ");
    assertEquals(await Deno.readTextFile(join(f.parent, "child.txt")), "child\n");
    assertEquals(
      await git(f.parent, ["rev-parse", "--abbrev-ref", `refs/heads/${branch}`]),
      branch,
    );
    assertEquals(
      await git(f.parent, ["rev-parse", `refs/tether/spawned/${branch.slice(7)}`]),
      seed,
    );
  } finally {
    await f.cleanup();
  }
});
