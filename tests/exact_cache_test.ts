/**
 * Issue 26: exact mode at git's pace. The capture through the private indexes that persist
 * per worktree (src/seed/cached.ts) records the very state the full capture records
 * (src/seed/state.ts), whatever the tree holds and whatever the private index held from
 * the capture before: untracked, ignored and tracked-but-ignored files, the user's ignore
 * file, links, the executable bit, a nested repository, a file replaced by a directory, a
 * same-size edit right after a capture, attributes that would convert content, and two
 * captures at once.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertNotEquals, assertOk } from "../src/_assert.ts";
import { captureState, type TreeState } from "../src/seed/state.ts";
import { CACHE_INDEX, captureCachedState } from "../src/seed/cached.ts";
import { bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";

/** The paths the private index holds (none when only the full capture ran). */
async function cachedPaths(dir: string): Promise<string[]> {
  const index = join(dir, ".git", CACHE_INDEX);
  const r = await run("git", ["ls-files", "-z"], { cwd: dir, env: { GIT_INDEX_FILE: index } });
  return r.stdout.split("\0").filter(Boolean).sort();
}

/**
 * The cached capture equals the full one, and is returned; unless `full` is set, it went
 * through the private index (which then holds exactly the recorded tree's paths).
 */
async function same(dir: string, note: string, full = false): Promise<TreeState> {
  const cached = await captureCachedState(dir);
  assertEquals(cached, await captureState(dir), note);
  const recorded = (await git(dir, ["ls-tree", "-r", "--name-only", "-z", cached.worktree]))
    .split("\0").filter(Boolean).sort();
  assertEquals(await cachedPaths(dir), full ? [] : recorded, `${note}: the private index`);
  return cached;
}

Deno.test("the cached capture records what the full capture records, capture after capture", async () => {
  const dir = await makeRepo({
    files: { "a.txt": "a\n", "b.txt": "b\n", "run.sh": "#!/bin/sh\n", "d/c.txt": "c\n" },
  });
  try {
    const first = await same(dir, "clean");
    assertOk(await Deno.stat(join(dir, ".git", CACHE_INDEX)), "the private index persists");
    await writeFiles(dir, { "a.txt": "edited\n", "new.txt": "new\n", "d/e/f.txt": "f\n" });
    await Deno.remove(join(dir, "b.txt"));
    await git(dir, ["add", "a.txt"]);
    await writeFiles(dir, { "a.txt": "edited again\n" });
    if (Deno.build.os !== "windows") {
      await Deno.chmod(join(dir, "run.sh"), 0o755);
      await Deno.symlink("a.txt", join(dir, "link"));
    }
    const edited = await same(dir, "edited, staged, deleted, untracked, mode, link");
    assertNotEquals(edited.worktree, first.worktree);
    // Nothing staged but an intent-to-add entry (`diff-index --cached` does not show it).
    await git(dir, ["reset", "-q"]);
    await same(dir, "nothing staged");
    await git(dir, ["add", "-N", "new.txt"]);
    await same(dir, "an intent-to-add entry");
    await git(dir, ["reset", "-q"]);
    // A file replaced by a directory, and a directory by a file.
    await Deno.remove(join(dir, "new.txt"));
    await writeFiles(dir, { "new.txt/inside": "x\n" });
    await Deno.remove(join(dir, "d"), { recursive: true });
    await writeFiles(dir, { d: "now a file\n" });
    await same(dir, "file and directory swapped");
    // Back to the first state: the same ids, whatever the private index held.
    await Deno.remove(join(dir, "new.txt"), { recursive: true });
    await Deno.remove(join(dir, "d"));
    await Deno.remove(join(dir, "link")).catch(() => {});
    await git(dir, ["reset", "-q", "--hard"]);
    await Deno.chmod(join(dir, "run.sh"), 0o644).catch(() => {});
    assertEquals(await same(dir, "back"), first);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the cached capture leaves out what the ignore rules ignore, carries tracked files they hide, and follows rule changes", async () => {
  const dir = await makeRepo({ files: { "keep.log": "tracked\n", ".gitignore": "*.tmp\n" } });
  try {
    await writeFiles(dir, { ".gitignore": "*.tmp\n*.log\n", "x.tmp": "t\n", "y.txt": "y\n" });
    await writeFiles(dir, { "keep.log": "tracked, edited\n" }); // tracked, now ignored
    await same(dir, "ignored untracked, tracked ignored");
    // An untracked file captured before becomes ignored: it leaves the record.
    await writeFiles(dir, { ".gitignore": "*.tmp\n*.log\ny.txt\n" });
    await same(dir, "newly ignored");
    // And un-ignored again.
    await writeFiles(dir, { ".gitignore": "*.log\n" });
    await same(dir, "un-ignored");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the cached capture records a nested repository at its HEAD, as the full one does", async () => {
  const dir = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    await git(dir, ["init", "-q", "nested"]);
    await writeFiles(join(dir, "nested"), { "inner.txt": "inner\n" });
    await git(join(dir, "nested"), ["add", "-A"]);
    await git(join(dir, "nested"), [
      "-c",
      "user.name=N",
      "-c",
      "user.email=n@example.invalid",
      "commit",
      "-q",
      "-m",
      "inner",
    ]);
    await same(dir, "nested repository");
    await git(dir, ["init", "-q", "empty"]); // no commit: left out by both
    await same(dir, "nested repository without a commit");
    await Deno.remove(join(dir, "empty"), { recursive: true });
    await same(dir, "nested repository again");
    // A submodule in the index that is not checked out keeps its recorded commit.
    const commit = await git(join(dir, "nested"), ["rev-parse", "HEAD"]);
    await git(dir, ["update-index", "--add", "--cacheinfo", `160000,${commit},sub`]);
    await Deno.mkdir(join(dir, "sub"));
    const full = await captureState(dir);
    assertEquals(await captureCachedState(dir), full, "a submodule not checked out");
    assertOk((await git(dir, ["ls-tree", full.worktree])).includes(`commit ${commit}\tsub`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a same-size edit right after a cached capture is seen (a racily clean file is read again)", async () => {
  const dir = await makeRepo({ files: { "a.txt": "aaaa\n" } });
  try {
    let before = await captureCachedState(dir);
    for (const text of ["bbbb\n", "cccc\n", "dddd\n", "aaaa\n"]) {
      await writeFiles(dir, { "a.txt": text }); // same size, at once
      const after = await same(dir, `rewritten as ${JSON.stringify(text)}`);
      assertNotEquals(after.worktree, before.worktree);
      before = after;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("attributes that would convert content send the capture the full way: a CRLF-only rewrite under `text` halts", async () => {
  const dir = await makeRepo({ files: { ".gitattributes": "* text\n", "a.txt": "a\n" } });
  try {
    await same(dir, "attributes in the index", true);
    const prompt = (await bin("handshake", ["wrap", "--exact"], { cwd: dir, stdin: "t" })).stdout;
    assertEquals((await bin("verify", [], { cwd: dir, stdin: prompt })).code, 0);
    await writeFiles(dir, { "a.txt": "a\r\n" });
    const r = await bin("verify", [], { cwd: dir, stdin: prompt });
    assertEquals(r.code, 1, r.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an untracked .gitattributes, or one in info/attributes, sends the capture the full way", async () => {
  const dir = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    await same(dir, "no attributes");
    await writeFiles(dir, { ".gitattributes": "*.txt text\n", "b.txt": "b\r\n" });
    await same(dir, "an untracked .gitattributes", true);
    await Deno.remove(join(dir, ".gitattributes"));
    await writeFiles(dir, { ".git/info/attributes": "*.txt text\n" });
    await same(dir, "info/attributes", true);
    await Deno.remove(join(dir, ".git", "info", "attributes"));
    await same(dir, "none again: nothing converted was kept");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the user's ignore file leaves an untracked file out of the cached capture, whatever the repository's settings say", async () => {
  const home = await tempDir("tether-home-");
  const dir = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    await writeFiles(home, { ".config/git/ignore": "secret.env\nlocal/\n" });
    await writeFiles(dir, { "secret.env": "key\n", "local/x": "x\n", "b.txt": "b\n" });
    // The repository's own settings (which a child can write) un-ignore them for git.
    await git(dir, ["config", "core.excludesFile", "/dev/null"]);
    await writeFiles(dir, { ".git/info/exclude": "!secret.env\n" });
    const env = { HOME: home, XDG_CONFIG_HOME: "" };
    const prompt = await bin("handshake", ["wrap", "--exact"], { cwd: dir, stdin: "t", env });
    assertEquals(prompt.code, 0, prompt.stderr);
    const seed = /\nseed: ([0-9a-f]+)\n/.exec(prompt.stdout)![1]!;
    const files = await git(dir, ["ls-tree", "-r", "--name-only", `${seed}^{tree}`]);
    assertEquals(files.split("\n").sort(), ["a.txt", "b.txt"]);
    assertEquals(await cachedPaths(dir), ["a.txt", "b.txt"], "through the private index");
    // Never read: its bytes are not in the object store.
    const secret = await git(dir, ["hash-object", "--stdin"], "key\n");
    assertEquals((await run("git", ["cat-file", "-e", secret], { cwd: dir })).code !== 0, true);
    assertEquals((await bin("verify", [], { cwd: dir, stdin: prompt.stdout, env })).code, 0);
    await writeFiles(dir, { "secret.env": "other key\n", "b.txt": "changed\n" });
    assertEquals((await bin("verify", [], { cwd: dir, stdin: prompt.stdout, env })).code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("exact verifies started at once on one tree all match (a private index in use is waited for)", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`d${i % 5}/f${i}.txt`] = `${i}\n`;
  const dir = await makeRepo({ files });
  try {
    await writeFiles(dir, { "d0/f0.txt": "edited\n", "new.txt": "n\n" });
    const prompt = (await bin("handshake", ["wrap", "--exact"], { cwd: dir, stdin: "t" })).stdout;
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => bin("verify", [], { cwd: dir, stdin: prompt })),
    );
    for (const r of runs) assertEquals(r.code, 0, r.stdout + r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
