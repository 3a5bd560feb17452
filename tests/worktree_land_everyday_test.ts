/**
 * Worktree mode in the repositories people have, through the real entry points
 * (`handshake --worktree`, `verify` in the child, `gate --worktree --land`, each with
 * `--allow-run=git` only): a Gradle wrapper's CRLF `.bat` files, a submodule with
 * uncommitted work, a cone-mode sparse checkout. An honest child's work lands and the
 * parent's own uncommitted work is kept; where landing cannot be done, one line of tether's
 * says why and what to run. LFS attributes and filters: tests/worktree_land_filters_test.ts.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, makeRepo, type Run, writeFiles } from "./_helpers.ts";
import {
  committedFamily,
  exists,
  type Family,
  landChild,
  linkedWorktrees,
  spawnVerified,
  text,
} from "./_worktree_fixture.ts";

/** A Gradle wrapper's batch file, as git checks it out under `*.bat text eol=crlf`. */
const BAT = "@rem Gradle startup script for Windows\r\n@echo off\r\n";

/** What a user sees on stderr: tether's one line, never git's own text. */
function assertOwnWords(r: Run): void {
  assertEquals(/exited with|fatal:|not uptodate|Cannot merge/.test(r.stderr), false, r.stderr);
}

/** A parent with the parent's own uncommitted work beside its committed files. */
async function withOwnWork(f: Family): Promise<void> {
  await writeFiles(f.parent, { "own.txt": "the parent's own, untracked\n" });
}

/** The parent's own work after a land: as it was, plus what it wrote while the child ran. */
async function assertOwnWorkKept(f: Family): Promise<void> {
  assertEquals(await text(f.parent, "own.txt"), "the parent's own, untracked\n");
  assertEquals(await text(f.parent, "later.txt"), "written while the child ran\n");
}

/** The child edits `files` and commits; the parent writes a file of its own meanwhile. */
async function childCommits(f: Family, child: string, files: Record<string, string>) {
  await writeFiles(child, files);
  await commitAll(child, "child's work");
  await writeFiles(f.parent, { "later.txt": "written while the child ran\n" });
}

Deno.test("a Gradle wrapper's *.bat text eol=crlf: the child verifies, and an edit of another file lands", async () => {
  const f = await committedFamily({
    ".gitattributes": "*.bat text eol=crlf\n",
    "gradlew.bat": BAT,
    "a.txt": "a\n",
  });
  try {
    await withOwnWork(f);
    const [child, seed] = await spawnVerified(f, "c1");
    assertEquals(await text(child, "gradlew.bat"), BAT);
    await childCommits(f, child, { "a.txt": "a\nchild\n" });
    const r = await landChild(f, child, seed, ["a.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: a.txt");
    assertEquals(await text(f.parent, "a.txt"), "a\nchild\n");
    assertEquals(await text(f.parent, "gradlew.bat"), BAT);
    assertEquals(await git(f.parent, ["status", "--porcelain", "--", "gradlew.bat"]), "");
    await assertOwnWorkKept(f);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a Gradle wrapper's *.bat text eol=crlf: a CRLF edit of gradlew.bat itself lands byte for byte", async () => {
  const f = await committedFamily({
    ".gitattributes": "*.bat text eol=crlf\n",
    "gradlew.bat": BAT,
  });
  try {
    await withOwnWork(f);
    const [child, seed] = await spawnVerified(f, "c1");
    await childCommits(f, child, { "gradlew.bat": `${BAT}@rem child\r\n` });
    const r = await landChild(f, child, seed, ["gradlew.bat"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(await text(f.parent, "gradlew.bat"), `${BAT}@rem child\r\n`);
    assertEquals(
      await git(f.parent, ["status", "--porcelain", "--", "gradlew.bat"]),
      " M gradlew.bat",
    );
    await assertOwnWorkKept(f);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a Gradle wrapper's *.bat text eol=crlf: an LF line git would rewrite is refused in one line saying what to do", async () => {
  const f = await committedFamily({
    ".gitattributes": "*.bat text eol=crlf\n",
    "gradlew.bat": BAT,
  });
  try {
    const [child, seed] = await spawnVerified(f, "c1");
    await childCommits(f, child, { "gradlew.bat": `${BAT}@rem child\n` });
    const r = await landChild(f, child, seed, ["gradlew.bat"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(r.stderr, "nothing landed");
    assertIncludes(r.stderr, "gradlew.bat (eol=crlf)");
    assertIncludes(r.stderr, "end those lines with CRLF in the child");
    assertOwnWords(r);
    assertEquals(await text(f.parent, "gradlew.bat"), BAT);
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a CRLF file under text whose child only changed its line ends is refused with the command that lands it", async () => {
  const f = await committedFamily({ ".gitattributes": "*.txt text\n", "f.txt": "one\ntwo\n" });
  try {
    // A Windows-style checkout: the file is CRLF on disk, and git takes it for clean.
    await git(f.parent, ["config", "core.eol", "crlf"]);
    await Deno.remove(join(f.parent, "f.txt"));
    await git(f.parent, ["checkout", "--", "f.txt"]);
    assertEquals(await text(f.parent, "f.txt"), "one\r\ntwo\r\n");
    const [child, seed] = await spawnVerified(f, "c1");
    await writeFiles(child, { "f.txt": "one\ntwo\n" });
    const r = await landChild(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "nothing landed");
    assertIncludes(r.stderr, "conversion hides (line ends) at f.txt");
    assertIncludes(r.stderr, "git cat-file blob ");
    assertOwnWords(r);
    assertEquals(await text(f.parent, "f.txt"), "one\r\ntwo\r\n");
  } finally {
    await f.cleanup();
  }
});

/** A committed parent with a submodule `sm` (from a repository of its own) checked out. */
async function withSubmodule(): Promise<{ f: Family; source: string }> {
  const source = await makeRepo({ files: { "s.txt": "s\n" } });
  const f = await committedFamily({ "a.txt": "a\n" });
  await git(f.parent, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", source, "sm"]);
  await git(f.parent, ["commit", "-qm", "submodule"]);
  return { f, source };
}

Deno.test("a submodule with uncommitted work: the child verifies, an edit at the top level lands, the submodule's work stays", async () => {
  const { f, source } = await withSubmodule();
  try {
    await withOwnWork(f);
    await writeFiles(join(f.parent, "sm"), { "s.txt": "s\nuncommitted\n", "scratch.txt": "u\n" });
    assertIncludes(await git(f.parent, ["status", "--porcelain"]), " M sm");
    const inside = await git(join(f.parent, "sm"), ["status", "--porcelain"]);
    const [child, seed] = await spawnVerified(f, "c1");
    await childCommits(f, child, { "a.txt": "a\nchild\n" });
    const r = await landChild(f, child, seed, ["a.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: a.txt");
    assertEquals(await text(f.parent, "a.txt"), "a\nchild\n");
    assertEquals(await text(f.parent, "sm/s.txt"), "s\nuncommitted\n");
    assertEquals(await git(join(f.parent, "sm"), ["status", "--porcelain"]), inside);
    await assertOwnWorkKept(f);
  } finally {
    await f.cleanup();
    await Deno.remove(source, { recursive: true });
  }
});

Deno.test("a submodule checked out at another commit than the index records: the spawn says what to run, and makes nothing", async () => {
  const { f, source } = await withSubmodule();
  try {
    await commitAll(join(f.parent, "sm"), "moved inside the submodule");
    const r = await bin("handshake", ["--worktree", join(f.kids, "c1")], { cwd: f.parent });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(r.stderr, "at sm;");
    assertIncludes(r.stderr, "git add -- PATH");
    assertIncludes(r.stderr, "git submodule update -- PATH");
    assertOwnWords(r);
    assertEquals(await linkedWorktrees(f.parent), []);
    // As the line says: stage the move, and the spawn succeeds.
    await git(f.parent, ["add", "--", "sm"]);
    await spawnVerified(f, "c2");
  } finally {
    await f.cleanup();
    await Deno.remove(source, { recursive: true });
  }
});

Deno.test("a cone-mode sparse checkout: the child verifies, an edit inside the cone lands, the paths outside stay sparse", async () => {
  const f = await committedFamily({ "in/i.txt": "i\n", "out/o.txt": "o\n", "top.txt": "top\n" });
  try {
    await git(f.parent, ["sparse-checkout", "set", "--cone", "in"]);
    assertEquals(await exists(join(f.parent, "out")), false);
    await withOwnWork(f);
    await writeFiles(f.parent, { "top.txt": "top, edited by the parent\n" });
    const [child, seed] = await spawnVerified(f, "c1");
    assertEquals(await exists(join(child, "out")), false);
    await childCommits(f, child, { "in/i.txt": "i\nchild\n" });
    const r = await landChild(f, child, seed, ["in/i.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: in/i.txt");
    assertEquals(await text(f.parent, "in/i.txt"), "i\nchild\n");
    assertEquals(await text(f.parent, "top.txt"), "top, edited by the parent\n");
    assertEquals(await exists(join(f.parent, "out")), false);
    assertEquals(await git(f.parent, ["ls-files", "-t", "--", "out/o.txt"]), "S out/o.txt");
    assertEquals(await git(f.parent, ["sparse-checkout", "list"]), "in");
    await assertOwnWorkKept(f);
    assertOk((await git(f.parent, ["status", "--porcelain"])).includes(" M in/i.txt"));
  } finally {
    await f.cleanup();
  }
});
