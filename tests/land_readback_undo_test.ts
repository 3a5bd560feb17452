/**
 * A land whose read-back finds bytes that are not the merged tree's is undone, through the
 * real binaries. The conversion is raced in by a git shim that writes `f.txt eol=crlf` into
 * `info/attributes` as the land's checkout starts (what a child's watcher does, every time).
 *
 * - the attribute erased after the checkout: every landed path is put back as it was
 *   (a changed file's bytes, a new file removed), exit 3 says so; with `--keep` no record
 *   is printed or anchored; the same land then lands;
 * - the attribute left in place: nothing is written again (git would convert again), exit 3
 *   names the paths and the tree to restore them from, and that tree holds the old bytes.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { git } from "./_helpers.ts";
import {
  exists,
  family,
  land,
  raceAt,
  recordRefs,
  spawn,
  TEN,
  text,
} from "./_land_race_fixture.ts";

const CRLF = "printf 'f.txt eol=crlf\\n' > .git/info/attributes";

Deno.test("a raced conversion is undone: the parent's files are as before, no record, then the land lands", async () => {
  const f = await family();
  const shim = await raceAt("read-tree -m -u", CRLF, "rm -f .git/info/attributes");
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, "g.txt"), "g\n");
    const raced = await land(f, child, seed, ["f.txt", "g.txt"], {
      env: shim.env,
      args: ["--keep"],
    });
    assertEquals(raced.code, 3, raced.stdout + raced.stderr);
    assertIncludes(raced.stderr, "not the tree gate checked at f.txt");
    assertIncludes(raced.stderr, "the land was undone: f.txt, g.txt read back as before the land");
    assertEquals(await text(f.parent, "f.txt"), TEN, "f.txt was not restored byte for byte");
    assertEquals(await exists(join(f.parent, "g.txt")), false, "g.txt was not removed");
    assertEquals(raced.stdout.includes("land record:"), false, raced.stdout);
    assertEquals(await recordRefs(f.parent), "", "a record of a land that did not happen");
    assertEquals(await git(f.parent, ["status", "--porcelain"]), "");
    const again = await land(f, child, seed, ["f.txt", "g.txt"]);
    assertEquals(again.code, 0, again.stdout + again.stderr);
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
    assertEquals(await text(f.parent, "g.txt"), "g\n");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a conversion still named is not run again: exit 3 names the paths and the tree that restores them", async () => {
  const f = await family();
  const shim = await raceAt("read-tree -m -u", CRLF);
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "could not be undone (the shared .git still names f.txt (eol=crlf))");
    const tree =
      /in the tree ([0-9a-f]{40}): for each of f\.txt: rm -f PATH && git cat-file blob \1:PATH > PATH/
        .exec(r.stderr)?.[1];
    assertOk(tree !== undefined, r.stderr);
    assertEquals(await text(f.parent, "f.txt"), (TEN + "child line\n").replaceAll("\n", "\r\n"));
    assertEquals(await git(f.parent, ["cat-file", "blob", `${tree}:f.txt`]) + "\n", TEN);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});
