/**
 * `gate --worktree DIR [--land]` through the real entry points (`--allow-run=git` only):
 * the child's committed and uncommitted work is judged and landed exactly once, the
 * parent's own work is kept, conflicts change nothing.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, writeFiles } from "./_helpers.ts";
import { dirtyFamily, type Family, treeFacts } from "./_worktree_fixture.ts";

/** The seed of each spawned worktree, as the parent holds it (`handshake --json`). */
const seeds = new Map<string, string>();

async function spawn(f: Family, name: string, count = 1): Promise<string[]> {
  const r = await bin(
    "handshake",
    ["--worktree", join(f.kids, name), "--count", String(count), "--json"],
    { cwd: f.parent },
  );
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const paths: string[] = doc.worktrees.map((w: { path: string }) => w.path);
  for (const path of paths) seeds.set(path, doc.seed);
  return paths;
}

/** `--worktree DIR --seed ID` for a spawned worktree. */
const target = (dir: string) => ["--worktree", dir, "--seed", seeds.get(dir) ?? "0".repeat(40)];

function result(files: string[], evidence: object[]): string {
  return JSON.stringify({ ok: true, summary: "done", files_changed: files, errors: [], evidence });
}

const read = (dir: string, path: string) => Deno.readTextFile(join(dir, path));

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("gate --worktree --land applies the child's committed and uncommitted changes once, keeps the parent's own work and index, removes worktree and branch", async () => {
  const f = await dirtyFamily();
  try {
    const [child] = await spawn(f, "c");
    const branch = await git(child!, ["rev-parse", "--abbrev-ref", "HEAD"]);
    // The child commits one file and leaves other changes uncommitted.
    await writeFiles(child!, { "feature.txt": "feature\n" });
    const commit = await commitAll(child!, "child feature");
    await writeFiles(child!, { "a.txt": "a changed by the child\n" });
    await Deno.remove(join(child!, "new.txt"));
    // The parent keeps working while the child runs.
    await writeFiles(f.parent, { "staged.txt": "parent edited again\n", "mine.txt": "mine\n" });
    const before = await treeFacts(f.parent);
    const r = await bin("gate", [...target(child!), "--land", "--json"], {
      cwd: f.parent,
      stdin: result(["feature.txt", "a.txt", "new.txt"], [
        { kind: "commit", ref: commit, ok: true },
        { kind: "file", ref: "feature.txt", ok: true },
      ]),
    });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "accept");
    assertEquals(doc.worktree.commits, [commit]);
    assertEquals(doc.land.status, "landed");
    assertEquals(doc.land.paths.sort(), ["a.txt", "feature.txt", "new.txt"]);
    assertEquals(await read(f.parent, "feature.txt"), "feature\n");
    assertEquals(await read(f.parent, "a.txt"), "a changed by the child\n");
    assertEquals(await exists(join(f.parent, "new.txt")), false);
    // The parent's own work: carried and made while the child ran, once each.
    assertEquals(await read(f.parent, "staged.txt"), "parent edited again\n");
    assertEquals(await read(f.parent, "mine.txt"), "mine\n");
    assertEquals(await read(f.parent, "sub/inner.txt"), "inner changed\n");
    assertEquals(await read(f.parent, "secret.env"), "TOKEN=do-not-copy\n");
    const after = await treeFacts(f.parent);
    assertEquals([after.head, after.staged, after.stash], [
      before.head,
      before.staged,
      before.stash,
    ]);
    // Worktree, branch and spawn ref are gone.
    assertEquals(await exists(child!), false);
    assertEquals(await git(f.parent, ["branch", "--list", branch]), "");
  } finally {
    await f.cleanup();
  }
});

Deno.test("siblings that changed disjoint files all land; the second of two that changed the same lines is refused with its paths and nothing changes", async () => {
  const f = await dirtyFamily();
  try {
    const [one, two, three] = await spawn(f, "batch", 3);
    await writeFiles(one!, { "crlf.txt": "one\r\nfrom sibling one\r\n" });
    await writeFiles(two!, { "two.txt": "sibling two\n" });
    await commitAll(two!, "two");
    await writeFiles(three!, { "crlf.txt": "one\r\nfrom sibling three\r\n" });
    const file = (ref: string) => [{ kind: "file", ref, ok: true }];
    const l1 = await bin("gate", [...target(one!), "--land"], {
      cwd: f.parent,
      stdin: result(["crlf.txt"], file("crlf.txt")),
    });
    assertEquals(l1.code, 0, l1.stdout + l1.stderr);
    const l2 = await bin("gate", [...target(two!), "--land"], {
      cwd: f.parent,
      stdin: result(["two.txt"], file("two.txt")),
    });
    assertEquals(l2.code, 0, l2.stdout + l2.stderr);
    const before = await treeFacts(f.parent);
    const crlf = await Deno.readFile(join(f.parent, "crlf.txt"));
    const l3 = await bin("gate", [...target(three!), "--land"], {
      cwd: f.parent,
      stdin: result(["crlf.txt"], file("crlf.txt")),
    });
    assertEquals(l3.code, 1, l3.stdout);
    assertIncludes(l3.stdout, "verdict: accept\n");
    assertIncludes(l3.stdout, "conflict: nothing landed; ");
    assertIncludes(l3.stdout, ": crlf.txt\n");
    assertEquals(await treeFacts(f.parent), before);
    assertEquals(await Deno.readFile(join(f.parent, "crlf.txt")), crlf);
    assertEquals(await read(f.parent, "two.txt"), "sibling two\n");
    assertOk(await exists(three!), "the refused child's worktree stays");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree rejects unclaimed and unobserved changes, and --land then changes nothing", async () => {
  const f = await dirtyFamily();
  try {
    const [child] = await spawn(f, "c");
    await writeFiles(child!, { "claimed.txt": "x\n", "sneaky.txt": "not disclosed\n" });
    const before = await treeFacts(f.parent);
    const r = await bin("gate", [...target(child!), "--land"], {
      cwd: f.parent,
      stdin: result(["claimed.txt", "ghost.txt"], [{ kind: "file", ref: "claimed.txt", ok: true }]),
    });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "verdict: reject\n");
    assertIncludes(r.stdout, "Claimed changes were not observed: ghost.txt");
    assertIncludes(r.stdout, "did not claim: sneaky.txt");
    assertEquals(await treeFacts(f.parent), before);
    assertEquals(await exists(join(f.parent, "sneaky.txt")), false);
    assertOk(await exists(child!));
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree refuses a directory that is not a spawned worktree (exit 3) and bad flag combinations (exit 2)", async () => {
  const f = await dirtyFamily();
  try {
    const plain = join(f.kids, "plain");
    await git(f.parent, ["worktree", "add", "-q", "-b", "feature-x", plain, "HEAD"]);
    const stdin = result(["a.txt"], [{ kind: "file", ref: "a.txt", ok: true }]);
    const r = await bin("gate", [...target(plain), "--land"], { cwd: f.parent, stdin });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "not a branch handshake --worktree made");
    await git(f.parent, ["worktree", "remove", "--force", plain]);
    await git(f.parent, ["branch", "-q", "-D", "feature-x"]);
    const missing = await bin("gate", target(join(f.kids, "nope")), {
      cwd: f.parent,
      stdin,
    });
    assertEquals(missing.code, 3);
    for (
      const args of [
        ["--land"],
        [...target("x"), "--keep"],
        [...target("x"), "--since", "a".repeat(40)],
        ["--seed", "a".repeat(40)],
        ["--worktree", "x", "--seed", "abc"],
      ]
    ) {
      assertEquals((await bin("gate", args, { cwd: f.parent, stdin })).code, 2, args.join(" "));
    }
  } finally {
    await f.cleanup();
  }
});
