/**
 * A land whose checkout fails after deleting a landing path (a git shim plays git dying
 * half-way, as a raced smudge filter made it) names that path, with the tree that holds it
 * as before the land, whether or not the checkout wrote other paths; nothing is undone over
 * a path in that third state. Through the real binaries.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { exists, family, land, raceAt, spawn, TEN, text } from "./_land_race_fixture.ts";

Deno.test("a checkout that dies after deleting a landing path names it, alone or beside written ones", async () => {
  const f = await family();
  // The real checkout runs, then f.txt is gone and git "fails": what a smudge filter that
  // fails after git removed the old file leaves.
  const shim = await raceAt("read-tree -m -u", "", "rm -f f.txt; rc=128");
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const alone = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(alone.code, 3, alone.stdout + alone.stderr);
    assertIncludes(alone.stderr, "f.txt is neither as before the land nor as it would write it");
    assertIncludes(alone.stderr, "git cat-file blob ");
    assertEquals(alone.stdout.includes("landed"), false, alone.stdout);
    assertEquals(await exists(join(f.parent, "f.txt")), false, "f.txt was written over");
    // Put it back as the message says, then a land that also writes n.txt: n.txt is undone,
    // f.txt named.
    await Deno.writeTextFile(join(f.parent, "f.txt"), TEN);
    await Deno.writeTextFile(join(child, "n.txt"), "n\n");
    const both = await land(f, child, seed, ["f.txt", "n.txt"], { env: shim.env });
    assertEquals(both.code, 3, both.stdout + both.stderr);
    assertIncludes(both.stderr, `the land wrote n.txt into ${f.parent}, but its checkout failed`);
    assertIncludes(both.stderr, "f.txt is neither as before the land nor as it would write it");
    assertEquals(await exists(join(f.parent, "n.txt")), false, "n.txt was left");
    assertEquals(await exists(join(f.parent, "f.txt")), false, "f.txt was written over");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a checkout git refuses after the parent's own edit keeps the edit and names the path", async () => {
  const f = await family();
  const edit = await raceAt("read-tree -m -u", "printf 'edited meanwhile\\n' >> f.txt");
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: edit.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    // git's refusal in tether's words, never git's own text.
    assertIncludes(r.stderr, '"f.txt" changed in the parent while the land ran');
    assertEquals(/exited with|not uptodate/.test(r.stderr), false, r.stderr);
    assertEquals(r.stderr.includes("the land wrote"), false, r.stderr);
    assertIncludes(r.stderr, "f.txt is neither as before the land nor as it would write it");
    assertEquals(await text(f.parent, "f.txt"), TEN + "edited meanwhile\n");
  } finally {
    await Deno.remove(edit.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});
