/**
 * `verify` on v2 worktree-mode blocks through the real entry point (`--allow-run=git`
 * only): matches only in the named worktree (or, for a harness-made one, a linked
 * worktree of the parent's repository) holding the seed's state; otherwise the finding
 * says what is wrong.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { DIVERGENCE_TEMPLATE } from "../src/handshake/finding.ts";
import { bin, commitAll, git, makeRepo, writeFiles } from "./_helpers.ts";
import { dirtyFamily, type Family } from "./_worktree_fixture.ts";

async function spawn(f: Family, name: string, cwd = f.parent): Promise<string> {
  const r = await bin("handshake", ["wrap", "--worktree", join(f.kids, name)], {
    cwd,
    stdin: "task\n",
  });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout;
}

function finding(text: string): string[] {
  return text.split("\n");
}

Deno.test("verify matches in the named worktree at the directory matching the parent's, and nowhere else", async () => {
  const f = await dirtyFamily();
  try {
    const prompt = await spawn(f, "child", join(f.parent, "sub"));
    const ok = await bin("verify", [], { cwd: join(f.kids, "child", "sub"), stdin: prompt });
    assertEquals(ok.code, 0, ok.stdout);
    assertOk(ok.stdout.startsWith("environment-verified: "));
    // The worktree's top level is not the parent's directory.
    const top = await bin("verify", [], { cwd: join(f.kids, "child"), stdin: prompt });
    assertEquals(top.code, 1, top.stdout);
    assertIncludes(top.stdout, "**Diverged fields:** worktree_cwd\n");
    assertIncludes(top.stdout, `wrong directory: change to ${join(f.kids, "child", "sub")}`);
    // The parent's own tree holds the same content but is not the child's worktree.
    const own = await bin("verify", [], { cwd: join(f.parent, "sub"), stdin: prompt });
    assertEquals(own.code, 1, own.stdout);
    assertIncludes(
      own.stdout,
      "**Diverged fields:** worktree_path, worktree_branch, worktree_cwd\n",
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("verify in a sibling's worktree or after an edit before Step 0 halts with the seed's finding and the paths", async () => {
  const f = await dirtyFamily();
  try {
    const mine = await spawn(f, "mine");
    await spawn(f, "sibling");
    const sib = await bin("verify", [], { cwd: join(f.kids, "sibling"), stdin: mine });
    assertEquals(sib.code, 1);
    assertIncludes(
      sib.stdout,
      "**Diverged fields:** worktree_path, worktree_branch, worktree_cwd\n",
    );
    await writeFiles(join(f.kids, "mine"), { "a.txt": "edited before Step 0\n", "x.log": "\n" });
    const r = await bin("verify", [], { cwd: join(f.kids, "mine"), stdin: mine });
    assertEquals(r.code, 1);
    const lines = finding(r.stdout);
    // The seed's layout: its lines in order, then seed and worktree after the fingerprint,
    // in both lists.
    const prefixes = (from: number) =>
      lines.slice(from, from + 6).map((l) => l.replace(/: .*$/, ":"));
    assertEquals(lines.slice(0, 4), [
      "## Finding: environment-divergence (halting)",
      "",
      "**Expected (from parent handshake):**",
      "",
    ]);
    const list = [
      "- HEAD:",
      "- branch:",
      "- CWD:",
      "- dirty fingerprint:",
      "- seed:",
      "- worktree:",
    ];
    assertEquals(prefixes(4), list);
    assertEquals(lines.slice(10, 12), ["", "**Observed (live git verification):**"]);
    assertEquals(prefixes(13), list);
    assertEquals(lines[20], "**Diverged fields:** parent_dirty_fingerprint, seed");
    const closing = DIVERGENCE_TEMPLATE.slice(DIVERGENCE_TEMPLATE.indexOf("The subagent halted"));
    assertEquals(lines.slice(22, 27).join("\n") + "\n", closing);
    assertIncludes(r.stdout, "**Diverged fields:** parent_dirty_fingerprint, seed\n");
    assertIncludes(
      r.stdout,
      "The subagent halted role work because its live environment does not match\n",
    );
    assertIncludes(r.stdout, "**What is wrong in this worktree:**\n");
    assertIncludes(r.stdout, "absent or different here: a.txt;");
    assertIncludes(r.stdout, "1 other path differ from the seed: x.log");
    const json = await bin("verify", ["--json"], { cwd: join(f.kids, "mine"), stdin: mine });
    const doc = JSON.parse(json.stdout);
    assertEquals(doc.status, "mismatch");
    assertEquals(doc.missing_paths, ["a.txt"]);
    assertEquals(doc.differing_paths.sort(), ["a.txt", "x.log"]);
    assertEquals(doc.diverged, ["parent_dirty_fingerprint", "seed"]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("verify catches a changed staged state with identical files (the seed records the index)", async () => {
  const f = await dirtyFamily();
  try {
    const prompt = await spawn(f, "c");
    await git(join(f.kids, "c"), ["add", "a.txt"]);
    await git(join(f.kids, "c"), ["reset", "-q", "staged.txt"]);
    await git(join(f.kids, "c"), ["add", "staged.txt"]);
    const r = await bin("verify", ["--json"], { cwd: join(f.kids, "c"), stdin: prompt });
    assertEquals(r.code, 1);
    const doc = JSON.parse(r.stdout);
    assertOk(doc.diverged.includes("seed"));
    assertEquals(doc.differing_paths.sort(), ["a.txt", "staged.txt"]);
  } finally {
    await f.cleanup();
  }
});

async function harnessPrompt(f: Family): Promise<string> {
  const r = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
    cwd: f.parent,
    stdin: "task\n",
  });
  assertEquals(r.code, 0, r.stderr);
  assertIncludes(
    r.stdout,
    "worktree_path: harness\nworktree_branch: harness\nworktree_cwd: harness\n",
  );
  return r.stdout;
}

Deno.test("harness form: a worktree made from the parent's HEAD without its uncommitted work halts and names the missing paths", async () => {
  const f = await dirtyFamily();
  try {
    const prompt = await harnessPrompt(f);
    const wt = join(f.kids, "claude");
    await git(f.parent, ["worktree", "add", "-q", "-b", "tether/agent-a", wt, "HEAD"]);
    const r = await bin("verify", [], { cwd: wt, stdin: prompt });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "**Diverged fields:** parent_dirty_fingerprint, seed\n");
    assertIncludes(
      r.stdout,
      "missing work: the parent's uncommitted work at 10 paths is absent or different here: ",
    );
    for (const p of ["a.txt", "staged.txt", "gone.txt", "del.txt", "new.txt"]) {
      assertIncludes(r.stdout, p);
    }
    assertEquals(r.stdout.includes("secret.env"), false);
  } finally {
    await f.cleanup();
  }
});

Deno.test("harness form: stale, moved, diverged and unrelated bases are told apart with their distance", async () => {
  const parent = await makeRepo();
  const kids = await Deno.makeTempDir({ prefix: "tether-kids-" });
  const f: Family = {
    parent,
    kids: await Deno.realPath(kids),
    cleanup: async () => {
      const { removeWorktrees } = await import("./_worktree_fixture.ts");
      try {
        await removeWorktrees(parent);
      } finally {
        await Deno.remove(parent, { recursive: true });
        await Deno.remove(kids, { recursive: true });
      }
    },
  };
  try {
    const old = await git(parent, ["rev-parse", "HEAD"]);
    await commitAll(parent, "second");
    await commitAll(parent, "third");
    const prompt = await harnessPrompt(f);
    const stale = join(f.kids, "stale");
    await git(parent, ["worktree", "add", "-q", "--detach", stale, old]);
    const s = await bin("verify", [], { cwd: stale, stdin: prompt });
    assertEquals(s.code, 1);
    assertIncludes(s.stdout, "stale base: this worktree's HEAD ");
    assertIncludes(s.stdout, "is 2 commits behind the parent's HEAD");
    const moved = join(f.kids, "moved");
    await git(parent, ["worktree", "add", "-q", "--detach", moved, "HEAD"]);
    await commitAll(moved, "child made a commit before Step 0");
    assertIncludes(
      (await bin("verify", [], { cwd: moved, stdin: prompt })).stdout,
      "is 1 commit ahead of",
    );
    const other = join(f.kids, "other");
    await git(parent, ["worktree", "add", "-q", "--detach", other, old]);
    await commitAll(other, "elsewhere");
    assertIncludes(
      (await bin("verify", [], { cwd: other, stdin: prompt })).stdout,
      "have diverged (1 commit here, 2 commits there)",
    );
    const orphan = join(f.kids, "orphan");
    await git(parent, ["worktree", "add", "-q", "--detach", orphan, "HEAD"]);
    await git(orphan, ["checkout", "-q", "--orphan", "tether/orphan"]);
    await commitAll(orphan, "unrelated root");
    assertIncludes(
      (await bin("verify", [], { cwd: orphan, stdin: prompt })).stdout,
      "shares no history with the parent's HEAD",
    );
    // The parent's own main worktree is never a match.
    const own = await bin("verify", [], { cwd: parent, stdin: prompt });
    assertEquals(own.code, 1);
    assertIncludes(own.stdout, "not isolated: ");
    // A correct harness worktree matches.
    const good = join(f.kids, "good");
    await git(parent, ["worktree", "add", "-q", "--detach", good, "HEAD"]);
    const g = await bin("verify", [], { cwd: good, stdin: prompt });
    assertEquals(g.code, 0, g.stdout);
  } finally {
    await f.cleanup();
  }
});

Deno.test("harness form: a linked worktree of another repository is foreign (its seed is unknown there)", async () => {
  const f = await dirtyFamily();
  const stranger = await makeRepo();
  const wt = join(f.kids, "stranger-wt");
  try {
    const prompt = await harnessPrompt(f);
    await git(stranger, ["worktree", "add", "-q", "--detach", wt, "HEAD"]);
    const r = await bin("verify", [], { cwd: wt, stdin: prompt });
    assertEquals(r.code, 1);
    assertIncludes(r.stdout, "foreign worktree: ");
    assertIncludes(r.stdout, "unknown seed: the seed ");
    assertIncludes(r.stdout, "is not a commit in this repository");
  } finally {
    await git(stranger, ["worktree", "remove", "--force", wt]);
    await Deno.remove(stranger, { recursive: true });
    await f.cleanup();
  }
});

Deno.test("verify takes the error path for an unparseable v2 block, mixed harness fields, and a v1 sentinel over worktree fields", async () => {
  const f = await dirtyFamily();
  try {
    const prompt = await spawn(f, "c");
    const cut = prompt.replace(/worktree_cwd: .*\n/, "");
    const r = await bin("verify", [], { cwd: join(f.kids, "c"), stdin: cut });
    assertEquals(r.code, 3);
    assertIncludes(
      r.stdout,
      'environment-unverified: handshake block unparseable: field "worktree_cwd" is missing',
    );
    const half = prompt.replace(/worktree_branch: .*\n/, "worktree_branch: harness\n");
    assertEquals((await bin("verify", [], { cwd: join(f.kids, "c"), stdin: half })).code, 3);
    // A v1 verifier's sentinel with worktree mode stays the v1 error path.
    const v1 = prompt.replace("subagent-env-handshake v2", "subagent-env-handshake v1");
    const old = await bin("verify", [], { cwd: join(f.kids, "c"), stdin: v1 });
    assertEquals(old.code, 3);
    assertIncludes(old.stdout, "environment-unverified: ");
  } finally {
    await f.cleanup();
  }
});
