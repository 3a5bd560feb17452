/**
 * Worktree land of files under LFS attributes (`*.bin filter=lfs diff=lfs merge=lfs -text`),
 * through the real entry points with `--allow-run=git` only. git-lfs is not installed here:
 * without a driver git takes such files as plain bytes, and so does the land; with a driver
 * in the config (stood in for by one that logs each run) the child's raw bytes land and the
 * driver never runs inside gate. Where both sides changed such a file the land refuses in
 * one line giving the exact git command that takes the child's bytes, and the next land
 * finishes. A filter a child defines while the land runs never runs either.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { commitAll, git, gitShim, type Run, run, writeFiles } from "./_helpers.ts";
import {
  committedFamily,
  exists,
  type Family,
  landChild,
  spawnVerified,
  TEN,
  text,
} from "./_worktree_fixture.ts";

/** LFS attributes, as `git lfs track "*.bin"` writes them. */
const LFS = "*.bin filter=lfs diff=lfs merge=lfs -text\n";

/** A file's bytes. */
const bytes = (dir: string, path: string) => Deno.readFile(join(dir, path));

/** What a user sees on stderr: tether's one line, never git's own text. */
function assertOwnWords(r: Run): void {
  assertEquals(/exited with|fatal:|not uptodate|Cannot merge/.test(r.stderr), false, r.stderr);
}

/** A committed parent with LFS attributes, a binary `data.bin`, `a.txt` and own work. */
async function lfsFamily(): Promise<Family> {
  const f = await committedFamily({ ".gitattributes": LFS, "a.txt": "a\n" });
  await writeFiles(f.parent, { "data.bin": Uint8Array.from([0, 1, 2, 0xff, 10]) });
  await commitAll(f.parent, "data");
  await writeFiles(f.parent, { "own.txt": "the parent's own, untracked\n" });
  return f;
}

/**
 * Define the lfs driver in the parent's config as git-lfs would (clean, smudge, required),
 * each command logging its run to `marker` and passing the bytes through.
 */
async function defineDriver(f: Family, marker: string): Promise<void> {
  for (const kind of ["clean", "smudge"]) {
    await git(f.parent, ["config", `filter.lfs.${kind}`, `sh -c 'echo ${kind} >> ${marker}; cat'`]);
  }
  await git(f.parent, ["config", "filter.lfs.required", "true"]);
}

Deno.test("LFS attributes without git-lfs: a child's edit of a *.bin file lands its bytes", async () => {
  const f = await lfsFamily();
  try {
    const [child, seed] = await spawnVerified(f, "c1");
    const edited = Uint8Array.from([0, 1, 2, 0xff, 10, 0, 42]);
    await writeFiles(child, { "data.bin": edited });
    await commitAll(child, "child's work");
    const r = await landChild(f, child, seed, ["data.bin"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: data.bin");
    assertEquals(await bytes(f.parent, "data.bin"), edited);
    assertEquals(await text(f.parent, "own.txt"), "the parent's own, untracked\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("LFS attributes with a driver in the config: the child's bytes land and the driver never runs in the land", async () => {
  const f = await lfsFamily();
  const marker = join(f.kids, "driver-ran");
  try {
    await defineDriver(f, marker);
    const [child, seed] = await spawnVerified(f, "c1");
    const edited = Uint8Array.from([9, 9, 0, 10]);
    await writeFiles(child, { "data.bin": edited, "a.txt": "a\nchild\n" });
    await commitAll(child, "child's work");
    await Deno.remove(marker).catch(() => {}); // the spawn's status may clean (as the user's does)
    const r = await landChild(f, child, seed, ["data.bin", "a.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths: a.txt, data.bin");
    assertEquals(await bytes(f.parent, "data.bin"), edited);
    assertEquals(await exists(marker), false, "the lfs driver ran inside gate");
  } finally {
    await f.cleanup();
  }
});

Deno.test("LFS attributes with a driver, both sides changed the file: refused with the exact command, which lets the land finish", async () => {
  const f = await lfsFamily();
  const marker = join(f.kids, "driver-ran");
  try {
    await defineDriver(f, marker);
    const [child, seed] = await spawnVerified(f, "c1");
    await writeFiles(child, { "data.bin": "the child's version\n", "a.txt": "a\nchild\n" });
    await commitAll(child, "child's work");
    await writeFiles(f.parent, { "data.bin": "the parent's version\n" });
    await Deno.remove(marker).catch(() => {});
    const r = await landChild(f, child, seed, ["data.bin", "a.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(r.stderr, "nothing landed");
    assertIncludes(r.stderr, "data.bin changed on both sides");
    assertOwnWords(r);
    assertEquals(await text(f.parent, "data.bin"), "the parent's version\n");
    assertEquals(await text(f.parent, "a.txt"), "a\n");
    assertEquals(await exists(marker), false, "the lfs driver ran inside gate");
    // The line's command, run at the top level, takes the child's bytes; the land then ends.
    const command = /git cat-file blob '([^']+)' > 'data\.bin'/.exec(r.stderr);
    assertOk(command !== null, r.stderr);
    const blob = await run("git", ["cat-file", "blob", command![1]!], { cwd: f.parent });
    assertEquals(blob.code, 0, blob.stderr);
    await Deno.writeTextFile(join(f.parent, "data.bin"), blob.stdout);
    const again = await landChild(f, child, seed, ["data.bin", "a.txt"]);
    assertEquals(again.code, 0, again.stdout + again.stderr);
    assertIncludes(again.stdout, "landed: 1 path: a.txt");
    assertEquals(await text(f.parent, "data.bin"), "the child's version\n");
    assertEquals(await text(f.parent, "a.txt"), "a\nchild\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a text file under a configured filter that both sides changed is refused, though git could merge its lines", async () => {
  const f = await committedFamily({ ".gitattributes": "*.cfg filter=vault\n", "app.cfg": TEN });
  const marker = join(f.kids, "driver-ran");
  try {
    for (const kind of ["clean", "smudge"]) {
      await git(f.parent, [
        "config",
        `filter.vault.${kind}`,
        `sh -c 'echo ${kind} >> ${marker}; cat'`,
      ]);
    }
    const [child, seed] = await spawnVerified(f, "c1");
    await writeFiles(child, { "app.cfg": TEN.replace("line 9\n", "child 9\n") });
    await writeFiles(f.parent, { "app.cfg": TEN.replace("line 1\n", "parent 1\n") });
    await Deno.remove(marker).catch(() => {});
    const r = await landChild(f, child, seed, ["app.cfg"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "app.cfg (filter=vault)");
    assertIncludes(r.stderr, "app.cfg changed on both sides");
    assertEquals(await text(f.parent, "app.cfg"), TEN.replace("line 1\n", "parent 1\n"));
    assertEquals(await exists(marker), false, "the filter ran inside gate");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a filter driver a child defines while the land runs never runs: the attribute's name is pinned", async () => {
  const f = await lfsFamily();
  const marker = join(f.kids, "smudge-ran");
  const config = join(f.parent, ".git", "config");
  // The driver appears in the shared config as the land's checkout starts: after the land
  // read the config, so only the pin of the attribute's own name keeps it from running.
  const shim = await gitShim(`case " $* " in
  *" read-tree -m -u "*) "$REAL" config --file '${config}' filter.lfs.smudge "sh -c 'echo smudge >> ${marker}; cat'" ;;
esac`);
  try {
    const [child, seed] = await spawnVerified(f, "c1");
    await writeFiles(child, { "data.bin": "the child's version\n" });
    const r = await landChild(f, child, seed, ["data.bin"], shim.env);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(await text(f.parent, "data.bin"), "the child's version\n");
    assertEquals(await exists(marker), false, "a smudge raced into the shared config ran");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});
