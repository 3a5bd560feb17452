/**
 * `handshake wrap --worktree DIR` through the real entry point (`--allow-run=git` only):
 * the child holds the parent's exact state, the parent is untouched, batches and
 * concurrent spawns get unique branches, and nothing is left behind on failure.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertMatch, assertOk } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import { parseV2Block, type V2Handshake } from "../src/handshake/v2/block.ts";
import { bin, git, writeFiles } from "./_helpers.ts";
import { CARRIED, dirtyFamily, linkedWorktrees, treeFacts } from "./_worktree_fixture.ts";

function v2(text: string): V2Handshake {
  const r = parseV2Block(text);
  if (r.kind !== "block") throw new Error(`no v2 block: ${r.reason}\n${text}`);
  return r.handshake;
}

async function bytes(dir: string, path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(join(dir, path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

Deno.test("handshake wrap --worktree carries staged, unstaged, deleted, untracked, binary, CRLF and odd paths exactly, never ignored files, and leaves the parent's tree, index and stash untouched", async () => {
  const f = await dirtyFamily();
  try {
    const before = await treeFacts(f.parent);
    const indexBefore = await Deno.readFile(join(f.parent, ".git", "index"));
    const child = join(f.kids, "child");
    const r = await bin("handshake", ["wrap", "--worktree", child], {
      cwd: f.parent,
      stdin: "Fix the bug.\n",
    });
    assertEquals(r.code, 0, r.stderr);
    assertOk(r.stdout.startsWith("<!-- subagent-env-handshake v2 -->\n\nparent_head: "));
    assertOk(r.stdout.endsWith("<!-- /subagent-env-handshake -->\n\nFix the bug.\n"));
    const block = v2(r.stdout);
    assertEquals(block.workspace_mode, "worktree");
    assertEquals(block.worktree_path, child);
    assertEquals(block.worktree_cwd, child);
    assertOk(/^tether\/[0-9a-f]{12}-\d+$/.test(block.worktree_branch!), block.worktree_branch);
    assertEquals(block.parent_head, before.head);
    assertEquals(block.parent_cwd, f.parent);
    // The child: the parent's HEAD on the new branch, the same status and staged entries.
    const kid = await treeFacts(child);
    assertEquals(kid.head, before.head);
    assertEquals(kid.status, before.status);
    assertEquals(kid.staged, before.staged);
    assertEquals(await git(child, ["rev-parse", "--abbrev-ref", "HEAD"]), block.worktree_branch);
    for (const path of CARRIED) {
      assertEquals(await bytes(child, path), await bytes(f.parent, path), path);
    }
    for (const path of ["secret.env", "build/out.env", "gone.txt", "del.txt", "stashed.txt"]) {
      assertEquals(await bytes(child, path), undefined, path);
    }
    // The parent: nothing changed.
    assertEquals(await treeFacts(f.parent), before);
    assertEquals(await Deno.readFile(join(f.parent, ".git", "index")), indexBefore);
    // The seed is anchored and the child verifies.
    assertEquals(
      await git(f.parent, ["rev-parse", `refs/tether/seeds/${block.seed}`]),
      block.seed,
    );
    const v = await bin("verify", [], { cwd: child, stdin: r.stdout });
    assertEquals(v.code, 0, v.stdout + v.stderr);
    assertEquals(v.stdout, `environment-verified: ${before.head} on ${block.worktree_branch}\n`);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a v1 verifier takes its missing or error path on a v2 block, never a match", async () => {
  const f = await dirtyFamily();
  try {
    const r = await bin("handshake", ["wrap", "--worktree", join(f.kids, "c")], {
      cwd: f.parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 0, r.stderr);
    // The seed's prose: parse the `<!-- subagent-env-handshake v1 -->` block; there is none.
    assertEquals(r.stdout.split("\n").includes("<!-- subagent-env-handshake v1 -->"), false);
    // tether's v1 parser refuses the v2 sentinel.
    assertOk(parseBlock(r.stdout).kind !== "block");
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake --worktree DIR --count 3 --json makes DIR/1..3 from one seed, each on its own branch, from a subdirectory", async () => {
  const f = await dirtyFamily();
  try {
    const r = await bin("handshake", [
      "wrap",
      "--worktree",
      join(f.kids, "batch"),
      "--count",
      "3",
      "--json",
      "--context",
    ], { cwd: join(f.parent, "sub"), stdin: "task\n" });
    assertEquals(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.blocks.length, 3);
    assertEquals(doc.prompts.length, 3);
    assertEquals(doc.worktrees.length, 3);
    const blocks = (doc.prompts as string[]).map(v2);
    assertEquals(new Set(blocks.map((b) => b.seed)).size, 1);
    assertEquals(blocks[0]!.seed, doc.seed);
    assertEquals(new Set(blocks.map((b) => b.worktree_branch)).size, 3);
    assertIncludes(doc.prompts[0], "[working-context]");
    for (const [i, b] of blocks.entries()) {
      const path = join(f.kids, "batch", String(i + 1));
      assertEquals(b.worktree_path, path);
      assertEquals(b.worktree_cwd, join(path, "sub"));
      assertEquals(doc.worktrees[i].path, path);
      const v = await bin("verify", [], { cwd: join(path, "sub"), stdin: doc.prompts[i] });
      assertEquals(v.code, 0, v.stdout);
    }
  } finally {
    await f.cleanup();
  }
});

Deno.test("several handshake processes spawning from one parent at once all succeed with unique branches", async () => {
  const f = await dirtyFamily();
  try {
    const before = await treeFacts(f.parent);
    const runs = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        bin("handshake", ["--worktree", join(f.kids, `c${i}`)], { cwd: f.parent })
      ),
    );
    for (const r of runs) assertEquals(r.code, 0, r.stderr);
    const blocks = runs.map((r) => v2(r.stdout));
    assertEquals(new Set(blocks.map((b) => b.worktree_branch)).size, 4);
    assertEquals(new Set(blocks.map((b) => b.seed)).size, 1);
    for (const b of blocks) {
      const kid = await treeFacts(b.worktree_path!);
      assertEquals([kid.head, kid.status, kid.staged], [before.head, before.status, before.staged]);
    }
    assertEquals(await treeFacts(f.parent), before);
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake --worktree into a non-empty directory fails with exit 3, prints nothing and leaves no worktree or branch", async () => {
  const f = await dirtyFamily();
  try {
    const taken = join(f.kids, "taken");
    await writeFiles(taken, { "keep.txt": "mine\n" });
    const r = await bin("handshake", ["wrap", "--worktree", taken], {
      cwd: f.parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 3);
    assertEquals(r.stdout, "");
    assertOk(r.stderr.startsWith("error: "), r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1);
    assertEquals(await Deno.readTextFile(join(taken, "keep.txt")), "mine\n");
    assertEquals(await linkedWorktrees(f.parent), []);
    assertEquals(await git(f.parent, ["branch", "--list", "tether/*"]), "");
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake --worktree works in a SHA-256 repository", async () => {
  const f = await dirtyFamily({ sha256: true });
  try {
    const r = await bin("handshake", ["wrap", "--worktree", join(f.kids, "c")], {
      cwd: f.parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 0, r.stderr);
    const block = v2(r.stdout);
    assertEquals(block.seed.length, 64);
    const v = await bin("verify", [], { cwd: join(f.kids, "c"), stdin: r.stdout });
    assertEquals(v.code, 0, v.stdout);
  } finally {
    await f.cleanup();
  }
});

Deno.test("handshake worktree-mode usage errors exit 2", async () => {
  const f = await dirtyFamily();
  try {
    for (
      const args of [
        ["--worktree", "x", "--workspace-mode", "shared"],
        ["--worktree", "x", "--head", "a".repeat(40)],
        ["--workspace-mode", "other"],
        ["--worktree", "x", "--audience", "public", "--context"],
      ]
    ) {
      const r = await bin("handshake", args, { cwd: f.parent });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assertMatch(r.stderr, /^error: /);
    }
  } finally {
    await f.cleanup();
  }
});

Deno.test("a spawn from a directory holding only ignored files fails after making worktrees and branches, and undoes them all", async () => {
  const f = await dirtyFamily();
  try {
    const r = await bin("handshake", ["--worktree", join(f.kids, "b"), "--count", "2"], {
      cwd: join(f.parent, "build"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr, 'The parent\'s directory "build" holds nothing git carries');
    assertEquals(
      await git(f.parent, ["for-each-ref", "refs/heads/tether/", "refs/tether/spawned/"]),
      "",
    );
    assertEquals(await linkedWorktrees(f.parent), []);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a worktree directory inside the parent's tree is refused unless git ignores it", async () => {
  const f = await dirtyFamily();
  try {
    const before = await treeFacts(f.parent);
    const r = await bin("handshake", ["--worktree", "wt/child"], { cwd: f.parent });
    assertEquals(r.code, 3, r.stdout);
    assertIncludes(r.stderr, "is inside the parent's working tree and not ignored");
    assertEquals(await linkedWorktrees(f.parent), []);
    await writeFiles(f.parent, { ".git/info/exclude": "/wt/\n" });
    const ok = await bin("handshake", ["--worktree", "wt/child"], { cwd: f.parent });
    assertEquals(ok.code, 0, ok.stderr);
    assertEquals(await treeFacts(f.parent), before);
    const kid = await treeFacts(join(f.parent, "wt", "child"));
    assertEquals([kid.status, kid.staged], [before.status, before.staged]);
  } finally {
    await f.cleanup();
  }
});
