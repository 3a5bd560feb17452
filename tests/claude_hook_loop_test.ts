/**
 * The Claude Code loop of `tether hook`, driven with the payloads Claude Code 2.1.328
 * sends (shared/claude-code): an isolated child's worktree holds the parent's exact
 * state, its Step 0 matches, its result is gated and landed, the parent is told, and
 * nothing tether made outlives a landed child. The real CLI runs the same loop in
 * claude_cli_loop_test.ts; these cover the paths a scripted model cannot reach cheaply.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertMatch, assertOk as assert } from "../src/_assert.ts";
import { commitAll, git, writeFiles } from "./_helpers.ts";
import {
  aheadParent,
  contextOf,
  finalMessage,
  hook,
  type Parent,
  payload,
  runStep0,
  tetherRefs,
} from "./_claude_hook_fixture.ts";
import { exists } from "./_worktree_fixture.ts";

/** Make an isolated child and start it: its directory and its SubagentStart context. */
async function startChild(p: Parent, agent: string): Promise<{ dir: string; context: string }> {
  const made = await hook(payload.worktreeCreate(p.repo, agent));
  assertEquals(made.code, 0, made.stderr);
  const dir = made.stdout.trim();
  const started = await hook(payload.subagentStart(dir, agent));
  assertEquals(started.code, 0, started.stderr);
  const context = contextOf(started);
  assert(context !== undefined, "an isolated child gets a SubagentStart context");
  return { dir, context };
}

Deno.test("an isolated child's worktree holds the parent's exact state outside its tree, and its Step 0 matches", async () => {
  const p = await aheadParent();
  const { dir, context } = await startChild(p, "a1");
  assertEquals(dir, join(p.root, "project.worktrees", "agent-a1"));
  assertEquals(await git(dir, ["rev-parse", "HEAD"]), p.head);
  assertEquals(await Deno.readTextFile(join(dir, "app.txt")), "one\ntwo\nthree\nunstaged four\n");
  assertEquals(await Deno.readTextFile(join(dir, "notes.txt")), "untracked notes\n");
  assertEquals(await git(dir, ["diff", "--cached", "--name-only"]), "staged.txt");
  assertEquals(await exists(join(dir, "debug.log")), false, "ignored files are never carried");
  assertEquals(
    await git(p.repo, ["status", "--porcelain"]),
    [
      " M app.txt",
      "A  staged.txt",
      "?? notes.txt",
    ].join("\n"),
    "the parent's status gains nothing",
  );
  assertMatch(context, /<!-- subagent-env-handshake v2 -->/);
  const step0 = await runStep0(context, dir);
  assertEquals(step0.code, 0, step0.stdout + step0.stderr);
  assertMatch(step0.stdout, /^environment-verified: /);
  // The same Step 0 halts once the child's tree is no longer the parent's.
  await Deno.writeTextFile(join(dir, "notes.txt"), "changed before Step 0\n");
  assertEquals((await runStep0(context, dir)).code, 1);
});

Deno.test("an accepted child's work lands in the parent's tree, the parent's own edits made meanwhile are kept, and nothing tether made is left", async () => {
  const p = await aheadParent();
  const { dir } = await startChild(p, "a2");
  await writeFiles(dir, { "feature.txt": "the child's feature\n" });
  await Deno.writeTextFile(join(dir, "notes.txt"), "untracked notes\nchild line\n");
  await git(dir, ["add", "feature.txt"]);
  await git(dir, ["commit", "-q", "-m", "feature"]);
  // The parent edits another file while the child works.
  await Deno.writeTextFile(join(p.repo, "local.txt"), "ahead of origin\nparent edit\n");
  // Claude Code runs the child's SubagentStop hook in the child's worktree, which the land
  // removes: every git call after that must still start.
  const stop = await hook(
    payload.subagentStop(dir, "a2", finalMessage("feature.txt", "notes.txt")),
    dir,
  );
  assertEquals([stop.code, stop.stdout], [0, ""], stop.stderr);
  assertEquals(await Deno.readTextFile(join(p.repo, "feature.txt")), "the child's feature\n");
  assertEquals(await Deno.readTextFile(join(p.repo, "notes.txt")), "untracked notes\nchild line\n");
  assertEquals(
    await Deno.readTextFile(join(p.repo, "local.txt")),
    "ahead of origin\nparent edit\n",
  );
  assertEquals(await git(p.repo, ["rev-parse", "HEAD"]), p.head, "the parent's HEAD is not moved");
  assertEquals(await exists(dir), false);
  assertEquals(await exists(join(p.root, "project.worktrees")), false);
  const told = await hook(payload.postAgent(p.repo, "a2"));
  assertMatch(contextOf(told) ?? "", /accepted and landed into your working tree: .*feature\.txt/);
  assertEquals(await tetherRefs(p.repo), "", "no ref, branch or record is left");
  assertEquals(contextOf(await hook(payload.postAgent(p.repo, "a2"))), undefined, "told once");
});

Deno.test("a background child's verdict reaches the parent on its task notification", async () => {
  const p = await aheadParent();
  const { dir } = await startChild(p, "b1");
  await writeFiles(dir, { "bg.txt": "background\n" });
  assertEquals((await hook(payload.postAgent(p.repo, "b1", "async_launched"))).stdout, "");
  await hook(payload.subagentStop(dir, "b1", finalMessage("bg.txt")));
  const told = await hook(payload.notification(p.repo, "b1"));
  assertMatch(contextOf(told) ?? "", /subagent b1 .*accepted and landed.*bg\.txt/);
  assertEquals(JSON.parse(told.stdout).hookSpecificOutput.hookEventName, "UserPromptSubmit");
  assertEquals(await Deno.readTextFile(join(p.repo, "bg.txt")), "background\n");
});

Deno.test("a child without a SubagentResult is sent back a bounded number of times, then nothing lands and the parent is told where its work is", async () => {
  const p = await aheadParent();
  const { dir } = await startChild(p, "c1");
  await writeFiles(dir, { "half.txt": "half done\n" });
  for (const round of [1, 2]) {
    const stop = await hook(payload.subagentStop(dir, "c1", "I am done, no JSON."));
    const answer = JSON.parse(stop.stdout);
    assertEquals(answer.decision, "block");
    assertMatch(answer.reason, new RegExp(`send-back ${round} of 2`));
  }
  const last = await hook(payload.subagentStop(dir, "c1", "Still no JSON."));
  assertEquals([last.code, last.stdout], [0, ""]);
  assertEquals(await exists(join(p.repo, "half.txt")), false, "nothing lands");
  assertEquals(await Deno.readTextFile(join(dir, "half.txt")), "half done\n", "its work is kept");
  const told = contextOf(await hook(payload.postAgent(p.repo, "c1"))) ?? "";
  assertMatch(told, /gave no SubagentResult after 2 send-backs; nothing landed/);
  assertMatch(told, /observed_unclaimed: half\.txt/);
  assertMatch(told, new RegExp(`kept in ${dir.replaceAll("/", "\\/")}`));
});

Deno.test("a change the child did not claim never lands unseen: it is sent back, then the parent is told", async () => {
  const p = await aheadParent();
  const { dir } = await startChild(p, "d1");
  await writeFiles(dir, { "claimed.txt": "claimed\n", "sneaky.txt": "not claimed\n" });
  for (let i = 0; i < 3; i++) {
    await hook(payload.subagentStop(dir, "d1", finalMessage("claimed.txt")));
  }
  assertEquals(await exists(join(p.repo, "claimed.txt")), false);
  assertEquals(await exists(join(p.repo, "sneaky.txt")), false);
  const told = contextOf(await hook(payload.postAgent(p.repo, "d1"))) ?? "";
  assertMatch(told, /rejected after 2 send-backs/);
  assertMatch(told, /did not claim: sneaky\.txt/);
});

Deno.test("two children that change the same lines: the first lands, the second's work is kept and named", async () => {
  const p = await aheadParent();
  const first = await startChild(p, "e1");
  const second = await startChild(p, "e2");
  await Deno.writeTextFile(join(first.dir, "app.txt"), "ONE\ntwo\nthree\nunstaged four\n");
  await Deno.writeTextFile(join(second.dir, "app.txt"), "uno\ntwo\nthree\nunstaged four\n");
  await hook(payload.subagentStop(first.dir, "e1", finalMessage("app.txt")));
  await hook(payload.subagentStop(second.dir, "e2", finalMessage("app.txt")));
  assertEquals(
    await Deno.readTextFile(join(p.repo, "app.txt")),
    "ONE\ntwo\nthree\nunstaged four\n",
  );
  const told = contextOf(await hook(payload.notification(p.repo, "e2"))) ?? "";
  assertMatch(told, /nothing landed \(conflict\)/);
  assertMatch(told, /changed the same lines at: app\.txt/);
  assertEquals(
    await Deno.readTextFile(join(second.dir, "app.txt")),
    "uno\ntwo\nthree\nunstaged four\n",
  );
});

Deno.test("a worktree that cannot be made exact is refused with one line and leaves nothing behind", async () => {
  const p = await aheadParent();
  // A conflicted merge: unmerged paths cannot be carried.
  await git(p.repo, ["stash", "-q", "-u"]);
  await git(p.repo, ["checkout", "-q", "-b", "other", p.originHead]);
  await Deno.writeTextFile(join(p.repo, "app.txt"), "other\n");
  await commitAll(p.repo, "other");
  await git(p.repo, ["checkout", "-q", "main"]);
  await Deno.writeTextFile(join(p.repo, "app.txt"), "mine\n");
  await commitAll(p.repo, "mine");
  const merge = await new Deno.Command("git", { args: ["-C", p.repo, "merge", "-q", "other"] })
    .output();
  assert(merge.code !== 0, "the merge conflicts");
  const r = await hook(payload.worktreeCreate(p.repo, "f1"));
  assertEquals(r.code, 1);
  assertEquals(r.stdout, "");
  assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
  assertMatch(r.stderr, /^tether hook: cannot make the worktree: /);
  assertEquals(await exists(join(p.root, "project.worktrees")), false);
  assertEquals(await tetherRefs(p.repo), "");
  assertEquals(
    await git(p.repo, ["worktree", "list", "--porcelain"]).then((t) => t.split("worktree ").length),
    2,
  );
});

Deno.test("WorktreeCreate in a directory that is not a repository fails with one line", async () => {
  const p = await aheadParent();
  const r = await hook(payload.worktreeCreate(p.root, "g1"));
  assertEquals([r.code, r.stdout], [1, ""]);
  assertEquals(r.stderr, "tether hook: cannot make the worktree: not a git repository\n");
});

Deno.test("malformed payloads and events tether does not serve: one line each, documented exits", async () => {
  const p = await aheadParent();
  const cases: [Record<string, unknown> | string, number, RegExp][] = [
    ["not json", 0, /^tether hook: the hook payload is not JSON$/],
    ["not json, WorktreeCreate", 1, /^tether hook: the hook payload is not JSON$/],
    ["[1]", 0, /not a JSON object/],
    [{ hook_event_name: "WorktreeCreate", cwd: p.repo }, 1, /no "name" string/],
    [{ hook_event_name: "SubagentStop", cwd: p.repo }, 0, /no "agent_id" string/],
    [
      { hook_event_name: "Notification", cwd: p.repo },
      0,
      /"Notification" is not one tether serves; passed through/,
    ],
    [{ cwd: p.repo }, 0, /no "hook_event_name"/],
  ];
  for (const [body, code, line] of cases) {
    const r = await hook(body);
    assertEquals([r.code, r.stdout], [code, ""], JSON.stringify(body));
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertMatch(r.stderr.trim(), line);
  }
  // A child tether did not make passes through untouched.
  const other = await hook(payload.subagentStop(p.repo, "zz", finalMessage("x")));
  assertEquals([other.code, other.stdout, other.stderr], [0, "", ""]);
  assertEquals(await tetherRefs(p.repo), "");
});

Deno.test("a shared-tree call gets the v1 block in its prompt; an isolated call is left to SubagentStart", async () => {
  const p = await aheadParent();
  const shared = await hook(payload.preAgent(p.repo, { description: "d", prompt: "TASK" }));
  const input = JSON.parse(shared.stdout).hookSpecificOutput.updatedInput;
  assertMatch(input.prompt, /^<!-- subagent-env-handshake v1 -->[\s\S]*TASK$/);
  const isolated = await hook(
    payload.preAgent(p.repo, { description: "d", prompt: "TASK", isolation: "worktree" }),
  );
  assertEquals([isolated.code, isolated.stdout], [0, ""]);
});

Deno.test("WorktreeRemove removes an unchanged tether worktree and keeps one holding unlanded work", async () => {
  const p = await aheadParent();
  const idle = await startChild(p, "h1");
  const busy = await startChild(p, "h2");
  await writeFiles(busy.dir, { "wip.txt": "wip\n" });
  const removeIdle = await hook({
    ...payload.worktreeCreate(p.repo, "h1"),
    hook_event_name: "WorktreeRemove",
    worktree_path: idle.dir,
  });
  assertEquals(removeIdle.code, 0, removeIdle.stderr);
  assertEquals(await exists(idle.dir), false);
  const removeBusy = await hook({
    ...payload.worktreeCreate(p.repo, "h2"),
    hook_event_name: "WorktreeRemove",
    worktree_path: busy.dir,
  });
  assertEquals(removeBusy.code, 0);
  assertMatch(removeBusy.stderr, /kept .*agent-h2.* holds work that did not land: wip\.txt/);
  assertEquals(await exists(join(busy.dir, "wip.txt")), true);
});

Deno.test("a parent in a subdirectory gets its child at the worktree's top, where Step 0 matches; a land that removes the parent's directory still tells it and leaves nothing", async () => {
  const p = await aheadParent();
  await writeFiles(p.repo, { "pkg/mod.txt": "module\n" });
  await commitAll(p.repo, "a package");
  const pkg = join(p.repo, "pkg");
  const made = await hook(payload.worktreeCreate(pkg, "s1"));
  assertEquals(made.code, 0, made.stderr);
  const dir = made.stdout.trim();
  assertEquals(dir, join(p.root, "project.worktrees", "agent-s1"), "the top level, not pkg/");
  const context = contextOf(await hook(payload.subagentStart(dir, "s1"))) ?? "";
  assertEquals((await runStep0(context, dir)).code, 0);
  // The child moves the package the parent's session sits in.
  await git(dir, ["mv", "pkg", "lib"]);
  const stop = await hook(
    payload.subagentStop(
      dir,
      "s1",
      `Moved.\n${
        JSON.stringify({
          ok: true,
          summary: "moved pkg to lib",
          files_changed: ["pkg/mod.txt", "lib/mod.txt"],
          errors: [],
          evidence: [{ kind: "file", ref: "lib/mod.txt", ok: true }],
        })
      }`,
    ),
    dir,
  );
  assertEquals([stop.code, stop.stdout, stop.stderr], [0, "", ""]);
  assertEquals(await Deno.readTextFile(join(p.repo, "lib", "mod.txt")), "module\n");
  assertEquals(await exists(pkg), false);
  const told = contextOf(await hook(payload.postAgent(p.repo, "s1"))) ?? "";
  assertMatch(told, /accepted and landed into your working tree/);
  assertEquals(await tetherRefs(p.repo), "");
});

Deno.test("a child that reports it could not do its task (ok: false) is not sent back; its unchanged worktree is removed and the parent is told", async () => {
  const p = await aheadParent();
  const { dir } = await startChild(p, "k1");
  const failed = `Step 0 halted.\n${
    JSON.stringify({
      ok: false,
      summary: "halted",
      files_changed: [],
      errors: ["environment-divergence"],
      evidence: [],
    })
  }`;
  const stop = await hook(payload.subagentStop(dir, "k1", failed), dir);
  assertEquals([stop.code, stop.stdout], [0, ""], stop.stderr);
  assertEquals(await exists(dir), false);
  const told = contextOf(await hook(payload.postAgent(p.repo, "k1"))) ?? "";
  assertMatch(
    told,
    /reported that it did not do its task \(ok: false\); nothing landed; it changed nothing, and its worktree was removed/,
  );
  assertEquals(await tetherRefs(p.repo), "");
});

Deno.test("a child that ended without reaching SubagentStop: an unchanged worktree is removed, one holding work is kept and named", async () => {
  const p = await aheadParent();
  const idle = await startChild(p, "m1");
  const busy = await startChild(p, "m2");
  await writeFiles(busy.dir, { "wip.txt": "wip\n" });
  const told = contextOf(await hook(payload.notification(p.repo, "m1"))) ?? "";
  assertMatch(told, /ended without a verdict .* it changed nothing, and its worktree was removed/);
  assertEquals(await exists(idle.dir), false);
  const kept = contextOf(await hook(payload.notification(p.repo, "m2"))) ?? "";
  assertMatch(
    kept,
    new RegExp(`nothing landed; its work is kept in ${busy.dir.replaceAll("/", "\\/")}`),
  );
  assertEquals(await Deno.readTextFile(join(busy.dir, "wip.txt")), "wip\n");
});

Deno.test("a session worktree (a name that is not agent-<id>) is made from the parent's exact state and recorded for nothing", async () => {
  const p = await aheadParent();
  const made = await hook({ ...payload.worktreeCreate(p.repo, "x"), name: "feature/login" });
  assertEquals(made.code, 0, made.stderr);
  const dir = made.stdout.trim();
  assertEquals(dir, join(p.root, "project.worktrees", "feature-login"));
  assertEquals(await Deno.readTextFile(join(dir, "notes.txt")), "untracked notes\n");
  assertEquals(
    await git(p.repo, ["for-each-ref", "--format=%(refname)", "refs/tether/claude/"]),
    "",
  );
});
