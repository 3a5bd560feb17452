/**
 * A land record is taken only from the parent, through the real binaries (`--allow-run=git`
 * only):
 *
 * - refs are shared, so a sibling can write a child's land record. A record is taken only
 *   from the parent (`--landed ID`, the id a kept land prints), read back as the exact
 *   record of that child on that seed; a record in refs holds nothing back.
 * - after `--keep`, a path the child has not changed since the record keeps the parent's
 *   version (the parent may have taken the landed line out again); only what the child
 *   changed since lands.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, writeFiles } from "./_helpers.ts";
import { family, gate, recordId, result, spawn, TEN, text } from "./_landrec_fixture.ts";

async function branchOf(dir: string): Promise<string> {
  return await git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]);
}

Deno.test("a sibling's forged land record in shared refs holds nothing back: a child's swap of two lines lands beside the parent's own line", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, 2);
    const swapped = TEN.replace("line 1\nline 2\n", "line 2\nline 1\n");
    await writeFiles(two!, { "f.txt": swapped });
    await writeFiles(f.parent, { "f.txt": TEN + "parent line\n" });
    // Sibling one writes child two's "record": the seed's tree with child two's f.txt.
    const blob = await git(one!, ["hash-object", "-w", join(two!, "f.txt")]);
    const tree = await git(
      one!,
      ["mktree"],
      `100644 blob ${blob}\tf.txt\n` +
        `100644 blob ${await git(one!, ["rev-parse", `${seed}:b.txt`])}\tb.txt\n`,
    );
    const forged = await git(one!, ["commit-tree", "-p", seed, "-m", "forged", tree]);
    const ref = `refs/tether/landed/${(await branchOf(two!)).slice("tether/".length)}`;
    await git(one!, ["update-ref", ref, forged]);
    // The parent is told the forged id as if it were the record: refused, nothing landed.
    const told = await gate(f, two!, seed, result("f.txt"), "--land", "--landed", forged);
    assertEquals(told.code, 3, told.stdout + told.stderr);
    assertIncludes(
      told.stderr,
      `error: Cannot evaluate: --landed ${forged} is not a land record of `,
    );
    assertEquals(await text(f.parent, "f.txt"), TEN + "parent line\n");
    // Without --landed the ref is no record: the swap lands, and the land says how it merged.
    const r = await gate(f, two!, seed, result("f.txt"), "--land", "--json");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const land = JSON.parse(r.stdout).land;
    assertEquals([land.status, land.paths, land.already], ["landed", ["f.txt"], undefined]);
    assertIncludes(
      r.stderr,
      `warning: no --landed ID was given, so the land merged against the seed`,
    );
    assertEquals(await text(f.parent, "f.txt"), swapped + "parent line\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a sibling's own land record is not another child's: --landed names one child on one seed", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, 2);
    await writeFiles(one!, { "o.txt": "one\n" });
    const first = await gate(f, one!, seed, result("o.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    const ones = recordId(first.stdout);
    await writeFiles(two!, { "t.txt": "two\n" });
    const r = await gate(f, two!, seed, result("t.txt"), "--land", "--landed", ones);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `is not a land record of ${await branchOf(two!)} on the seed ${seed}`);
    assertEquals(await Deno.stat(join(f.parent, "t.txt")).catch(() => undefined), undefined);
  } finally {
    await f.cleanup();
  }
});

Deno.test("after a kept land the parent takes the landed line out again; the child's next land leaves f.txt as the parent has it and lands only what is new", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    assertIncludes(first.stdout, "landed: 1 path: f.txt\nkept: worktree and branch\nland record: ");
    const landed = recordId(first.stdout);
    // The parent reviews it: the child's line goes, a line of its own comes at the top.
    const reviewed = "parent line\n" + TEN;
    await writeFiles(f.parent, { "f.txt": reviewed });
    await writeFiles(child!, { "m.txt": "m\n" });
    const second = await gate(
      f,
      child!,
      seed,
      result("m.txt", "f.txt"),
      "--land",
      "--keep",
      "--landed",
      landed,
    );
    assertEquals(second.code, 0, second.stdout + second.stderr);
    assertIncludes(second.stdout, "landed: 1 path: m.txt\n");
    assertIncludes(
      second.stdout,
      `already landed, changed by the parent since (its version kept; the child has not changed them since the land record --landed ${
        landed.slice(0, 12)
      }): f.txt\n`,
    );
    assertEquals(await text(f.parent, "f.txt"), reviewed);
    assertEquals(await text(f.parent, "m.txt"), "m\n");
    // The child changes f.txt again: only its new line lands, never the one taken out.
    await writeFiles(child!, { "f.txt": TEN.replace("line 5", "line 5, child") + "child line\n" });
    const third = await gate(
      f,
      child!,
      seed,
      result("f.txt", "m.txt"),
      "--land",
      "--json",
      "--landed",
      recordId(second.stdout),
    );
    assertEquals(third.code, 0, third.stdout + third.stderr);
    const land = JSON.parse(third.stdout).land;
    assertEquals([land.paths, land.already, land.parent_changed], [
      ["f.txt"],
      ["m.txt"],
      undefined,
    ]);
    assertEquals(await text(f.parent, "f.txt"), reviewed.replace("line 5", "line 5, child"));
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child that puts a landed file back as the seed had it undoes the land of it, as a change since the record it must claim", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "b.txt": "b\nchild b\n", "f.txt": TEN + "child line\n" });
    const first = await gate(f, child!, seed, result("b.txt", "f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    // b.txt back as the seed had it: a change since the record, so it must be claimed.
    await writeFiles(child!, { "b.txt": "b\n", "m.txt": "m\n" });
    const landed = recordId(first.stdout);
    const unclaimed = await gate(
      f,
      child!,
      seed,
      result("m.txt"),
      "--land",
      "--json",
      "--landed",
      landed,
    );
    assertEquals(unclaimed.code, 1, unclaimed.stdout + unclaimed.stderr);
    assertEquals(JSON.parse(unclaimed.stdout).changes.observed_unclaimed, ["b.txt"]);
    assertEquals(await text(f.parent, "b.txt"), "b\nchild b\n");
    const r = await gate(
      f,
      child!,
      seed,
      result("m.txt", "b.txt"),
      "--land",
      "--json",
      "--landed",
      landed,
    );
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const land = JSON.parse(r.stdout).land;
    assertEquals([land.status, land.paths, land.already], ["landed", ["b.txt", "m.txt"], [
      "f.txt",
    ]]);
    assertEquals(await text(f.parent, "b.txt"), "b\n");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a path already landed that the parent still holds (a reordering, kept by the parent beside its own line) is reported as held, by content", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    const swapped = TEN.replace("line 1\nline 2\n", "line 2\nline 1\n");
    await writeFiles(child!, { "f.txt": swapped });
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    await writeFiles(f.parent, { "f.txt": swapped.replace("line 6\n", "line 6\nparent\n") });
    await writeFiles(child!, { "m.txt": "m\n" });
    const r = await gate(
      f,
      child!,
      seed,
      result("m.txt", "f.txt"),
      "--land",
      "--landed",
      recordId(first.stdout),
    );
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: m.txt\nalready landed (the parent holds them; ");
    assertIncludes(r.stdout, "): f.txt\nremoved: worktree and branch\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --landed: a usage error (exit 2) without --land or when not a full hex id; documented in --help", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    const id = "a".repeat(40);
    const alone = await gate(f, child!, seed, result("f.txt"), "--landed", id);
    assertEquals(alone.code, 2, alone.stderr);
    assertIncludes(alone.stderr, "error: --landed goes with --land");
    const short = await gate(f, child!, seed, result("f.txt"), "--land", "--landed", "abc");
    assertEquals(short.code, 2, short.stderr);
    assertIncludes(short.stderr, 'error: --landed "abc" is not a full object id');
    const missing = await gate(f, child!, seed, result("f.txt"), "--land", "--landed", id);
    assertEquals(missing.code, 3, missing.stderr);
    const help = await bin("gate", ["--help"]);
    assertIncludes(help.stdout, "--landed ID");
  } finally {
    await f.cleanup();
  }
});
