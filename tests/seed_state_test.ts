import { assertEquals, assertNotEquals, assertRejects } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import { pathToFileURL } from "node:url";
import { captureState, changedPaths } from "../src/seed/state.ts";
import { readSeed, SEED_REF_PREFIX, writeSeed } from "../src/seed/commit.ts";
import { commitAll, git, makeRepo, ROOT, run, tempDir, writeFiles } from "./_helpers.ts";

async function withRepo(body: (dir: string) => Promise<void>, sha256 = false) {
  const dir = await makeRepo({
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    ...(sha256 ? { objectFormat: "sha256" as const } : {}),
  });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("seed state sees a second edit of an already edited file (porcelain cannot)", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "parent\n" });
    const parent = await captureState(dir);
    await writeFiles(dir, { "a.txt": "sibling\n" });
    const live = await captureState(dir);
    assertEquals(live.head, parent.head);
    assertEquals(live.index, parent.index);
    assertNotEquals(live.worktree, parent.worktree);
    assertEquals(await changedPaths(dir, parent.worktree, live.worktree), ["a.txt"]);
  }));

Deno.test("seed state: staging or a soft reset moves index and HEAD, never the worktree tree", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "edit\n", "new.txt": "n\n" });
    const before = await captureState(dir);
    await git(dir, ["add", "a.txt"]);
    const staged = await captureState(dir);
    assertNotEquals(staged.index, before.index);
    assertEquals(staged.worktree, before.worktree);
    await commitAll(dir, "second");
    await git(dir, ["reset", "-q", "--soft", "HEAD~1"]);
    const reset = await captureState(dir);
    assertEquals(reset.worktree, before.worktree);
  }));

Deno.test("seed state includes untracked files, excludes ignored ones, leaves the user's index alone", () =>
  withRepo(async (dir) => {
    const indexBefore = await Deno.readFile(join(dir, ".git", "index"));
    const clean = await captureState(dir);
    await writeFiles(dir, { ".git/info/exclude": "secret.env\n", "secret.env": "token\n" });
    assertEquals((await captureState(dir)).worktree, clean.worktree);
    await writeFiles(dir, { "scratch/out.log": "x\n" });
    const dirty = await captureState(dir);
    assertEquals(await changedPaths(dir, clean.worktree, dirty.worktree), ["scratch/out.log"]);
    assertEquals(await Deno.readFile(join(dir, ".git", "index")), indexBefore);
  }));

Deno.test("seed state records a symlink as a link and skips a FIFO without reading it", async () => {
  if (Deno.build.os === "windows") return;
  await withRepo(async (dir) => {
    const clean = await captureState(dir);
    await Deno.symlink("a.txt", join(dir, "link"));
    const fifo = new Deno.Command("mkfifo", { args: [join(dir, "pipe")] });
    assertEquals((await fifo.output()).code, 0);
    const live = await captureState(dir);
    assertEquals(await changedPaths(dir, clean.worktree, live.worktree), ["link"]);
    const mode = await git(dir, ["ls-tree", live.worktree, "link"]);
    assertEquals(mode.split(" ")[0], "120000");
  });
});

Deno.test("a seed is a function of the state, survives gc, and reads back checked", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "edit\n", "u.txt": "u\n" });
    const state = await captureState(dir);
    const seed = await writeSeed(dir, state);
    assertEquals(await writeSeed(dir, state), seed);
    assertEquals(await git(dir, ["rev-parse", `${SEED_REF_PREFIX}${seed}`]), seed);
    await git(dir, ["gc", "-q", "--prune=now"]);
    assertEquals(await readSeed(dir, seed, "sha1"), state);
  }));

Deno.test("a seed replaced with git replace is refused, not read", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "edit\n" });
    const seed = await writeSeed(dir, await captureState(dir));
    await writeFiles(dir, { "a.txt": "forged\n" });
    const forged = await writeSeed(dir, await captureState(dir));
    await git(dir, ["replace", seed, forged]);
    // Replace refs are off for seed reads, so the real seed is read.
    assertEquals(
      (await readSeed(dir, seed, "sha1")).worktree,
      (await readSeed(dir, seed, "sha1")).worktree,
    );
    const real = await readSeed(dir, seed, "sha1");
    assertNotEquals(real.worktree, (await readSeed(dir, forged, "sha1")).worktree);
    await assertRejects(() => readSeed(dir, real.head, "sha1"));
  }));

Deno.test("seed state works in a SHA-256 repository", () =>
  withRepo(async (dir) => {
    const state = await captureState(dir);
    assertEquals(state.worktree.length, 64);
    const seed = await writeSeed(dir, state);
    assertEquals(await readSeed(dir, seed, "sha256"), state);
  }, true));

Deno.test("seed state neither locks nor rewrites the user's index (staged changes, stale cache tree)", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "staged\n", "c.txt": "new\n" });
    await git(dir, ["add", "a.txt", "c.txt"]); // invalidates the cache tree
    const before = await Deno.readFile(join(dir, ".git", "index"));
    const state = await captureState(dir);
    assertEquals(await Deno.readFile(join(dir, ".git", "index")), before);
    assertEquals(state.index, await git(dir, ["write-tree"]));
  }));

Deno.test("concurrent seed captures never interleave: each records the tree as it is", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "scratch.txt": "sibling\n" });
    const expected = await captureState(dir);
    const states = await Promise.all(Array.from({ length: 6 }, () => captureState(dir)));
    for (const state of states) assertEquals(state, expected);
  }));

Deno.test("a commit shaped like a seed (a merge of a one-commit branch) is not a seed", () =>
  withRepo(async (dir) => {
    const head = await git(dir, ["rev-parse", "HEAD"]);
    await git(dir, ["checkout", "-q", "-b", "side"]);
    await writeFiles(dir, { "side.txt": "s\n" });
    await commitAll(dir, "side");
    await git(dir, ["checkout", "-q", "main"]);
    await writeFiles(dir, { "main.txt": "m\n" });
    await commitAll(dir, "main");
    await git(dir, ["reset", "-q", "--hard", head]);
    await git(dir, ["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    const merge = await git(dir, ["rev-parse", "HEAD"]);
    await assertRejects(() => readSeed(dir, merge, "sha1"), /not a tether seed/);
  }));

Deno.test("a leftover lock of another capture's files does not stop a capture", () =>
  withRepo(async (dir) => {
    // What a killed capture of the old design left behind: a held ref lock and index locks.
    await Deno.mkdir(join(dir, ".git", "refs", "tether"), { recursive: true });
    await Deno.writeTextFile(join(dir, ".git", "refs", "tether", "seed-lock.lock"), "");
    await Deno.writeTextFile(join(dir, ".git", "tether-seed-index.lock"), "");
    assertEquals((await captureState(dir)).head, await git(dir, ["rev-parse", "HEAD"]));
  }));

Deno.test({
  name: "seed state reads the files twice: a file that changes between the reads is read again",
  ignore: Deno.build.os === "windows",
}, () =>
  withRepo(async (dir) => {
    // A git shim first on PATH edits a.txt right after the first raw hashing of the files,
    // so the two reads of one capture disagree; HEAD and the index stay as they were.
    const shims = await tempDir("tether-shim-");
    const real = (await run("sh", ["-c", "command -v git"])).stdout.trim();
    await Deno.writeTextFile(
      join(shims, "git"),
      `#!/bin/sh\n"${real}" "$@"; code=$?\ncase " $* " in *" hash-object "*" -w "*)\n` +
        `  if [ ! -e "${shims}/fired" ]; then : > "${shims}/fired"; ` +
        `printf 'moved\\n' > "${dir}/a.txt"; fi;;\nesac\nexit $code\n`,
    );
    await Deno.chmod(join(shims, "git"), 0o755);
    // The capture runs in a process of its own with the shim on its PATH: setting PATH in
    // this one would hand the shim to every test file running beside it (they share the
    // process), and a binary started meanwhile would be allowed a git that is gone by the
    // time it runs one.
    const module = pathToFileURL(join(ROOT, "src/seed/state.ts")).href;
    try {
      const captured = await run(Deno.execPath(), [
        "eval",
        "--ext=ts",
        `import { captureState } from ${JSON.stringify(module)};\n` +
        `console.log((await captureState(${JSON.stringify(dir)})).worktree);`,
      ], { env: { PATH: `${shims}:${Deno.env.get("PATH") ?? ""}` } });
      assertEquals(captured.code, 0, captured.stderr);
      await Deno.stat(join(shims, "fired")); // the shim moved the file
      assertEquals(
        await git(dir, ["rev-parse", `${captured.stdout.trim()}:a.txt`]),
        await git(dir, ["hash-object", "--no-filters", "a.txt"]),
      );
    } finally {
      await Deno.remove(shims, { recursive: true });
    }
  }));
