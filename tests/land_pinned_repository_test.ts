/**
 * The land's git calls cannot be moved to another work tree or repository by what a child
 * writes into the shared `.git` (a `core.worktree` in the config, a `commondir` file in the
 * parent's git dir), through the real binaries. Each race is a git shim that plants the
 * attack when one exact call of the land starts or ends (tests/_land_race_fixture.ts), so it
 * is won every time.
 *
 * - a `core.worktree` written as the checkout starts: the files land in the parent (never
 *   the decoy), and the run ends exit 3 saying what git now finds.
 * - a link turned into a plain file after the checkout, with a decoy work tree holding the
 *   link: the read-back reads the parent's file, exit 3, undone.
 * - a `commondir` file in the parent's git dir before the run: refused.
 * - one written during the run, before the checkout: refused, nothing landed.
 * - a parent that is itself a linked worktree still lands (no false halt), and its own
 *   admin dir's `commondir` rewritten during the run is caught the same way.
 * - the same pins in shared mode (`gate --since`: a `core.worktree` planted by the agent)
 *   and in a spawn (a `commondir` file in the parent's git dir).
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, makeRepo, tempDir, writeFiles } from "./_helpers.ts";
import { gate, result as gateResult, spawn as contextSpawn } from "./_gate_fixture.ts";
import { exists, family, land, raceAt, spawn, TEN, text } from "./_land_race_fixture.ts";

Deno.test("a core.worktree written into the shared config as the checkout starts does not move it", async () => {
  const f = await family();
  const decoy = await tempDir("tether-decoy-");
  await Deno.writeTextFile(join(decoy, "f.txt"), TEN);
  const shim = await raceAt("read-tree -m -u", `"$REAL" config core.worktree '${decoy}'`);
  f.undo.push(() => git(f.parent, ["config", "--unset", "core.worktree"]));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "now finds the work tree");
    assertIncludes(r.stderr, decoy);
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n", "not landed in the parent");
    assertEquals(await text(decoy, "f.txt"), TEN, "the checkout wrote into the decoy");
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(decoy, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a link checked out as a file is caught with a decoy work tree holding the link, and undone", async () => {
  const f = await family();
  const decoy = await tempDir("tether-decoy-");
  await Deno.writeTextFile(join(decoy, "f.txt"), TEN);
  await Deno.symlink("f.txt", join(decoy, "l"));
  // After the checkout: the link becomes a plain file holding its target (what
  // core.symlinks=false writes), and the config points git at the decoy.
  const shim = await raceAt(
    "read-tree -m -u",
    "",
    `rm -f l; printf f.txt > l; "$REAL" config core.worktree '${decoy}'`,
  );
  f.undo.push(() => git(f.parent, ["config", "--unset", "core.worktree"]));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.symlink("f.txt", join(child, "l"));
    await Deno.writeTextFile(join(child, "g.txt"), "g\n"); // file evidence cannot be a link
    const r = await land(f, child, seed, ["g.txt", "l"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "not the tree gate checked at l");
    assertIncludes(r.stderr, "the land was undone");
    assertIncludes(r.stderr, "now finds the work tree");
    assertEquals(await exists(join(f.parent, "l")), false, "the plain file l was left");
    assertEquals(await exists(join(f.parent, "g.txt")), false, "g.txt was left");
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(decoy, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

/** A bare copy of the parent's repository, as a child could make one to point git at. */
async function decoyRepository(parent: string): Promise<string> {
  const dir = await tempDir("tether-decoy-");
  await git(dir, ["clone", "-q", "--bare", parent, join(dir, "decoy.git")]);
  return join(dir, "decoy.git");
}

Deno.test("a commondir file planted in the parent's git dir before the run is refused", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  f.undo.push(() => Deno.remove(planted));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(planted, `${decoy}\n`);
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "a commondir file in a main git dir");
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a commondir file written during the run, before the checkout, stops the land: nothing landed", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  const shim = await raceAt("merge-tree", `printf '%s\\n' '${decoy}' > .git/commondir`);
  f.undo.push(() => Deno.remove(planted));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "the land is refused, nothing landed");
    assertIncludes(r.stderr, `common dir "${decoy}"`);
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a parent that is itself a linked worktree still spawns and lands (no false halt)", async () => {
  const f = await family();
  const linked = join(await tempDir("tether-linked-"), "w");
  f.undo.push(() => git(f.parent, ["worktree", "remove", "--force", linked]));
  try {
    await git(f.parent, ["worktree", "add", "-q", "-b", "work", linked]);
    const [child, seed] = await spawn(f, "c1", linked);
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, "g.txt"), "g\n");
    const r = await land(f, child, seed, ["f.txt", "g.txt"], { cwd: linked });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths");
    assertEquals(await text(linked, "f.txt"), TEN + "child line\n");
    assertEquals(await text(linked, "g.txt"), "g\n");
    assertEquals(await text(f.parent, "f.txt"), TEN, "the main worktree changed");
  } finally {
    await f.cleanup();
    await Deno.remove(join(linked, ".."), { recursive: true }).catch(() => {});
  }
});

Deno.test("gate --since refuses to judge a tree git finds elsewhere (a core.worktree planted by the agent)", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
  const decoy = await tempDir("tether-decoy-");
  try {
    const snapshot = await contextSpawn(repo);
    await writeFiles(repo, { "a.txt": "a\nrm -rf ~\n", "b.txt": "b changed\n" });
    await writeFiles(decoy, { "a.txt": "a\n", "b.txt": "b changed\n" });
    await git(repo, ["config", "core.worktree", decoy]);
    const g = await gate(repo, gateResult(["b.txt"], [{ kind: "file", ref: "b.txt", ok: true }]), [
      "--since",
      snapshot,
    ]);
    assertEquals(g.code, 3, g.stderr);
    assertIncludes(g.stderr, "not inside the work tree git names");
  } finally {
    await Deno.remove(repo, { recursive: true }).catch(() => {});
    await Deno.remove(decoy, { recursive: true }).catch(() => {});
  }
});

Deno.test("handshake --worktree refuses a parent whose git dir holds a planted commondir file: nothing made", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  f.undo.push(() => Deno.remove(planted));
  try {
    await Deno.writeTextFile(planted, `${decoy}\n`);
    const r = await bin("handshake", ["--worktree", join(f.kids, "c1"), "--json"], {
      cwd: f.parent,
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "a commondir file in a main git dir");
    assertEquals(await exists(join(f.kids, "c1")), false);
    assertEquals(
      await exists(join(decoy, "worktrees")),
      false,
      "a worktree was added to the decoy",
    );
  } finally {
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("in a parent that is a linked worktree, its own commondir rewritten during the run stops the land", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const linked = join(await tempDir("tether-linked-"), "w");
  f.undo.push(() => git(f.parent, ["worktree", "remove", "--force", linked]));
  try {
    await git(f.parent, ["worktree", "add", "-q", "-b", "work", linked]);
    const admin = await git(linked, ["rev-parse", "--absolute-git-dir"]);
    const original = await Deno.readTextFile(join(admin, "commondir"));
    f.undo.unshift(() => Deno.writeTextFile(join(admin, "commondir"), original));
    const shim = await raceAt("merge-tree", `printf '%s\\n' '${decoy}' > '${admin}/commondir'`);
    try {
      const [child, seed] = await spawn(f, "c1", linked);
      await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
      const r = await land(f, child, seed, ["f.txt"], { cwd: linked, env: shim.env });
      assertEquals(r.code, 3, r.stdout + r.stderr);
      assertIncludes(r.stderr, "the land is refused, nothing landed");
      assertIncludes(r.stderr, `common dir "${decoy}"`);
      assertEquals(await text(linked, "f.txt"), TEN);
    } finally {
      await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    }
  } finally {
    await f.cleanup();
    await Deno.remove(join(linked, ".."), { recursive: true }).catch(() => {});
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
  }
});
