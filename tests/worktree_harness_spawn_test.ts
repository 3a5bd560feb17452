/**
 * Spawned children and the harness form, through the real entry points: verify's harness
 * form fails closed when the parent's repository cannot be resolved, `gate --worktree`
 * compares claims with the exact path bytes, the working context of a spawned child
 * describes the child's worktree, an intent-to-add entry is carried as one, and a failed
 * spawn leaves nothing behind.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";
import { linkedWorktrees, removeWorktrees } from "./_worktree_fixture.ts";

/** A parent with a staged edit, an unstaged edit and an untracked file. */
async function parentRepo(): Promise<string> {
  const parent = await makeRepo({
    files: { "a.txt": "one\ntwo\n", "b.txt": "keep\n", ".gitignore": "*.env\n" },
  });
  await writeFiles(parent, { "a.txt": "one\ntwo\nstaged\n" });
  await git(parent, ["add", "a.txt"]);
  await writeFiles(parent, { "b.txt": "keep\nunstaged\n", "u.txt": "untracked\n" });
  return parent;
}

async function cleanup(parent: string, ...dirs: string[]): Promise<void> {
  try {
    await removeWorktrees(parent);
  } finally {
    for (const dir of [parent, ...dirs]) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
}

// ---------------------------------------------------------------------------------------
// Finding 14: the harness form matches only when "same repository" is established.

/** A linked worktree of `repo` at `wt` holding exactly the seed's state. */
async function seededWorktree(repo: string, wt: string, seed: string, head: string) {
  await git(repo, ["worktree", "add", "-q", "--detach", wt, head]);
  await git(wt, ["read-tree", "--reset", "-u", `${seed}^{tree}`]);
  await git(wt, ["read-tree", `${seed}^2^{tree}`]);
}

Deno.test("harness form: a clone's worktree is foreign, and stays a mismatch once the parent's directory is gone; the parent's own worktree then cannot be confirmed either", async () => {
  const parent = await parentRepo();
  const work = await tempDir("tether-wt14-");
  try {
    await writeFiles(parent, { "scratch/n.txt": "notes\n" });
    const hs = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: join(parent, "scratch"),
      stdin: "task\n",
    });
    assertEquals(hs.code, 0, hs.stderr);
    const prompt = hs.stdout;
    const seed = /^seed: (\S+)$/m.exec(prompt)![1]!;
    const head = await git(parent, ["rev-parse", "HEAD"]);
    // A harness that makes the child's worktree in a clone sharing the objects.
    await git(work, ["clone", "-q", "--shared", parent, join(work, "clone")]);
    await seededWorktree(join(work, "clone"), join(work, "cw"), seed, head);
    // An honest harness worktree of the parent's own repository.
    await seededWorktree(parent, join(work, "own"), seed, head);
    const ownOk = await bin("verify", [], { cwd: join(work, "own", "scratch"), stdin: prompt });
    assertEquals(ownOk.code, 0, ownOk.stdout);
    const present = await bin("verify", [], { cwd: join(work, "cw", "scratch"), stdin: prompt });
    assertEquals(present.code, 1, present.stdout);
    assertIncludes(present.stdout, "foreign worktree: ");

    await Deno.remove(join(parent, "scratch"), { recursive: true });
    const gone = await bin("verify", [], { cwd: join(work, "cw", "scratch"), stdin: prompt });
    assertEquals(gone.code, 1, gone.stdout);
    assertIncludes(gone.stdout, "**Diverged fields:** worktree_path\n");
    assertIncludes(gone.stdout, "unconfirmed repository: ");
    const json = await bin("verify", ["--json"], {
      cwd: join(work, "cw", "scratch"),
      stdin: prompt,
    });
    assertEquals(JSON.parse(json.stdout).status, "mismatch");
    // Fail closed: without the parent's directory nothing shows which repository is the
    // parent's, so even its own linked worktree is not confirmed.
    const own = await bin("verify", [], { cwd: join(work, "own", "scratch"), stdin: prompt });
    assertEquals(own.code, 1, own.stdout);
    assertIncludes(own.stdout, "unconfirmed repository: ");
  } finally {
    await git(join(work, "clone"), ["worktree", "remove", "--force", join(work, "cw")]).catch(
      () => {},
    );
    await cleanup(parent, work);
  }
});

Deno.test("harness form: GIT_DIR in the child's environment does not make the parent's directory report the child's repository", async () => {
  const parent = await parentRepo();
  const work = await tempDir("tether-wt14-");
  try {
    const hs = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: parent,
      stdin: "task\n",
    });
    assertEquals(hs.code, 0, hs.stderr);
    const seed = /^seed: (\S+)$/m.exec(hs.stdout)![1]!;
    const head = await git(parent, ["rev-parse", "HEAD"]);
    await git(work, ["clone", "-q", "--shared", parent, join(work, "clone")]);
    const cw = join(work, "cw");
    await seededWorktree(join(work, "clone"), cw, seed, head);
    const gitDir = await git(cw, ["rev-parse", "--absolute-git-dir"]);
    const r = await bin("verify", [], {
      cwd: cw,
      stdin: hs.stdout,
      env: { GIT_DIR: gitDir, GIT_WORK_TREE: cw },
    });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "foreign worktree: ");
  } finally {
    await git(join(work, "clone"), ["worktree", "remove", "--force", join(work, "cw")]).catch(
      () => {},
    );
    await cleanup(parent, work);
  }
});

Deno.test("harness form: a git dir that is not <common>/worktrees/<id> is no linked worktree, even when it names the parent's common dir", async () => {
  const parent = await parentRepo();
  const work = await tempDir("tether-wt14-");
  try {
    const hs = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: parent,
      stdin: "task\n",
    });
    assertEquals(hs.code, 0, hs.stderr);
    const seed = /^seed: (\S+)$/m.exec(hs.stdout)![1]!;
    // A git dir of its own whose `commondir` is the parent's: git reports it as another
    // git dir than the common dir, yet no `git worktree` made it.
    const fake = join(work, "fake");
    const tree = join(work, "tree");
    await writeFiles(fake, {
      commondir: `${parent}/.git\n`,
      HEAD: `${await git(parent, ["rev-parse", "HEAD"])}\n`,
    });
    await writeFiles(tree, { ".git": `gitdir: ${fake}\n` });
    const head = await git(parent, ["rev-parse", "HEAD"]);
    await writeFiles(fake, {
      "logs/HEAD": `${"0".repeat(40)} ${head} T <t@example.invalid> 1700000000 +0000\tmade\n`,
    });
    await git(tree, ["read-tree", "--reset", "-u", `${seed}^{tree}`]);
    await git(tree, ["read-tree", `${seed}^2^{tree}`]);
    const r = await bin("verify", [], { cwd: tree, stdin: hs.stdout });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "is a main worktree, not a linked worktree");
  } finally {
    await cleanup(parent, work);
  }
});

Deno.test("tether-made form: a clone standing at the named path, on the named branch with the seed's state, is not the parent's linked worktree", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt14-");
  try {
    const dir = join(kids, "c");
    const r = await bin("handshake", ["wrap", "--worktree", dir], { cwd: parent, stdin: "task\n" });
    assertEquals(r.code, 0, r.stderr);
    const seed = /^seed: (\S+)$/m.exec(r.stdout)![1]!;
    const branch = /^worktree_branch: (\S+)$/m.exec(r.stdout)![1]!;
    const ok = await bin("verify", [], { cwd: dir, stdin: r.stdout });
    assertEquals(ok.code, 0, ok.stdout);
    await git(parent, ["worktree", "remove", "--force", dir]);
    await git(kids, ["clone", "-q", "--shared", "--no-checkout", parent, dir]);
    await git(dir, ["checkout", "-q", "-b", branch, await git(parent, ["rev-parse", "HEAD"])]);
    await git(dir, ["read-tree", "--reset", "-u", `${seed}^{tree}`]);
    await git(dir, ["read-tree", `${seed}^2^{tree}`]);
    const v = await bin("verify", [], { cwd: dir, stdin: r.stdout });
    assertEquals(v.code, 1, v.stdout);
    assertIncludes(v.stdout, "**Diverged fields:** worktree_path\n");
    assertIncludes(v.stdout, "is a main worktree, not the linked worktree the parent made there");
  } finally {
    await cleanup(parent, kids);
  }
});

// ---------------------------------------------------------------------------------------
// Finding 11: a claim covers exactly the one path whose bytes it names.

/** Spawn one child of `parent` at `dir`; its path and seed. */
async function spawnOne(parent: string, dir: string): Promise<{ path: string; seed: string }> {
  const r = await bin("handshake", ["--worktree", dir, "--json"], { cwd: parent });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return { path: doc.worktrees[0].path, seed: doc.seed };
}

/** `--seed ID` when this build's gate takes it (the parent's record of the seed). */
async function seedArgs(seed: string): Promise<string[]> {
  const help = await bin("gate", ["--help"]);
  return help.stdout.includes("--seed") ? ["--seed", seed] : [];
}

async function landResult(parent: string, child: { path: string; seed: string }, files: string[]) {
  // Evidence of the child's own work: the first file it claims (the parent's HEAD would be
  // preexisting, tests/worktree_evidence_test.ts).
  const text = JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "file", ref: files[0], ok: true }],
  });
  return await bin(
    "gate",
    ["--worktree", child.path, ...await seedArgs(child.seed), "--land", "--json"],
    { cwd: parent, stdin: text },
  );
}

/** The parent's untracked and changed paths, as raw bytes in octal escapes. */
async function parentPaths(parent: string): Promise<string> {
  const r = await run("bash", ["-c", "git status --porcelain -z | od -An -c"], { cwd: parent });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout.replace(/\s+/g, " ");
}

Deno.test("gate --worktree: one claim cannot cover two file names that are not UTF-8 (x\\377, x\\376); nothing lands", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt11-");
  try {
    const child = await spawnOne(parent, join(kids, "c"));
    const made = await run("bash", [
      "-c",
      `printf 'disclosed\\n' > "$(printf 'x\\377')"; printf 'payload\\n' > "$(printf 'x\\376')"`,
    ], { cwd: child.path });
    assertEquals(made.code, 0, made.stderr);
    const before = await parentPaths(parent);
    const r = await landResult(parent, child, ["x\ufffd"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "reject");
    assertEquals(doc.land, undefined);
    assertEquals(doc.changes.confirmed, []);
    assertEquals(doc.changes.observed_unclaimed.length, 2);
    assertOk(
      doc.reasons.some((x: string) =>
        x.startsWith("Changes in the child's worktree that it did not claim: ")
      ),
      doc.reasons,
    );
    assertEquals(await parentPaths(parent), before);
    assertEquals(before.includes("377") || before.includes("376"), false);
    // A claim naming the exact bytes (U+DC80 + byte, as gate reports them) confirms one
    // path each, so both named land and nothing else.
    const exact = await landResult(parent, child, doc.changes.observed_unclaimed);
    assertEquals(exact.code, 0, exact.stdout + exact.stderr);
    assertEquals(JSON.parse(exact.stdout).land.paths.length, 2);
    const after = await parentPaths(parent);
    assertIncludes(after, "x 377");
    assertIncludes(after, "x 376");
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("gate --worktree: a byte-order mark at the start of git's output does not merge two names (\\uFEFF😀 and 😀)", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt11-");
  try {
    const child = await spawnOne(parent, join(kids, "c"));
    await writeFiles(child.path, { "😀": "disclosed\n", "\uFEFF😀": "payload\n" });
    const r = await landResult(parent, child, ["😀"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.changes.confirmed, ["😀"]);
    assertEquals(doc.changes.observed_unclaimed, ["\uFEFF😀"]);
    assertEquals(doc.land, undefined);
    assertEquals(await git(parent, ["status", "--porcelain", "--", "*😀"]), "");
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("gate --worktree: a claim that is not a string is a schema rejection (exit 1), not a crash", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt11-");
  try {
    const child = await spawnOne(parent, join(kids, "c"));
    await writeFiles(child.path, { "n.txt": "new\n" });
    const r = await landResult(parent, child, [1 as unknown as string, "n.txt"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "reject");
    assertIncludes(doc.reasons[0], "files_changed[0]");
    assertEquals(doc.land, undefined);
  } finally {
    await cleanup(parent, kids);
  }
});

// ---------------------------------------------------------------------------------------
// Finding 13: intent-to-add entries are carried; a failed spawn leaves nothing.

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

const refsOf = (repo: string) =>
  git(repo, ["for-each-ref", "--format=%(refname)", "refs/tether/", "refs/heads/tether/"]);

Deno.test("an intent-to-add entry (git add -N) is carried as one: the spawn succeeds, the child's status is the parent's, verify matches", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt13-");
  try {
    await writeFiles(parent, { "ita.txt": "new module\n", "sub/ita2.txt": "two\n" });
    await git(parent, ["add", "-N", "ita.txt", "sub/ita2.txt"]);
    const status = await git(parent, ["status", "--porcelain"]);
    assertIncludes(status, " A ita.txt");
    const r = await bin("handshake", [
      "wrap",
      "--worktree",
      join(kids, "b"),
      "--count",
      "2",
      "--json",
    ], {
      cwd: parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    for (const [i, w] of doc.worktrees.entries()) {
      assertEquals(await git(w.path, ["status", "--porcelain"]), status);
      assertEquals(await Deno.readTextFile(join(w.path, "ita.txt")), "new module\n");
      // git's own intent-to-add entry: hidden from the staged diff, shown as new in `git diff`.
      assertEquals(await git(w.path, ["diff", "--cached", "--name-only"]), "a.txt");
      assertIncludes(await git(w.path, ["diff", "--name-only"]), "ita.txt");
      const v = await bin("verify", [], { cwd: w.path, stdin: doc.prompts[i] });
      assertEquals(v.code, 0, v.stdout);
    }
    assertEquals(await git(parent, ["status", "--porcelain"]), status);
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("an intent-to-add entry whose file is deleted is refused with one line naming it; the failed spawn leaves no directory, worktree, branch or ref", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt13-");
  try {
    await writeFiles(parent, { "gone.txt": "x\n" });
    await git(parent, ["add", "-N", "gone.txt"]);
    await Deno.remove(join(parent, "gone.txt"));
    const refs = await refsOf(parent);
    const r = await bin("handshake", [
      "--worktree",
      join(kids, "deep", "er", "batch"),
      "--count",
      "2",
    ], {
      cwd: parent,
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(r.stderr, "gone.txt");
    assertIncludes(r.stderr, "Intent-to-add entries (git add -N) whose file is deleted");
    assertEquals(await exists(join(kids, "deep")), false);
    assertEquals(await refsOf(parent), refs);
    assertEquals(await linkedWorktrees(parent), []);
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("a spawn that fails after making worktrees removes the directories git created for them and the seed ref nobody received, and keeps what existed before", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt13-");
  try {
    await writeFiles(parent, { "build/out.env": "ignored\n" });
    await Deno.mkdir(join(kids, "existing"));
    const refs = await refsOf(parent);
    const dir = join(kids, "existing", "deep", "er", "batch");
    const r = await bin("handshake", ["--worktree", dir, "--count", "2"], {
      cwd: join(parent, "build"),
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "holds nothing git carries");
    assertEquals(await exists(join(kids, "existing", "deep")), false);
    assertEquals(await exists(join(kids, "existing")), true);
    assertEquals(await refsOf(parent), refs);
    assertEquals(await linkedWorktrees(parent), []);
    assertEquals(
      await git(parent, ["worktree", "list", "--porcelain"]).then((t) =>
        t.split("\n").filter((l) => l.startsWith("worktree ")).length
      ),
      1,
    );

    // A seed ref another dispatch of the same state holds stays.
    const harness = await bin("handshake", ["--workspace-mode", "worktree"], { cwd: parent });
    assertEquals(harness.code, 0, harness.stderr);
    const held = await refsOf(parent);
    assertOk(held.includes("refs/tether/seeds/"), held);
    const again = await bin("handshake", ["--worktree", dir], { cwd: join(parent, "build") });
    assertEquals(again.code, 3, again.stderr);
    assertEquals(await refsOf(parent), held);
    assertEquals(await exists(join(kids, "existing", "deep")), false);
  } finally {
    await cleanup(parent, kids);
  }
});

// ---------------------------------------------------------------------------------------
// Finding 12: the working context of a child names the child's worktree, not the parent's.

/** The `[working-context]` block of a prompt. */
function contextBlock(text: string): string {
  const start = text.indexOf("[working-context]");
  const end = text.indexOf("[/working-context]");
  assertOk(start !== -1 && end > start, text);
  return text.slice(start, end + "[/working-context]".length);
}

Deno.test("handshake --worktree --context gives each child the working context of its own worktree: its directory, branch, linked worktree, recent files relative to its top level", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt12-");
  try {
    await writeFiles(parent, { "sub/x.ts": "x\n" });
    const r = await bin("handshake", [
      "wrap",
      "--worktree",
      join(kids, "b"),
      "--count",
      "2",
      "--json",
      "--context",
      "--recent",
      "x.ts",
      "--recent",
      join(parent, "a.txt"),
    ], { cwd: join(parent, "sub"), stdin: "task\n" });
    assertEquals(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.context_blocks.length, 2);
    for (const [i, w] of doc.worktrees.entries()) {
      const block = contextBlock(doc.prompts[i]);
      assertEquals(block, doc.context_blocks[i]);
      assertIncludes(block, `project_dir: ${w.cwd}\n`);
      assertIncludes(block, `recent_files:\n  - sub/x.ts\n  - a.txt\n`);
      assertIncludes(block, `  worktree: ${w.path}\n`);
      assertIncludes(block, `  branch: ${w.branch}\n`);
      assertIncludes(block, "  linked_worktree: true\n");
      assertEquals(block.includes(parent), false, block);
      assertEquals(/^snapshot: [0-9a-f]{40}$/m.test(block), true, block);
    }
    assertEquals(doc.context_block, doc.context_blocks[0]);
    assertEquals(doc.context.project_dir, doc.worktrees[0].cwd);
    assertEquals(doc.context.git.linked_worktree, true);
    assertEquals(doc.snapshot_id, doc.snapshot_ids[0]);
    // Without --json, one child: the printed block is the child's too.
    const one = await bin("handshake", ["--worktree", join(kids, "one"), "--context"], {
      cwd: parent,
    });
    assertEquals(one.code, 0, one.stderr);
    assertIncludes(contextBlock(one.stdout), `project_dir: ${join(kids, "one")}\n`);
  } finally {
    await cleanup(parent, kids);
  }
});

Deno.test("handshake --workspace-mode worktree --context (the harness makes the worktree) leaves the parent's paths and git part out of the working context", async () => {
  const parent = await parentRepo();
  try {
    const r = await bin("handshake", ["wrap", "--workspace-mode", "worktree", "--context"], {
      cwd: parent,
      stdin: "task\n",
    });
    assertEquals(r.code, 0, r.stderr);
    const block = contextBlock(r.stdout);
    assertEquals(block, "[working-context]\naudience: public\n[/working-context]");
  } finally {
    await cleanup(parent);
  }
});

Deno.test("handshake hook --context: a call with isolation worktree gets no path or git part in its working context; a shared call keeps them", async () => {
  const parent = await parentRepo();
  const kids = await tempDir("tether-wt12-");
  try {
    const payload = (toolInput: Record<string, unknown>) =>
      JSON.stringify({
        session_id: "s",
        transcript_path: "/t.jsonl",
        cwd: parent,
        hook_event_name: "PreToolUse",
        tool_name: "Task",
        tool_input: toolInput,
      });
    const iso = await bin("handshake", ["hook", "--context"], {
      cwd: kids,
      stdin: payload({ description: "d", prompt: "Go.", isolation: "worktree" }),
    });
    assertEquals([iso.code, iso.stderr], [0, ""]);
    const prompt = JSON.parse(iso.stdout).hookSpecificOutput.updatedInput.prompt;
    assertIncludes(prompt, "worktree_path: harness\n");
    assertEquals(contextBlock(prompt), "[working-context]\naudience: public\n[/working-context]");
    const shared = await bin("handshake", ["hook", "--context"], {
      cwd: kids,
      stdin: payload({ description: "d", prompt: "Go." }),
    });
    const plain = JSON.parse(shared.stdout).hookSpecificOutput.updatedInput.prompt;
    assertIncludes(contextBlock(plain), `project_dir: ${parent}\n`);
  } finally {
    await cleanup(parent, kids);
  }
});
