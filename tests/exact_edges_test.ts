/**
 * The states at the edge of exact mode and worktree spawn: a nested git repository in the
 * working tree (with or without a commit) and an unmerged index (a conflicted merge). A
 * correct parent is never stopped by a raw git message: exact capture records what git can
 * record, a spawn refuses what a worktree cannot carry in one line naming the paths, and
 * nothing is left behind. Real repositories, the real entry points under `--allow-run=git`.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertMatch, assertNotEquals, assertRejects } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import { parseV2Block } from "../src/handshake/v2/block.ts";
import { bashFingerprint, bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";
import { linkedWorktrees } from "./_worktree_fixture.ts";

async function withRepo(body: (dir: string) => Promise<void>) {
  const dir = await makeRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `git init` a nested repository at `path` in `dir`, with one commit when asked. */
async function nestedRepo(dir: string, path: string, commit: boolean): Promise<void> {
  await git(dir, ["init", "-q", path]);
  if (commit) {
    await writeFiles(join(dir, path), { "inner.txt": "inner\n" });
    await git(join(dir, path), ["add", "-A"]);
    await git(join(dir, path), ["commit", "-q", "-m", "inner"]);
  }
}

/** Branches `side` and `main` (checked out) that both change `paths`. */
async function conflictingBranches(dir: string, paths: string[]): Promise<void> {
  await git(dir, ["checkout", "-q", "-b", "side"]);
  await writeFiles(dir, Object.fromEntries(paths.map((p) => [p, `side ${p}\n`])));
  await git(dir, ["add", "--", ...paths]);
  await git(dir, ["commit", "-q", "-m", "side"]);
  await git(dir, ["checkout", "-q", "main"]);
  await writeFiles(dir, Object.fromEntries(paths.map((p) => [p, `main ${p}\n`])));
  await git(dir, ["add", "--", ...paths]);
  await git(dir, ["commit", "-q", "-m", "main"]);
}

/** Merge `side` into `main`: it stops on conflicts. */
async function mergeSide(dir: string): Promise<void> {
  const merge = await run("git", ["merge", "-q", "side"], { cwd: dir });
  assertNotEquals(merge.code, 0, "the merge must stop on conflicts");
  assertMatch(await git(dir, ["status", "--porcelain"]), /^(UU|AA) /m);
}

/** A merge of `side` into `main` that stops on conflicts in `paths`. */
async function conflictedMerge(dir: string, paths: string[]): Promise<void> {
  await conflictingBranches(dir, paths);
  await mergeSide(dir);
}

/** What a failed parent-side run must leave: nothing on stdout, one `error:` line. */
function assertOneLineError(r: { code: number; stdout: string; stderr: string }, line: string) {
  assertEquals([r.code, r.stdout], [3, ""], r.stderr);
  assertEquals(r.stderr, `error: ${line}\n`);
}

/**
 * Seed anchors, spawn refs, tether branches and private index files (the fresh ones in the
 * object directory, and exact mode's own in the git directory, by content): what a capture
 * writes.
 */
async function written(dir: string): Promise<string[]> {
  const refs = await git(dir, [
    "for-each-ref",
    "--format=%(refname)",
    "refs/tether/",
    "refs/heads/tether/",
  ]);
  const objects = await git(dir, ["rev-parse", "--path-format=absolute", "--git-path", "objects"]);
  const scratch: string[] = [];
  for await (const entry of Deno.readDir(objects)) {
    if (entry.name.startsWith("tmp_tether_seed_")) scratch.push(entry.name);
  }
  for (const name of ["tether-exact-index", "tether-exact-staged"]) {
    const path = join(dir, ".git", name);
    const bytes = await Deno.readFile(path).catch(() => undefined);
    if (bytes) scratch.push(`${name} ${bytes.length} ${await git(dir, ["hash-object", path])}`);
  }
  return [...refs.split("\n").filter(Boolean), ...scratch.sort()];
}

/** The seed id of a v2 block. */
function seedOf(text: string): string {
  const r = parseV2Block(text);
  if (r.kind !== "block") throw new Error(`no v2 block in ${text}`);
  return r.handshake.seed;
}

function verify(dir: string, prompt: string, json = false) {
  return bin("verify", json ? ["--json"] : [], { cwd: dir, stdin: prompt });
}

Deno.test("exact edges: handshake --exact in a tree holding an empty nested repository succeeds, and verify halts when it appears or vanishes", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "parent\n" });
    const v1Before = await bin("handshake", [], { cwd: dir });
    const v2Before = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals([v1Before.code, v2Before.code], [0, 0], v1Before.stderr + v2Before.stderr);
    await nestedRepo(dir, "scratch", false); // a sibling's `git init scratch`
    assertEquals(await git(dir, ["status", "--porcelain"]), " M a.txt\n?? scratch/");
    assertEquals((await verify(dir, v1Before.stdout)).code, 1);
    const halted = await verify(dir, v2Before.stdout);
    assertEquals(halted.code, 1, halted.stdout + halted.stderr);
    assertMatch(halted.stdout, /^## Finding: environment-divergence \(halting\)/);

    const exact = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals(exact.code, 0, exact.stderr);
    assertEquals(exact.stderr, "");
    const wrapped = await bin("handshake", ["wrap", "--exact", "--strict"], {
      cwd: dir,
      stdin: "task\n",
    });
    assertEquals(wrapped.code, 0, wrapped.stderr);
    const match = await verify(dir, exact.stdout);
    assertEquals(match.code, 0, match.stdout + match.stderr);
    assertEquals((await verify(dir, wrapped.stdout)).code, 0);
    // The seed records the edit and leaves the repository without a commit out.
    const seed = seedOf(exact.stdout);
    assertEquals(await git(dir, ["ls-tree", "--name-only", seed]), "a.txt\nb.txt");

    await Deno.remove(join(dir, "scratch"), { recursive: true });
    const gone = await verify(dir, exact.stdout, true);
    assertEquals(gone.code, 1, gone.stdout);
    assertEquals(JSON.parse(gone.stdout).diverged, ["parent_dirty_fingerprint"]);
  }));

Deno.test("exact edges: a nested repository with a commit is recorded as a gitlink beside one without, and its next commit halts", () =>
  withRepo(async (dir) => {
    await nestedRepo(dir, "empty", false);
    await nestedRepo(dir, "deep/inner", true);
    await writeFiles(dir, { "u.txt": "untracked\n" });
    const exact = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals(exact.code, 0, exact.stderr);
    const seed = seedOf(exact.stdout);
    const innerHead = await git(join(dir, "deep/inner"), ["rev-parse", "HEAD"]);
    assertEquals(
      await git(dir, ["ls-tree", "-r", "--format=%(objectmode) %(objectname) %(path)", seed]),
      [
        `100644 ${await git(dir, ["rev-parse", "HEAD:a.txt"])} a.txt`,
        `100644 ${await git(dir, ["rev-parse", "HEAD:b.txt"])} b.txt`,
        `160000 ${innerHead} deep/inner`,
        `100644 ${await git(dir, ["hash-object", "u.txt"])} u.txt`,
      ].join("\n"),
    );
    assertEquals((await verify(dir, exact.stdout)).code, 0);
    await git(join(dir, "deep/inner"), ["commit", "-q", "--allow-empty", "-m", "moved"]);
    const moved = await verify(dir, exact.stdout, true);
    assertEquals(moved.code, 1, moved.stdout);
    const j = JSON.parse(moved.stdout);
    assertEquals([j.diverged, j.seed.worktree_paths], [["seed"], ["deep/inner"]]);
  }));

Deno.test("exact edges: a file whose clean filter fails, beside an empty nested repository, is recorded as its raw bytes (the capture runs no filter)", () =>
  withRepo(async (dir) => {
    await git(dir, ["config", "filter.broken.clean", "false"]);
    await git(dir, ["config", "filter.broken.required", "true"]);
    await writeFiles(dir, { ".gitattributes": "*.bad filter=broken\n", "x.bad": "x\n" });
    await nestedRepo(dir, "n", false);
    const r = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals(r.code, 0, r.stderr);
    const seed = /^seed: ([0-9a-f]+)$/m.exec(r.stdout)?.[1];
    assertEquals(
      await git(dir, ["rev-parse", `${seed}:x.bad`]),
      await git(dir, ["hash-object", "--no-filters", "x.bad"]),
    );
  }));

Deno.test("exact edges: handshake --exact during a conflicted merge fails in one line naming the unmerged path, and writes nothing", () =>
  withRepo(async (dir) => {
    await conflictingBranches(dir, ["a.txt"]);
    const before = await bin("handshake", ["wrap", "--exact", "--strict"], {
      cwd: dir,
      stdin: "task\n",
    });
    assertEquals(before.code, 0, before.stderr);
    const v1 = await bin("handshake", [], { cwd: dir });
    await mergeSide(dir); // a sibling's merge
    const anchors = await written(dir);
    const line = "The index has unmerged paths: a.txt; finish or abort the merge first";
    assertOneLineError(await bin("handshake", ["--exact"], { cwd: dir }), line);
    assertOneLineError(
      await bin("handshake", ["wrap", "--exact", "--strict"], { cwd: dir, stdin: "task\n" }),
      line,
    );
    const passed = await bin("handshake", ["wrap", "--exact"], { cwd: dir, stdin: "task\n" });
    assertEquals([passed.code, passed.stdout], [0, "task\n"]);
    assertEquals(
      passed.stderr,
      `handshake: ${line}; prompt passed through without a handshake block\n`,
    );
    assertEquals(await written(dir), anchors);
    // verify on a block from before the merge halts, as v1 does.
    assertEquals((await verify(dir, v1.stdout)).code, 1);
    const halted = await verify(dir, before.stdout, true);
    assertEquals(halted.code, 1, halted.stdout);
    assertEquals(JSON.parse(halted.stdout).diverged, ["parent_dirty_fingerprint"]);
  }));

Deno.test("exact edges: the full capture (taken while info/attributes exists) refuses a conflicted merge the same way", () =>
  withRepo(async (dir) => {
    await conflictedMerge(dir, ["a.txt"]);
    await writeFiles(dir, { ".git/info/attributes": "" });
    const anchors = await written(dir);
    assertOneLineError(
      await bin("handshake", ["--exact"], { cwd: dir }),
      "The index has unmerged paths: a.txt; finish or abort the merge first",
    );
    assertEquals(await written(dir), anchors);
  }));

Deno.test("exact edges: many unmerged paths are named up to five, then and N more", () =>
  withRepo(async (dir) => {
    const paths = Array.from({ length: 8 }, (_, i) => `f${i}.txt`);
    await conflictedMerge(dir, paths);
    assertOneLineError(
      await bin("handshake", ["--exact"], { cwd: dir }),
      "The index has unmerged paths: f0.txt, f1.txt, f2.txt, f3.txt, f4.txt and 3 more; finish or abort the merge first",
    );
  }));

Deno.test("exact edges: plain handshake (v1) is unchanged beside a nested repository and during a conflicted merge", () =>
  withRepo(async (dir) => {
    await nestedRepo(dir, "n", false);
    await nestedRepo(dir, "m", true);
    for (const state of ["nested", "unmerged"]) {
      if (state === "unmerged") {
        await Deno.remove(join(dir, "n"), { recursive: true });
        await Deno.remove(join(dir, "m"), { recursive: true });
        await conflictedMerge(dir, ["a.txt"]);
      }
      const r = await bin("handshake", [], { cwd: dir });
      assertEquals([r.code, r.stderr], [0, ""], state);
      const block = parseBlock(r.stdout);
      if (block.kind !== "block") throw new Error(`${state}: no v1 block in ${r.stdout}`);
      assertEquals(block.handshake.parent_dirty_fingerprint, await bashFingerprint(dir));
      assertEquals((await verify(dir, r.stdout)).code, 0, state);
    }
  }));

/** A parent and a directory for its children, removed afterwards. */
async function withFamily(body: (parent: string, kids: string) => Promise<void>) {
  const kids = await tempDir("tether-kids-");
  try {
    await withRepo((parent) => body(parent, kids));
  } finally {
    await Deno.remove(kids, { recursive: true });
  }
}

/** A refused spawn made nothing: no directory, worktree, branch, spawn ref or seed. */
async function assertNothingMade(parent: string, kid: string, before: string[]) {
  assertEquals(await linkedWorktrees(parent), []);
  assertEquals(await written(parent), before);
  await assertRejects(Deno.stat(kid), Deno.errors.NotFound);
}

Deno.test("exact edges: wrap --worktree refuses nested repositories, with or without a commit, in one line naming them, before making anything", () =>
  withFamily(async (parent, kids) => {
    await writeFiles(parent, { "a.txt": "parent\n", "d/keep.txt": "k\n" });
    await nestedRepo(parent, "n", false);
    const before = await written(parent);
    const kid = join(kids, "c");
    const one = await bin("handshake", ["wrap", "--worktree", kid], {
      cwd: parent,
      stdin: "task\n",
    });
    assertOneLineError(
      one,
      "n/ is a nested git repository; a worktree cannot carry it (commit it as a submodule, ignore it, or move it out)",
    );
    await assertNothingMade(parent, kid, before);

    await nestedRepo(parent, "d/m", true);
    const two = await bin("handshake", ["--worktree", kids, "--count", "2"], { cwd: parent });
    assertOneLineError(
      two,
      "d/m/, n/ are nested git repositories; a worktree cannot carry them (commit each as a submodule, ignore it, or move it out)",
    );
    await assertNothingMade(parent, join(kids, "1"), before);

    // Ignored, it is no longer the tree's content: the spawn goes ahead.
    await writeFiles(parent, { ".git/info/exclude": "/n/\n/d/m/\n" });
    const ok = await bin("handshake", ["--worktree", kid], { cwd: parent });
    assertEquals(ok.code, 0, ok.stderr);
    assertEquals((await verify(kid, ok.stdout)).code, 0);
    await git(parent, ["worktree", "remove", "--force", kid]);
  }));

Deno.test("exact edges: wrap --worktree during a conflicted merge is refused in one line naming the path, before making anything", () =>
  withFamily(async (parent, kids) => {
    await conflictedMerge(parent, ["a.txt", "b.txt"]);
    const before = await written(parent);
    const kid = join(kids, "c");
    const r = await bin("handshake", ["wrap", "--worktree", kid], { cwd: parent, stdin: "task\n" });
    assertOneLineError(
      r,
      "The index has unmerged paths: a.txt, b.txt; finish or abort the merge first",
    );
    await assertNothingMade(parent, kid, before);
  }));
