/**
 * gate's own comparison of the index with HEAD (src/gate/staged.ts): the tree ids it
 * computes from the index entries are the ones `git write-tree` writes, in SHA-1 and
 * SHA-256 repositories, whatever the names (tree order, bytes that are not UTF-8,
 * links, executables, submodules), and the paths it lists are a superset of what
 * `git diff --cached` lists.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { indexTrees, readIndex, stagedPaths } from "../src/gate/staged.ts";
import { git, makeRepo, writeFiles } from "./_helpers.ts";

/** Names whose tree order differs from a plain sort of the names, and odd bytes. */
const FILES: Record<string, string> = {
  "a-b": "1\n",
  "a/x": "2\n",
  "a0": "3\n",
  "a.b/c": "4\n",
  "a b/é.ts": "5\n",
  "deep/1/2/3/4/5/f": "6\n",
  "x.sh": "#!/bin/sh\n",
  "z": "7\n",
};

async function populate(repo: string): Promise<void> {
  await writeFiles(repo, FILES);
  await Deno.chmod(join(repo, "x.sh"), 0o755);
  await Deno.symlink("a0", join(repo, "link"));
  await git(repo, ["add", "-A"]);
  // The next two exist in the index only (a later `git add -A` would drop them).
  // A name that is not UTF-8 (0xff), made through git so no file system has to hold it.
  const blob = await git(repo, ["hash-object", "-w", "--stdin"], "raw\n");
  const child = new Deno.Command("git", {
    args: ["update-index", "-z", "--index-info"],
    cwd: repo,
    stdin: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const text = new TextEncoder();
  await writer.write(
    Uint8Array.from([...text.encode(`100644 ${blob}\tn`), 0xff, ...text.encode(".txt"), 0]),
  );
  await writer.close();
  assertEquals((await child.status).success, true);
  // A submodule pointer (a gitlink), also through the index alone.
  const commit = await git(repo, ["rev-parse", "HEAD"]);
  await git(repo, ["update-index", "--add", "--cacheinfo", `160000,${commit},vendor/sub`]);
}

for (const objectFormat of ["sha1", "sha256"] as const) {
  Deno.test(`the index's tree ids gate computes are git's own (${objectFormat})`, async () => {
    const repo = await makeRepo({ objectFormat });
    try {
      await populate(repo);
      const entries = await readIndex(repo);
      assertEquals(entries.some((e) => e.path === "n\udcff.txt"), true);
      const dirs = await indexTrees(entries, objectFormat);
      assertEquals(dirs.get("")!.id, await git(repo, ["write-tree"]));
      assertEquals(dirs.get("a/")!.id, await git(repo, ["write-tree", "--prefix=a/"]));
      assertEquals(
        dirs.get("deep/1/2/")!.id,
        await git(repo, ["write-tree", "--prefix=deep/1/2/"]),
      );
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  });
}

Deno.test("the paths gate finds staged include every path git diff --cached names", async () => {
  const repo = await makeRepo({
    files: { "keep/a": "1\n", "gone/b": "2\n", "c": "3\n", "d": "4\n" },
  });
  try {
    const head = await git(repo, ["rev-parse", "HEAD^{tree}"]);
    assertEquals(await stagedPaths(repo, "sha1", head, await readIndex(repo)), []);
    await writeFiles(repo, { "new/deep/e": "5\n", "c": "33\n" });
    await git(repo, ["rm", "-q", "-r", "--cached", "gone"]);
    await git(repo, ["rm", "-q", "--cached", "d"]);
    await writeFiles(repo, { "d/inside": "6\n" }).catch(() => {});
    await git(repo, ["add", "new", "c"]);
    await git(repo, ["add", "-N", "later"]).catch(() => {});
    const cached = (await git(repo, ["diff", "--cached", "--name-only", "--no-renames"]))
      .split("\n").filter((p) => p !== "");
    const found = await stagedPaths(repo, "sha1", head, await readIndex(repo));
    for (const path of cached) assertEquals(found.includes(path), true, `${path} in ${found}`);
    assertEquals(found.includes("keep/a"), false);
    // An unborn HEAD: everything the index holds.
    assertEquals(
      (await stagedPaths(repo, "sha1", null, await readIndex(repo))).sort(),
      (await git(repo, ["ls-files"])).split("\n").sort(),
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a conflicted index makes no tree, and its paths are listed", async () => {
  const repo = await makeRepo({ files: { "lib/c": "base\n", "other": "o\n" } });
  try {
    await git(repo, ["checkout", "-q", "-b", "side"]);
    await writeFiles(repo, { "lib/c": "side\n" });
    await git(repo, ["commit", "-q", "-am", "side"]);
    await git(repo, ["checkout", "-q", "main"]);
    await writeFiles(repo, { "lib/c": "main\n" });
    await git(repo, ["commit", "-q", "-am", "main"]);
    await new Deno.Command("git", { args: ["merge", "-q", "side"], cwd: repo }).output();
    const entries = await readIndex(repo);
    assertEquals(entries.filter((e) => e.stage !== 0).length, 3);
    const dirs = await indexTrees(entries, "sha1");
    assertEquals([dirs.get("")!.id, dirs.get("lib/")!.id], [null, null]);
    const head = await git(repo, ["rev-parse", "HEAD^{tree}"]);
    assertEquals(await stagedPaths(repo, "sha1", head, entries), ["lib/c"]);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
