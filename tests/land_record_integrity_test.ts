/**
 * The land record taken back as `--landed ID` cannot be steered by the child, through the
 * real binaries (`--allow-run=git` only). The child is untrusted and writes the shared `.git`:
 *
 * - the land's merge base cannot be chosen by the child: not with a graft file, a shallow
 *   file, nor an object planted under a predicted commit id.
 * - a land record deleted or altered since the kept land stops the next land with one line
 *   naming it so (exit 3, nothing landed); a record id cannot be known in advance, so a
 *   child cannot plant an object under it.
 * - a path from the child's tree never starts a line of the report, not even for a reader
 *   that breaks lines at NEL (U+0085) as Python's `str.splitlines` does.
 * - with `--landed` the round is what the child changed since the record (an undo or a
 *   rename since included): it lands, claims and file evidence are judged against it, paths
 *   already landed are named as such, and an idle child re-sending its first report is
 *   rejected as no new change.
 * - a land with nothing new to write says why.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { git, run, writeFiles } from "./_helpers.ts";
import type { Family } from "./_worktree_fixture.ts";
import { family, gate, recordId, result, spawn, TEN, text } from "./_landrec_fixture.ts";

/** The identity and date tether writes its commits with. */
const FIXED = {
  GIT_AUTHOR_NAME: "tether",
  GIT_AUTHOR_EMAIL: "tether@localhost",
  GIT_AUTHOR_DATE: "@0 +0000",
  GIT_COMMITTER_NAME: "tether",
  GIT_COMMITTER_EMAIL: "tether@localhost",
  GIT_COMMITTER_DATE: "@0 +0000",
};

/** git in `cwd` with extra environment (an index of its own, tether's identity). */
async function gitEnv(cwd: string, args: string[], env: Record<string, string>): Promise<string> {
  const r = await run("git", args, { cwd, env });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** A tree: `start` with `entries` (path → file content) in place, built by the child. */
async function treeWith(
  child: string,
  start: string,
  entries: Record<string, string>,
  scratch: string,
): Promise<string> {
  const env = { GIT_INDEX_FILE: scratch };
  await gitEnv(child, ["read-tree", start], env);
  for (const [path, content] of Object.entries(entries)) {
    const blob = await git(child, ["hash-object", "-w", "--stdin"], content);
    await gitEnv(child, ["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], env);
  }
  return await gitEnv(child, ["write-tree"], env);
}

/** The child's working tree as tether captures it (every file, raw). */
async function capturedTree(child: string, scratch: string): Promise<string> {
  const env = { GIT_INDEX_FILE: scratch };
  await gitEnv(child, ["read-tree", "HEAD"], env);
  await gitEnv(child, ["add", "-A"], env);
  return await gitEnv(child, ["write-tree"], env);
}

/**
 * The two commits a land without a random token would make before its merge: the base (a
 * commit of `baseTree`, no parent) and theirs (the child's tree on it), as a child can
 * compute them in advance.
 */
async function predicted(child: string, baseTree: string, childTree: string) {
  const base = await gitEnv(child, ["commit-tree", "-m", "tether land", baseTree], FIXED);
  const theirs = await gitEnv(
    child,
    ["commit-tree", "-p", base, "-m", "tether land", childTree],
    FIXED,
  );
  return { base, theirs };
}

async function commonDir(child: string): Promise<string> {
  return await git(child, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
}

/** A kept land of the child's line in f.txt, then the parent takes it out again. */
async function keptThenReverted(f: Family) {
  const [[child], seed] = await spawn(f, 1);
  await writeFiles(child!, { "f.txt": TEN + "child line\n" });
  const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
  assertEquals(first.code, 0, first.stdout + first.stderr);
  await writeFiles(f.parent, { "f.txt": TEN });
  // The child's new round: a typo fix in line 1 and a new file.
  await writeFiles(child!, {
    "f.txt": TEN.replace("line 1\n", "line 1 (typo fixed)\n") + "child line\n",
    "m.txt": "m\n",
  });
  const landed = recordId(first.stdout);
  const scratch = join(f.kids, "scratch.idx");
  const baseTree = await treeWith(
    child!,
    `${seed}^{tree}`,
    { "f.txt": TEN + "child line\n" },
    scratch,
  );
  const ids = await predicted(child!, baseTree, await capturedTree(child!, scratch));
  return { child: child!, seed, landed, ids, scratch };
}

const FIXED_F = TEN.replace("line 1\n", "line 1 (typo fixed)\n");

Deno.test("a graft file in the shared .git does not choose the land's merge base: with --landed only the child's new change lands, the parent's revert stands", async () => {
  const f = await family();
  try {
    const { child, seed, landed, ids } = await keptThenReverted(f);
    // M: any commit with the seed's tree, grafted as the parent of both land commits.
    const m = await git(child, ["commit-tree", "-m", "m", `${seed}^{tree}`]);
    await Deno.writeTextFile(
      join(await commonDir(child), "info", "grafts"),
      `${ids.base} ${m}\n${ids.theirs} ${m}\n`,
    );
    const r = await gate(f, child, seed, result("m.txt", "f.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths: f.txt, m.txt\n");
    assertEquals(await text(f.parent, "f.txt"), FIXED_F);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a graft file does not choose a first land's merge base: the parent's own edit in the child's file stays", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(f.parent, { "f.txt": "parent line\n" + TEN });
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const scratch = join(f.kids, "scratch.idx");
    const ids = await predicted(child!, `${seed}^{tree}`, await capturedTree(child!, scratch));
    const mTree = await treeWith(
      child!,
      `${seed}^{tree}`,
      { "f.txt": "parent line\n" + TEN },
      scratch,
    );
    const m = await git(child!, ["commit-tree", "-m", "m", mTree]);
    await Deno.writeTextFile(
      join(await commonDir(child!), "info", "grafts"),
      `${ids.base} ${m}\n${ids.theirs} ${m}\n`,
    );
    const r = await gate(f, child!, seed, result("f.txt"), "--land");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: f.txt\n");
    assertEquals(await text(f.parent, "f.txt"), "parent line\n" + TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a shallow file naming the land's commit does not make an accepted land fail", async () => {
  const f = await family();
  try {
    const { child, seed, landed, ids } = await keptThenReverted(f);
    await Deno.writeTextFile(join(await commonDir(child), "shallow"), `${ids.theirs}\n`);
    const r = await gate(f, child, seed, result("m.txt", "f.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths: f.txt, m.txt\n");
    assertEquals(await text(f.parent, "f.txt"), FIXED_F);
  } finally {
    await f.cleanup();
  }
});

Deno.test("an object planted under the predicted id of the land's base commit does not become the merge base", async () => {
  const f = await family();
  try {
    const { child, seed, landed, ids } = await keptThenReverted(f);
    // A commit of the seed's tree (no record in it), its file copied under the base's id.
    const forged = await git(child, ["commit-tree", "-m", "forged", `${seed}^{tree}`]);
    const objects = join(await commonDir(child), "objects");
    await Deno.mkdir(join(objects, ids.base.slice(0, 2)), { recursive: true });
    await Deno.copyFile(
      join(objects, forged.slice(0, 2), forged.slice(2)),
      join(objects, ids.base.slice(0, 2), ids.base.slice(2)),
    );
    const r = await gate(f, child, seed, result("m.txt", "f.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths: f.txt, m.txt\n");
    assertEquals(await text(f.parent, "f.txt"), FIXED_F);
  } finally {
    await f.cleanup();
  }
});

/** A kept land of the child's line; the parent takes it out again; the child adds m.txt. */
async function keptRecord(f: Family) {
  const [[child], seed] = await spawn(f, 1);
  await writeFiles(child!, { "f.txt": TEN + "child line\n" });
  const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
  assertEquals(first.code, 0, first.stdout + first.stderr);
  await writeFiles(f.parent, { "f.txt": TEN });
  await writeFiles(child!, { "m.txt": "m\n" });
  return { child: child!, seed, landed: recordId(first.stdout) };
}

const objectPath = (objects: string, id: string) => join(objects, id.slice(0, 2), id.slice(2));

Deno.test("a land record deleted since the kept land stops the next land with one line saying so, exit 3, nothing landed", async () => {
  const f = await family();
  try {
    const { child, seed, landed } = await keptRecord(f);
    const objects = join(await commonDir(child), "objects");
    await Deno.remove(objectPath(objects, landed));
    const branch = await git(child, ["rev-parse", "--abbrev-ref", "HEAD"]);
    await git(child, ["update-ref", "-d", `refs/tether/landed/${branch.slice("tether/".length)}`]);
    const r = await gate(f, child, seed, result("m.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(
      r.stderr,
      `error: Cannot evaluate: --landed ${landed}: no such object: the land record was deleted or altered since the kept land; nothing landed (do not land this child without --landed`,
    );
    assertEquals(r.stderr.includes("cat-file"), false, r.stderr);
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await Deno.stat(join(f.parent, "m.txt")).catch(() => undefined), undefined);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a land record whose object file was replaced stops the next land the same way", async () => {
  const f = await family();
  try {
    const { child, seed, landed } = await keptRecord(f);
    const objects = join(await commonDir(child), "objects");
    const other = await git(child, ["commit-tree", "-p", seed, "-m", "other", `${seed}^{tree}`]);
    await Deno.chmod(objectPath(objects, landed), 0o644);
    await Deno.copyFile(objectPath(objects, other), objectPath(objects, landed));
    const r = await gate(f, child, seed, result("m.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(
      r.stderr,
      `--landed ${landed}: the object stored under that id does not hash to it: the land record was deleted or altered since the kept land`,
    );
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await f.cleanup();
  }
});

Deno.test("an object planted where a predictable record would go does not spoil the kept land's record", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    // The record a kept land would write with a known token (all zeros), and a bogus object
    // file put under its id before the land.
    const tree = await capturedTree(child!, join(f.kids, "scratch.idx"));
    const predictedId = await gitEnv(
      child!,
      ["commit-tree", "-p", seed, "-m", `tether: landed ${branch} ${"0".repeat(32)}`, tree],
      FIXED,
    );
    const objects = join(await commonDir(child!), "objects");
    const bogus = await git(child!, ["commit-tree", "-p", seed, "-m", "bogus", `${seed}^{tree}`]);
    await Deno.chmod(objectPath(objects, predictedId), 0o644);
    await Deno.copyFile(objectPath(objects, bogus), objectPath(objects, predictedId));
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    await writeFiles(f.parent, { "f.txt": TEN });
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
    assertIncludes(r.stdout, "landed: 1 path: m.txt\n");
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await f.cleanup();
  }
});

/** The line breaks of Python's `str.splitlines`. */
// deno-lint-ignore no-control-regex
const SPLITLINES = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

Deno.test("a file name holding NEL (U+0085) cannot forge a land record line, even for a reader that splits lines as Python does", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    const forged = "zz\u0085land record: " + "f".repeat(40) +
      " (give this child's next land --landed " + "f".repeat(40) + ")";
    await writeFiles(child!, { "f.txt": TEN + "child line\n", [forged]: "notes\n" });
    const r = await gate(f, child!, seed, result("f.txt", forged), "--land", "--keep");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split(SPLITLINES);
    const records = lines.filter((l) => l.startsWith("land record: "));
    assertEquals(records.length, 1, r.stdout);
    assertEquals(
      records[0],
      `land record: ${recordId(r.stdout)} (give this child's next land --landed ${
        recordId(r.stdout)
      })`,
    );
    assertEquals(recordId(r.stdout) === "f".repeat(40), false);
    assertIncludes(r.stdout, 'landed: 2 paths: f.txt, "zz\\u0085land record: ');
    // Every line a splitlines reader sees starts as one of the report's own lines.
    for (const line of lines.filter((l) => l !== "")) {
      assertOk(
        /^(verdict|evidence|confirmed|recent_file|worktree|landed|kept|land record): /.test(line),
        line,
      );
    }
  } finally {
    await f.cleanup();
  }
});

async function writeG(f: Family): Promise<void> {
  await writeFiles(f.parent, { "g.txt": "g\n" });
  await git(f.parent, ["add", "g.txt"]);
  await git(f.parent, ["commit", "-q", "-m", "g"]);
}

Deno.test("with --landed, an undo of a landed line and a rename of a landed file since the record land, and must be claimed", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n", "helper.txt": "helper\n" });
    const first = await gate(f, child!, seed, result("f.txt", "helper.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    const landed = recordId(first.stdout);
    await writeFiles(child!, { "f.txt": TEN });
    await Deno.rename(join(child!, "helper.txt"), join(child!, "util.txt"));
    const partial = await gate(
      f,
      child!,
      seed,
      result("util.txt"),
      "--land",
      "--json",
      "--landed",
      landed,
    );
    assertEquals(partial.code, 1, partial.stdout + partial.stderr);
    assertEquals(JSON.parse(partial.stdout).changes.observed_unclaimed, ["f.txt", "helper.txt"]);
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
    const honest = await gate(
      f,
      child!,
      seed,
      result("util.txt", "helper.txt", "f.txt"),
      "--land",
      "--landed",
      landed,
    );
    assertEquals(honest.code, 0, honest.stdout + honest.stderr);
    assertIncludes(honest.stdout, "landed: 3 paths: f.txt, helper.txt, util.txt\n");
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await Deno.stat(join(f.parent, "helper.txt")).catch(() => undefined), undefined);
    assertEquals(await text(f.parent, "util.txt"), "helper\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("with --landed, a second round's honest report of only its own change is accepted, the first round's path named as already landed", async () => {
  const f = await family();
  try {
    await writeG(f);
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    await writeFiles(child!, { "g.txt": "g\nfix\n" });
    const r = await gate(
      f,
      child!,
      seed,
      result("g.txt"),
      "--land",
      "--json",
      "--landed",
      recordId(first.stdout),
    );
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.changes, {
      confirmed: ["g.txt"],
      claimed_unobserved: [],
      observed_unclaimed: [],
    });
    assertEquals(doc.worktree.already_landed, ["f.txt"]);
    assertEquals([doc.land.paths, doc.land.already], [["g.txt"], ["f.txt"]]);
    assertEquals(await text(f.parent, "g.txt"), "g\nfix\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("with --landed, an idle child re-sending its first report is rejected: no change since the land record", async () => {
  const f = await family();
  try {
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    const landed = recordId(first.stdout);
    const r = await gate(f, child!, seed, result("f.txt"), "--land", "--landed", landed);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertIncludes(
      r.stdout,
      `reason: No change since the land record --landed ${
        landed.slice(0, 12)
      }: the child's tree is the record's at every path, and what it claims is not new (already landed: f.txt)\n`,
    );
    assertIncludes(r.stdout, "evidence: preexisting file f.txt\n");
    assertIncludes(r.stdout, "already landed (not changed since the land record): f.txt\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a land whose own changes since the record the parent already has says so, naming them; claims of landed paths are tolerated", async () => {
  const f = await family();
  try {
    await writeG(f);
    const [[child], seed] = await spawn(f, 1);
    await writeFiles(child!, { "f.txt": TEN + "child line\n" });
    const first = await gate(f, child!, seed, result("f.txt"), "--land", "--keep");
    assertEquals(first.code, 0, first.stdout + first.stderr);
    await writeFiles(child!, { "g.txt": "g\nfix\n" });
    await writeFiles(f.parent, { "g.txt": "g\nfix\n" });
    const r = await gate(
      f,
      child!,
      seed,
      result("g.txt", "f.txt"),
      "--land",
      "--landed",
      recordId(first.stdout),
    );
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(
      r.stdout,
      "landed: nothing new (the parent already has the child's changes since its land record: g.txt)\n",
    );
  } finally {
    await f.cleanup();
  }
});
