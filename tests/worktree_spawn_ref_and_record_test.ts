/**
 * The spawn ref and the land record, through the real entry points (`--allow-run=git` only):
 *
 * - a sibling deletes a child's spawn ref; the child is still judged and landed (a missing
 *   ref is not a forged one), and the seed compared stays the parent's `--seed`;
 * - a directory/file conflict is reported at its real path, as a conflict of file types;
 * - `--worktree` through a link to the parent's tree is refused up front, clearly;
 * - after `--land --keep`, a later land of the same child given the record's id
 *   (`--landed`) leaves out what already landed, and a land record is never taken from
 *   shared refs: a forged one holds nothing back.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, writeFiles } from "./_helpers.ts";
import {
  claimResult as result,
  committedFamily,
  exists,
  type Family,
  gateChild as gate,
  linkedWorktrees,
  recordId,
  spawnChildren as spawn,
  text,
} from "./_worktree_fixture.ts";

/** A committed parent with an ignored secret rule, and a directory for its children. */
function family(files: Record<string, string> = {}): Promise<Family> {
  return committedFamily({ "a.txt": "one\ntwo\nthree\n", ".gitignore": "*.env\n", ...files });
}

async function spawnRefOf(dir: string): Promise<string> {
  const branch = await git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]);
  return `refs/tether/spawned/${branch.slice("tether/".length)}`;
}

Deno.test("a sibling that deletes a child's spawn ref no longer blocks it: the child is judged and landed with a warning, and clean-up is complete", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, "batch", 2);
    await writeFiles(two!, { "h.txt": "honest\n" });
    const ref2 = await spawnRefOf(two!);
    await git(one!, ["update-ref", "-d", ref2]);
    const plain = await gate(f, two!, seed, result("h.txt"), "--json");
    assertEquals(plain.code, 0, plain.stdout + plain.stderr);
    const doc = JSON.parse(plain.stdout);
    assertEquals(doc.verdict, "accept");
    assertEquals(doc.worktree.spawn_ref, "missing");
    assertEquals(doc.warnings, undefined);
    assertIncludes(plain.stderr, `warning: the spawn ref ${ref2} is missing`);
    const r = await gate(f, two!, seed, result("h.txt"), "--land");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: h.txt\nremoved: worktree and branch\n");
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertEquals(await text(f.parent, "h.txt"), "honest\n");
    assertEquals(await linkedWorktrees(f.parent), [one!]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("with its spawn ref deleted a child is still judged against the parent's --seed only; a spawn ref moved elsewhere, broken or dangling is still refused", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, "c");
    await writeFiles(f.parent, { "p.txt": "parent, after the first spawn\n" });
    const [[other], otherSeed] = await spawn(f, "other");
    assertOk(otherSeed !== seed);
    await writeFiles(child!, { "c.txt": "child\n" });
    const ref = await spawnRefOf(child!);
    await git(child!, ["update-ref", "-d", ref]);
    // Another spawn's seed is refused: the branch names the seed the child came from.
    const wrong = await gate(f, child!, otherSeed, result("c.txt"), "--land");
    assertEquals(wrong.code, 3, wrong.stdout + wrong.stderr);
    assertIncludes(
      wrong.stderr,
      `not a branch handshake --worktree made for seed ${otherSeed.slice(0, 12)}`,
    );
    // The child's change is judged against its own seed: p.txt is not its change.
    const judged = await gate(f, child!, seed, result("c.txt"), "--json");
    assertEquals(judged.code, 0, judged.stdout + judged.stderr);
    assertEquals(JSON.parse(judged.stdout).worktree.seed, seed);
    assertEquals(JSON.parse(judged.stdout).changes.confirmed, ["c.txt"]);
    // Pointing elsewhere: refused, as before.
    await git(child!, ["update-ref", ref, `${seed}^1`]);
    const moved = await gate(f, child!, seed, result("c.txt"), "--land");
    assertEquals(moved.code, 3, moved.stdout + moved.stderr);
    assertIncludes(moved.stderr, `The spawn ref ${ref} does not point at the seed ${seed}`);
    // A dangling symbolic ref is not a missing one.
    await git(child!, ["update-ref", "-d", ref]);
    await git(child!, ["symbolic-ref", ref, "refs/heads/no-such-branch"]);
    const dangling = await gate(f, child!, seed, result("c.txt"), "--land");
    assertEquals(dangling.code, 3, dangling.stdout + dangling.stderr);
    assertIncludes(dangling.stderr, `The spawn ref ${ref} does not point at the seed ${seed}`);
    await git(f.parent, ["symbolic-ref", "--delete", ref]);
    assertEquals(await exists(join(f.parent, "c.txt")), false);
    assertEquals(await linkedWorktrees(f.parent), [child!, other!]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a directory/file conflict is reported at its real path as a conflict of file types, apart from a conflict of lines", async () => {
  const f = await family({ "d/old.txt": "old\n" });
  try {
    const [[child], seed] = await spawn(f, "c");
    await writeFiles(child!, { "d/new.txt": "child\n", "a.txt": "one\nchild\nthree\n" });
    await Deno.remove(join(f.parent, "d"), { recursive: true });
    await Deno.symlink(f.kids, join(f.parent, "d"));
    await writeFiles(f.parent, { "a.txt": "one\nparent\nthree\n" });
    const claimed = result("d/new.txt", "a.txt");
    const r = await gate(f, child!, seed, claimed, "--land", "--json");
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.land, { status: "conflict", paths: ["a.txt", "d"], types: ["d"] });
    const human = await gate(f, child!, seed, claimed, "--land");
    assertEquals(human.code, 1, human.stdout + human.stderr);
    assertIncludes(
      human.stdout,
      "conflict: nothing landed; the parent's working tree and the child changed the same lines at: a.txt\n",
    );
    assertIncludes(
      human.stdout,
      "conflict: nothing landed; a conflict of file types (a file, directory or link on one side, another type on the other) at: d\n",
    );
    assertEquals(human.stdout.includes("~"), false, human.stdout);
    assertEquals(await exists(join(f.kids, "new.txt")), false);
    assertEquals(await text(f.parent, "a.txt"), "one\nparent\nthree\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake --worktree through a link to the parent's tree is refused up front, naming the real path, and nothing is made", async () => {
  const f = await family();
  try {
    const link = join(f.kids, "plink");
    await Deno.symlink(f.parent, link);
    const dir = join(link, "kids", "c1");
    const r = await bin("handshake", ["wrap", "--worktree", dir], {
      cwd: f.parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stdout, "");
    assertIncludes(
      r.stderr,
      `error: The worktree directory "${dir}" is inside the parent's working tree (its real path is "${
        join(f.parent, "kids", "c1")
      }") and not ignored`,
    );
    assertEquals(await linkedWorktrees(f.parent), []);
    assertEquals(await exists(join(f.parent, "kids")), false);
    assertEquals(await git(f.parent, ["status", "--porcelain"]), "");
  } finally {
    await f.cleanup();
  }
});

Deno.test("after a kept land, a parent edit next to the landed lines no longer blocks the child's next land: what landed is left as the parent has it", async () => {
  const long = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const f = await family({ "long.txt": long });
  try {
    const [[child], seed] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const record = `refs/tether/landed/${branch.slice("tether/".length)}`;
    const child1 = long.replace("line 1\n", "line 1, child\n");
    await writeFiles(child!, { "a.txt": "one\ntwo\nthree\nchild line\n", "long.txt": child1 });
    const first = await gate(f, child!, seed, result("a.txt", "long.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    assertIncludes(first.stdout, "landed: 2 paths: a.txt, long.txt\nkept: worktree and branch\n");
    const landed1 = recordId(first.stdout);
    assertEquals(await git(f.parent, ["rev-parse", record]), landed1);
    assertEquals(await git(f.parent, ["rev-parse", `${record}^`]), seed);
    // The parent adds a line right after the landed one, and edits the long file far away.
    const parentA = "one\ntwo\nthree\nchild line\nparent line\n";
    const parentLong = child1.replace("line 12", "line 12, parent");
    await writeFiles(f.parent, { "a.txt": parentA, "long.txt": parentLong });
    await writeFiles(child!, { "m.txt": "more\n" });
    const claims = result("m.txt", "a.txt", "long.txt");
    const second = await gate(
      f,
      child!,
      seed,
      claims,
      "--land",
      "--keep",
      "--json",
      "--landed",
      landed1,
    );
    assertEquals(second.code, 0, second.stdout + second.stderr);
    const landed2 = JSON.parse(second.stdout).land.record;
    assertEquals(JSON.parse(second.stdout).land, {
      status: "landed",
      paths: ["m.txt"],
      already: ["a.txt", "long.txt"],
      // A line right after the landed one: merging the record's change into the parent's
      // a.txt would conflict, so the parent changed it since (its version is kept).
      parent_changed: ["a.txt"],
      landed_record: landed1,
      since_record: ["m.txt"],
      removed: false,
      record: landed2,
    });
    assertEquals(await text(f.parent, "a.txt"), parentA);
    assertEquals(await text(f.parent, "long.txt"), parentLong);
    assertEquals(await text(f.parent, "m.txt"), "more\n");
    // The child's next change to a landed file is merged (against the record), not left out.
    await writeFiles(child!, { "long.txt": child1.replace("line 6", "line 6, child") });
    // Claims of paths already landed are tolerated; evidence counts only in this round's.
    const round3 = result("long.txt", "m.txt", "a.txt");
    const third = await gate(f, child!, seed, round3, "--land", "--landed", landed2);
    assertEquals(third.code, 0, third.stdout + third.stderr);
    assertIncludes(third.stdout, "landed: 1 path: long.txt\n");
    assertIncludes(third.stdout, "already landed (the parent holds them; ");
    assertIncludes(third.stdout, "): m.txt\nalready landed, changed by the parent since (");
    assertIncludes(third.stdout, "): a.txt\nremoved: worktree and branch\n");
    assertEquals(
      await text(f.parent, "long.txt"),
      parentLong.replace("line 6", "line 6, child"),
    );
    assertEquals(await text(f.parent, "a.txt"), parentA);
    assertEquals(await git(f.parent, ["for-each-ref", "refs/tether/landed/"]), "");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a forged land record on the seed cannot hold back a change the parent never got, nor one in a file the parent edited elsewhere", async () => {
  const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const f = await family({ "long.txt": lines });
  try {
    const [[one, two], seed] = await spawn(f, "batch", 2);
    const branch2 = await git(two!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const record2 = `refs/tether/landed/${branch2.slice("tether/".length)}`;
    // Child two's work, committed, and a sibling's record naming exactly that tree.
    await writeFiles(two!, {
      "c2.txt": "c2 work\n",
      "long.txt": lines.replace("line 12", "line 12, child two"),
    });
    const tip = await commitAll(two!, "c2");
    const onSeed = await git(one!, ["commit-tree", "-p", seed, "-m", "x", `${tip}^{tree}`]);
    await git(one!, ["update-ref", record2, onSeed]);
    // The parent changed long.txt since the seed (far from the child's line).
    await writeFiles(f.parent, { "long.txt": lines.replace("line 1\n", "line 1, parent\n") });
    const r = await gate(f, two!, seed, result("c2.txt", "long.txt"), "--land", "--keep", "--json");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    // c2.txt: the parent never had it, so it is not left out.
    assertEquals(await text(f.parent, "c2.txt"), "c2 work\n");
    assertEquals(JSON.parse(r.stdout).land.paths.sort(), ["c2.txt", "long.txt"].sort());
    assertEquals(
      await text(f.parent, "long.txt"),
      lines.replace("line 1\n", "line 1, parent\n").replace("line 12", "line 12, child two"),
    );
    assertEquals(
      await git(f.parent, ["rev-parse", `${record2}^{tree}`]),
      await git(two!, ["rev-parse", "HEAD^{tree}"]),
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("a --landed id that is not this child's land record on the seed is refused (exit 3, nothing landed); without --landed the land merges against the seed (here: a conflict, nothing changed)", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const record = `refs/tether/landed/${branch.slice("tether/".length)}`;
    await writeFiles(child!, { "a.txt": "one\ntwo\nthree\nchild line\n" });
    const first = await gate(f, child!, seed, result("a.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    // The same tree, re-recorded on the parent's HEAD instead of the seed.
    const offSeed = await git(child!, [
      "commit-tree",
      "-p",
      `${seed}^1`,
      "-m",
      "x",
      `${record}^{tree}`,
    ]);
    await git(child!, ["update-ref", record, offSeed]);
    const parentText = "one\ntwo\nthree\nchild line\nparent line\n";
    await writeFiles(f.parent, { "a.txt": parentText });
    await writeFiles(child!, { "m.txt": "more\n" });
    const claimed = result("m.txt", "a.txt");
    const refused = await gate(f, child!, seed, claimed, "--land", "--landed", offSeed);
    assertEquals(refused.code, 3, refused.stdout + refused.stderr);
    assertIncludes(refused.stderr, `--landed ${offSeed} is not a land record of `);
    assertEquals(await exists(join(f.parent, "m.txt")), false);
    const second = await gate(f, child!, seed, claimed, "--land", "--json");
    assertEquals(second.code, 1, second.stdout + second.stderr);
    assertEquals(JSON.parse(second.stdout).land, { status: "conflict", paths: ["a.txt"] });
    assertEquals(await text(f.parent, "a.txt"), parentText);
    assertEquals(await exists(join(f.parent, "m.txt")), false);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a kept land whose record cannot be anchored still lands (exit 0) with one warning and its record id, and nothing new is reported as such", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    const record = `refs/tether/landed/${branch.slice("tether/".length)}`;
    await writeFiles(child!, { "c.txt": "child\n" });
    const lock = join(f.parent, ".git", `${record}.lock`);
    await Deno.mkdir(join(lock, ".."), { recursive: true });
    await Deno.writeTextFile(lock, "");
    const r = await gate(f, child!, seed, result("c.txt"), "--land", "--keep", "--json");
    await Deno.remove(lock);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.land.status, "landed");
    assertEquals(doc.land.paths, ["c.txt"]);
    assertOk(typeof doc.land.not_anchored === "string", r.stdout);
    assertIncludes(r.stderr, "warning: after the land, tether could not anchor its record (");
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertEquals(await text(f.parent, "c.txt"), "child\n");
    // The record exists without its anchor; the next land finds nothing new to write. The
    // child did nothing since, so it reports no change (re-sending its claim of c.txt is
    // rejected as not new: tests/land_record_integrity_test.ts).
    const idle = JSON.stringify({
      ok: true,
      summary: "nothing to do",
      files_changed: [],
      errors: [],
      evidence: [{ kind: "file", ref: "c.txt", ok: true }],
    });
    const again = await gate(
      f,
      child!,
      seed,
      idle,
      "--land",
      "--keep",
      "--landed",
      doc.land.record,
    );
    assertEquals(again.code, 0, again.stdout + again.stderr);
    const last = await gate(
      f,
      child!,
      seed,
      idle,
      "--land",
      "--landed",
      recordId(again.stdout),
    );
    assertEquals(last.code, 0, last.stdout + last.stderr);
    assertIncludes(
      last.stdout,
      "landed: nothing new (the child changed nothing since its land record)\nalready landed (",
    );
    assertIncludes(last.stdout, "): c.txt\nremoved: worktree and branch\n");
  } finally {
    await f.cleanup();
  }
});
