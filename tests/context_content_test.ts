/**
 * Issue 10: what paths hold is read in a bounded number of git calls, each file once: git's
 * directory walk says which paths are regular files (a FIFO is never listed), `diff-files`
 * against placeholders gives their modes, and only those are hashed; links, special files
 * and paths that lie under another of them (a file replaced by a directory, a claim beyond
 * a link) are read apart with pathspecs, as before.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { readContents } from "../src/context/content.ts";
import { makeRepo, run, writeFiles } from "./_helpers.ts";
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";
import { repoDirs } from "../src/context/lstat.ts";

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

Deno.test({
  name: "a FIFO in a tracked file's place is never opened, even while a writer waits on it",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n", "b.txt": "b\n" } });
  const fifo = join(repo, "app.ts");
  await Deno.remove(fifo);
  const made = await run("mkfifo", [fifo]);
  assertEquals(made.code, 0, made.stderr);
  await writeFiles(repo, { "b.txt": "changed\n" });
  // The writer finishes only if someone opens the FIFO for reading.
  const writer = new Deno.Command("sh", {
    args: ["-c", "printf x > app.ts"],
    cwd: repo,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const { commonDir, format } = await repoDirs(repo);
    const read = await readContents(repo, commonDir, format, ["app.ts", "b.txt"]);
    assertEquals(read.get("app.ts")?.kind, "special");
    assertEquals(read.get("b.txt")?.kind, "file");
    const finished = await Promise.race([
      writer.status.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
    ]);
    assertEquals(finished, false, "the FIFO was opened for reading");
  } finally {
    writer.kill();
    await writer.status;
    await Deno.remove(repo, { recursive: true });
  }
});

const CASES: GuardCase[] = [{
  guard: "only files git's walk lists are read",
  mutations: [{
    file: "src/context/content.ts",
    find:
      `REGULAR_MODES.has(mode ?? "") && listed.has(path)) { // guard: only walked files are read`,
    replace: `REGULAR_MODES.has(mode ?? "")) {`,
  }],
  file: "tests/context_content_test.ts",
  filter: "a FIFO in a tracked file's place is never opened",
}];

Deno.test("mutation: reading what diff-files calls a file opens the FIFO", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy leaves the FIFO alone", async () => {
  await assertControlPasses(CASES);
});
