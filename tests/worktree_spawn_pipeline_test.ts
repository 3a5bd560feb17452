/**
 * Spawn writes the children's files from the parent's first reading while the parent is
 * read again (issue 9, item 6): when the parent changed in between, every child is written
 * again from the confirmed state and checked against it; when the parent never holds
 * still, the spawn is refused and leaves nothing, though files were being written.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, gitShim, makeRepo, tempDir, writeFiles } from "./_helpers.ts";
import { type Family, linkedWorktrees, removeWorktrees } from "./_worktree_fixture.ts";

async function family(): Promise<Family> {
  const parent = await makeRepo({ files: { "a.txt": "one\n", "b.txt": "b\n" } });
  // Dirty before the spawn, so a further edit leaves `git status` (the fingerprint) alone.
  await writeFiles(parent, { "a.txt": "one, edited\n", "new.txt": "untracked\n" });
  const kids = await tempDir("tether-kids-");
  return {
    parent,
    kids,
    cleanup: async () => {
      try {
        await removeWorktrees(parent);
      } finally {
        await Deno.remove(parent, { recursive: true }).catch(() => {});
        await Deno.remove(kids, { recursive: true }).catch(() => {});
      }
    },
  };
}

/**
 * A git on PATH that runs the real one and, after the parent-side hashing of a reading
 * (`hash-object -w`, which only the capture runs), appends a line to the parent's `a.txt`:
 * after the first one only (`once`), or after every one. Each `read-tree --reset -u` is
 * logged with the tree it wrote, one line a call.
 */
function editingShim(parent: string, once: boolean) {
  return gitShim(`case " $* " in
  *" hash-object --no-filters -w --stdin-paths "*)
    "$REAL" "$@"; rc=$?
    if ${once ? '[ ! -e "$DIR/edited" ]' : "true"}; then
      : > "$DIR/edited"; printf 'edited while read\\n' >> '${parent}/a.txt'
    fi
    exit $rc ;;
  *" read-tree --reset -u "*)
    for a in "$@"; do last=$a; done
    echo "$last" >> "$DIR/checkouts.log" ;;
esac`);
}

Deno.test("a parent edited between its first reading and the confirmed state: every child is written again from the confirmed state and holds it exactly", async () => {
  const f = await family();
  const shim = await editingShim(f.parent, true);
  try {
    const r = await bin("handshake", ["--worktree", join(f.kids, "c"), "--count", "2", "--json"], {
      cwd: f.parent,
      env: shim.env,
    });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    const parentA = await Deno.readTextFile(join(f.parent, "a.txt"));
    assertEquals(parentA, "one, edited\nedited while read\n");
    const seedTree = await git(f.parent, ["rev-parse", `${doc.seed}^{tree}`]);
    assertEquals(await git(f.parent, ["cat-file", "blob", `${seedTree}:a.txt`]), parentA.trimEnd());
    // Each child was first written from the earlier reading, then from the seed's tree.
    const log = (await Deno.readTextFile(join(shim.dir, "checkouts.log"))).split("\n");
    const trees = log.filter(Boolean);
    assertEquals(trees.filter((t) => t === seedTree).length, 2, trees.join(" "));
    assertEquals(trees.length, 4, trees.join(" "));
    for (const w of doc.worktrees as { path: string }[]) {
      assertEquals(await Deno.readTextFile(join(w.path, "a.txt")), parentA);
      assertEquals(await Deno.readTextFile(join(w.path, "new.txt")), "untracked\n");
      assertEquals(
        await git(w.path, ["status", "--porcelain"]),
        await git(f.parent, ["status", "--porcelain"]),
      );
    }
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a parent that never holds still while it is read: the spawn is refused and leaves no worktree, branch, spawn ref or directory, though the children's files were being written", async () => {
  const f = await family();
  const shim = await editingShim(f.parent, false);
  try {
    const dir = join(f.kids, "deep", "c");
    const r = await bin("handshake", ["--worktree", dir, "--count", "2"], {
      cwd: f.parent,
      env: shim.env,
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr, "kept moving");
    assertOk(!r.stderr.includes("\n    at "), r.stderr);
    // The first reading was handed to the children before the refusal.
    const log = await Deno.readTextFile(join(shim.dir, "checkouts.log")).catch(() => "");
    assertOk(log.split("\n").filter(Boolean).length > 0, "no child was being written");
    assertEquals(await linkedWorktrees(f.parent), []);
    assertEquals(await git(f.parent, ["branch", "--list", "tether/*"]), "");
    assertEquals(await git(f.parent, ["for-each-ref", "refs/tether/spawned/"]), "");
    assertEquals([...Deno.readDirSync(f.kids)], []);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});
