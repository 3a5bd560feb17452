/**
 * A symbolic link lands as a link or not at all, through the real binaries.
 *
 * - a land that writes a link while `core.symlinks` is false (git would write a plain file
 *   holding the target) is refused: exit 3, nothing landed;
 * - `core.symlinks` flipped to false in the shared config as the checkout starts does not
 *   reach it (pinned to the value read): the link lands as a link;
 * - with `core.symlinks` false, a land without links still lands (no false halt).
 *
 * A type changed after the checkout is caught by the read-back
 * (tests/land_pinned_repository_test.ts, "a link checked out as a file is caught").
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { git } from "./_helpers.ts";
import { exists, family, land, raceAt, spawn, TEN, text } from "./_land_race_fixture.ts";

Deno.test("a land writing a link while core.symlinks is false is refused, nothing landed", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "g.txt"), "g\n");
    await Deno.symlink("g.txt", join(child, "l"));
    await git(child, ["config", "core.symlinks", "false"]); // the shared config, as a child writes it
    const r = await land(f, child, seed, ["g.txt", "l"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "the land is refused, nothing landed");
    assertIncludes(r.stderr, "symbolic links l, but core.symlinks is false");
    assertEquals(await exists(join(f.parent, "l")), false);
    assertEquals(await exists(join(f.parent, "g.txt")), false);
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await f.cleanup();
  }
});

Deno.test("core.symlinks flipped to false as the checkout starts does not reach it: the link lands as a link", async () => {
  const f = await family();
  const shim = await raceAt("read-tree -m -u", `"$REAL" config core.symlinks false`);
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "g.txt"), "g\n");
    await Deno.symlink("g.txt", join(child, "l"));
    const r = await land(f, child, seed, ["g.txt", "l"], { env: shim.env });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths");
    assertEquals(await Deno.readLink(join(f.parent, "l")), "g.txt");
    assertEquals(await git(f.parent, ["config", "core.symlinks"]), "false", "the flip never ran");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("with core.symlinks false, a land without links still lands", async () => {
  const f = await family();
  try {
    await git(f.parent, ["config", "core.symlinks", "false"]);
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});
