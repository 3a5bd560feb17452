/**
 * Whose commit is evidence, and where a spawn's `..` leads, through the real binaries
 * (`--allow-run=git` only):
 *
 * - a commit is the child's evidence only when it is on the child's first-parent line since
 *   the seed, reachable from no ref but the child's own, and its own change touches only
 *   paths the child changed. A sibling's commit brought in by a merge, by a reset, or found
 *   on another branch or worktree HEAD is `preexisting`.
 * - spawn resolves DIR's `..` after each step is resolved, never lexically.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, type Run, writeFiles } from "./_helpers.ts";
import { committedFamily, type Family, spawnChildren } from "./_worktree_fixture.ts";

/** A committed parent with f.txt and a directory for its children. */
function family(): Promise<Family> {
  return committedFamily({ "f.txt": "f\n" });
}

function spawn(f: Family, count: number): Promise<[string[], string]> {
  return spawnChildren(f, "c", count);
}

/** A result claiming `files`, citing `commit` as its only evidence. */
function citing(commit: string, ...files: string[]): string {
  return JSON.stringify({
    ok: true,
    summary: "all done, see my commit",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "commit", ref: commit, ok: true }],
  });
}

interface Verdict {
  verdict: string;
  reasons: string[];
  evidence: { kind: string; ref: string; status: string }[];
  land?: { status: string; paths: string[] };
  worktree: { commits: string[] };
}

async function gate(
  f: Family,
  dir: string,
  seed: string,
  stdin: string,
  ...more: string[]
): Promise<[Run, Verdict]> {
  const r = await bin("gate", ["--worktree", dir, "--seed", seed, "--json", ...more], {
    cwd: f.parent,
    stdin,
  });
  return [r, JSON.parse(r.stdout)];
}

async function commit(dir: string, files: Record<string, string>, message: string) {
  await writeFiles(dir, files);
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", message]);
  return await git(dir, ["rev-parse", "HEAD"]);
}

const PREEXISTING = "No evidence item shows work done since spawn";

Deno.test("a sibling's commit merged in as a second parent is not the child's evidence (the sibling's own gate verifies it)", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, 2);
    const theirs = await commit(two!, { "fix.txt": "the real fix\n" }, "fix");
    const [ok, w] = await gate(f, two!, seed, citing(theirs, "fix.txt"));
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertEquals(w.evidence, [{ kind: "commit", ref: theirs, status: "verified" }]);
    // Child one changes no file: one merge commit that keeps its own tree.
    const merge = await git(one!, [
      "commit-tree",
      "-p",
      "HEAD",
      "-p",
      theirs,
      "-m",
      "merge",
      "HEAD^{tree}",
    ]);
    await git(one!, ["reset", "-q", "--soft", merge]);
    const [r, v] = await gate(f, one!, seed, citing(theirs), "--land");
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.verdict, "reject");
    assertEquals(v.evidence, [{ kind: "commit", ref: theirs, status: "preexisting" }]);
    assertIncludes(v.reasons.join("\n"), PREEXISTING);
    assertEquals(v.worktree.commits, [merge]);
    assertEquals(v.land, undefined);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child that resets its branch onto a sibling's commit (so its tree holds the fix) cannot cite that commit", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, 2);
    const theirs = await commit(two!, { "fix.txt": "the real fix\n" }, "fix");
    await git(one!, ["reset", "-q", "--hard", theirs]);
    const [r, v] = await gate(f, one!, seed, citing(theirs, "fix.txt"));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.evidence, [{ kind: "commit", ref: theirs, status: "preexisting" }]);
    assertEquals(v.worktree.commits, []);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a commit of another branch made before the spawn is not the child's evidence, whatever the child builds on it", async () => {
  const f = await family();
  try {
    await git(f.parent, ["checkout", "-q", "-b", "old-feature"]);
    const old = await commit(f.parent, { "feature.txt": "old\n" }, "old feature");
    await git(f.parent, ["checkout", "-q", "main"]);
    const [[one], seed] = await spawn(f, 1);
    await git(one!, ["reset", "-q", "--hard", old]);
    const mine = await commit(one!, { "n.txt": "new\n" }, "mine");
    const [r, v] = await gate(f, one!, seed, citing(old, "feature.txt", "n.txt"));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.evidence, [{ kind: "commit", ref: old, status: "preexisting" }]);
    assertEquals(v.worktree.commits, [mine]);
    // The child's own commit on top of it still counts, whatever broken ref a sibling wrote.
    const bad = "1".repeat(mine.length);
    await Deno.mkdir(join(f.parent, ".git", "refs", "broken"));
    await Deno.writeTextFile(join(f.parent, ".git", "refs", "broken", "ref"), `${bad}\n`);
    const [ok, w] = await gate(f, one!, seed, citing(mine, "feature.txt", "n.txt"));
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertEquals(w.evidence, [{ kind: "commit", ref: mine, status: "verified" }]);
    await Deno.remove(join(f.parent, ".git", "refs", "broken"), { recursive: true });
  } finally {
    await f.cleanup();
  }
});

Deno.test("a commit only on another worktree's detached HEAD is not the child's evidence", async () => {
  const f = await family();
  try {
    const [[one], seed] = await spawn(f, 1);
    const other = join(f.kids, "detached");
    await git(f.parent, ["worktree", "add", "-q", "--detach", other]);
    const theirs = await commit(other, { "fix.txt": "the real fix\n" }, "fix");
    await git(one!, ["reset", "-q", "--hard", theirs]);
    const [r, v] = await gate(f, one!, seed, citing(theirs, "fix.txt"));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.evidence, [{ kind: "commit", ref: theirs, status: "preexisting" }]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a landed sibling's commit, on no ref any more, merged as a second parent is preexisting even when the child made the same change", async () => {
  const f = await family();
  try {
    const [[one, two], seed] = await spawn(f, 2);
    const theirs = await commit(two!, { "fix.txt": "the real fix\n" }, "fix");
    const [landed] = await gate(f, two!, seed, citing(theirs, "fix.txt"), "--land");
    assertEquals(landed.code, 0, landed.stdout + landed.stderr);
    // Child two's worktree, branch and refs are gone: only child one's merge reaches it.
    await writeFiles(one!, { "fix.txt": "the real fix\n" });
    await git(one!, ["add", "fix.txt"]);
    const tree = await git(one!, ["write-tree"]);
    const merge = await git(one!, ["commit-tree", "-p", "HEAD", "-p", theirs, "-m", "merge", tree]);
    await git(one!, ["reset", "-q", "--soft", merge]);
    const [r, v] = await gate(f, one!, seed, citing(theirs, "fix.txt"));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.evidence, [{ kind: "commit", ref: theirs, status: "preexisting" }]);
    assertEquals(v.worktree.commits, [merge]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child's own commit that also added a file it removed later (a path it has not changed in the end) is not evidence", async () => {
  const f = await family();
  try {
    const [[one], seed] = await spawn(f, 1);
    const copied = await commit(one!, {
      "fix.txt": "a copy of a sibling's fix\n",
      "n.txt": "a draft\n",
    }, "fix and a draft");
    await git(one!, ["rm", "-q", "fix.txt"]);
    await git(one!, ["commit", "-q", "-m", "undo"]);
    const undo = await git(one!, ["rev-parse", "HEAD"]);
    const mine = await commit(one!, { "n.txt": "new\n" }, "mine");
    const [r, v] = await gate(f, one!, seed, citing(copied, "n.txt"));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(v.evidence, [{ kind: "commit", ref: copied, status: "preexisting" }]);
    assertEquals(v.worktree.commits, [copied, undo, mine]);
    const [ok, w] = await gate(f, one!, seed, citing(mine, "n.txt"));
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertEquals(w.evidence, [{ kind: "commit", ref: mine, status: "verified" }]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child's commit that changes none of its own paths (empty, or only the parent's carried edits) is not evidence; its next commit with its work is", async () => {
  const f = await family();
  try {
    await writeFiles(f.parent, { "f.txt": "the parent's staged edit\n" });
    await git(f.parent, ["add", "f.txt"]);
    const [[one], seed] = await spawn(f, 1);
    await git(one!, ["commit", "-q", "-m", "the parent's carried edit"]);
    const carried = await git(one!, ["rev-parse", "HEAD"]);
    await git(one!, ["commit", "-q", "--allow-empty", "-m", "empty"]);
    const empty = await git(one!, ["rev-parse", "HEAD"]);
    const mine = await commit(one!, { "n.txt": "new\n" }, "mine");
    for (const cited of [empty, carried]) {
      const [r, v] = await gate(f, one!, seed, citing(cited, "n.txt"));
      assertEquals(r.code, 1, r.stdout + r.stderr);
      assertEquals(v.evidence, [{ kind: "commit", ref: cited, status: "preexisting" }]);
    }
    const [ok, w] = await gate(f, one!, seed, citing(mine, "n.txt"));
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertEquals(w.evidence, [{ kind: "commit", ref: mine, status: "verified" }]);
    assertEquals(w.worktree.commits, [carried, empty, mine]);
  } finally {
    await f.cleanup();
  }
});

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("handshake --worktree with .. after a link into the parent's tree is refused up front, naming the real path, and nothing is left in the parent", async () => {
  const f = await family();
  try {
    await writeFiles(f.parent, { "src/x.txt": "x\n" });
    await git(f.parent, ["add", "src"]);
    await git(f.parent, ["commit", "-q", "-m", "src"]);
    await Deno.mkdir(join(f.kids, "elsewhere"));
    await Deno.symlink(join(f.parent, "src"), join(f.kids, "elsewhere", "link"));
    const dir = join(f.kids, "elsewhere", "link") + "/../kids/c1";
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
    assertEquals(await exists(join(f.parent, "kids")), false);
    assertEquals(await exists(join(f.kids, "elsewhere", "kids")), false);
    assertEquals(await git(f.parent, ["status", "--porcelain"]), "");
    assertEquals(
      await git(f.parent, ["worktree", "list", "--porcelain"]).then((l) =>
        l.split("\n").filter((x) => x.startsWith("worktree ")).length
      ),
      1,
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake --worktree with .. after a directory that does not exist yet makes the worktree where the path leads and creates nothing else", async () => {
  const f = await family();
  try {
    const dir = join(f.kids, "missing") + "/../c1";
    const r = await bin("handshake", ["--worktree", dir, "--json"], { cwd: f.parent });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.worktrees.map((w: { path: string }) => w.path), [
      join(await Deno.realPath(f.kids), "c1"),
    ]);
    assertEquals(await exists(join(f.kids, "missing")), false);
  } finally {
    await f.cleanup();
  }
});
