/**
 * Issue 10: what paths hold is read through one private index with `git add -u` (linear in
 * the number of paths), and paths that lie under another of them (a link and a claim
 * beyond it, a file replaced by a directory) are read apart with pathspecs, exactly as
 * before; the mutation test shows the split matters.
 */
import { join } from "node:path";
import { assertEquals } from "../src/_assert.ts";
import { readContents } from "../src/context/content.ts";
import { repoDirs } from "../src/context/status.ts";
import { makeRepo, writeFiles } from "./_helpers.ts";
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

Deno.test({
  name: "a link and a claim beyond it, a file and the directory that replaced it, are each read",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "a": "a\n", "real/r.txt": "r\n", "plain.txt": "p\n" } });
  try {
    await Deno.remove(join(repo, "a"));
    await writeFiles(repo, { "a/x.txt": "x\n", "plain.txt": "changed\n" });
    await Deno.symlink("real", join(repo, "link"));
    const { commonDir, format } = await repoDirs(repo);
    const read = await readContents(repo, commonDir, format, [
      "link",
      "link/r.txt",
      "a/x.txt",
      "a",
      "plain.txt",
      "gone.txt",
    ]);
    // In one index, each placeholder here would displace the one before it.
    const kinds = Object.fromEntries([...read].map(([path, c]) => [path, c.kind]));
    assertEquals(kinds, {
      "link/r.txt": "absent",
      "link": "symlink",
      "a": "absent",
      "a/x.txt": "file",
      "plain.txt": "file",
      "gone.txt": "absent",
    });
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

const CASES: GuardCase[] = [{
  guard: "paths that lie under another of them are read apart",
  mutations: [{
    file: "src/context/content.ts",
    find: "const nested = nestedPaths(all); // guard: nested paths read apart",
    replace: "const nested = new Set<string>();",
  }],
  file: "tests/context_content_test.ts",
  filter: "a link and a claim beyond it",
}];

Deno.test("mutation: reading nested paths in the one index loses the link", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy reads the nested paths", async () => {
  await assertControlPasses(CASES);
});
