/**
 * The Claude Code loop proven with the real CLI (2.1.328, `-p`, offline against the
 * scripted stand-in): the README's settings block pasted into the parent's
 * `.claude/settings.json` as written, `tether` and `verify` on PATH as a user installs them.
 * A shared-tree child verifies; an isolated child, asked for by the call or by its agent
 * definition, in the foreground or the background, starts from the parent's real state, its
 * Step 0 matches, its work lands with the parent's own edits kept, and the parent model is
 * told; conflicting siblings and unclaimed changes never land unseen. What Claude Code gives
 * without tether is in claude_native_worktree_test.ts.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertMatch, assertOk } from "../src/_assert.ts";
import { git } from "./_helpers.ts";
import {
  claudeBinary,
  type ClaudeRun,
  PARENT_WORK,
  runClaude,
  runProcesses,
  type ScenarioRepo,
  scenarioRepo,
  type Script,
  systemMessages,
  toolResults,
  type Turn,
  writeSettings,
} from "./_claude/mod.ts";
import { commandsDir, isolatedChild, readmeSettings, resultJson } from "./_claude_loop.ts";

const binary = await claudeBinary();
const skip = typeof binary === "string" ? undefined : binary.skip;
if (skip !== undefined) console.log(`skipping Claude Code tests: ${skip}`);

const PARENT = "PARENT-TASK: delegate";

/** A scenario with the README's settings and the commands on PATH. */
async function tethered(files: Record<string, string> = {}): Promise<{
  scenario: ScenarioRepo;
  path: string[];
}> {
  const scenario = await scenarioRepo({ files });
  await writeSettings(scenario.repo, readmeSettings());
  return { scenario, path: [await commandsDir()] };
}

/** The parent: one reply of Agent calls, then plain text for every later turn. */
function parent(calls: Record<string, unknown>[]): (turn: Turn) => Reply {
  return (turn) =>
    turn.step === 0
      ? { tools: calls.map((input) => ({ name: "Agent", input })) }
      : { text: `Parent turn ${turn.step}.` };
}
type Reply = { text?: string; tools?: { name: string; input: unknown }[] };

/** Whether a conversation's prompt is the task `key` (with or without a block before it). */
function isTask(prompt: string | undefined, key: string): boolean {
  return prompt === key || (prompt ?? "").endsWith(`\n${key}`);
}

/**
 * Route each conversation to its part of the story by its prompt: a shared-tree child's
 * prompt starts with the block tether's PreToolUse put before the task.
 */
function story(parts: Record<string, (turn: Turn) => Reply | Promise<Reply>>): Script {
  return (turn) => {
    const key = Object.keys(parts).find((k) => isTask(turn.prompt, k));
    return key === undefined ? undefined : parts[key]!({ ...turn, prompt: key });
  };
}

async function clean(run: ClaudeRun): Promise<void> {
  console.log(`claude -p took ${run.durationMs} ms, ${run.requests.length} requests`);
  assertEquals(run.timedOut, false, "the run timed out");
  assertEquals(run.code, 0, `claude exited ${run.code}: ${run.stderr}`);
  assertEquals(run.scriptErrors, []);
  assertEquals(await runProcesses(run.marker), []);
}

/** Every system message the parent's conversation received (hook context). */
function toldParent(run: ClaudeRun): string {
  return run.requests.filter((r) => isTask(r.turn?.prompt, PARENT))
    .flatMap((r) => systemMessages(r.body)).join("\n");
}

/** The tool result a child got for its step-`n` call. */
function childResult(run: ClaudeRun, prompt: string, step: number): string {
  const r = run.requests.find((q) => isTask(q.turn?.prompt, prompt) && q.turn!.step === step + 1);
  return toolResults(r?.body ?? {}).join("\n");
}

async function tetherLeftovers(repo: string): Promise<string> {
  const refs = await git(repo, [
    "for-each-ref",
    "--format=%(refname)",
    "refs/tether/",
    "refs/heads/tether/",
  ]);
  const trees = (await git(repo, ["worktree", "list", "--porcelain"])).split("\n")
    .filter((l) => l.startsWith("worktree ")).slice(1);
  return [refs, ...trees].filter(Boolean).join("\n");
}

const CHILD = "CHILD-TASK: add a feature";
const WORK = [
  "cat ahead.txt staged.txt tracked.txt untracked.txt",
  "echo feature > feature.txt",
  "git add feature.txt",
  "git commit -q -m feature",
];

/** The parent edits its own files while the child works (before the child's step 2). */
function parentEditsMeanwhile(repo: string) {
  return async (step: number) => {
    if (step !== 2) return;
    await Deno.writeTextFile(join(repo, "untracked.txt"), "untracked\nparent meanwhile\n");
  };
}

/** What an accepted, landed isolated child leaves: its work and the parent's, nothing of tether's. */
async function assertLanded(run: ClaudeRun, scenario: ScenarioRepo, prompt = CHILD) {
  const step0 = childResult(run, prompt, 0);
  assertMatch(step0, /environment-verified: /);
  const seen = childResult(run, prompt, 1);
  for (const kind of ["ahead", "staged", "unstaged", "untracked"] as const) {
    for (const content of Object.values(PARENT_WORK[kind])) assertIncludes(seen, content.trim());
  }
  const repo = scenario.repo;
  assertEquals(await Deno.readTextFile(join(repo, "feature.txt")), "feature\n");
  assertEquals(
    await Deno.readTextFile(join(repo, "untracked.txt")),
    "untracked\nparent meanwhile\n",
  );
  assertEquals(await git(repo, ["rev-parse", "HEAD"]), scenario.head);
  assertEquals(await tetherLeftovers(repo), "", "nothing tether made is left");
}

/**
 * One isolated child that adds feature.txt while the parent edits its own files, run with
 * the README's settings; checked to end cleanly and land with nothing of tether's left.
 *
 * @param scenario The parent.
 * @param path The commands' directory.
 * @param call What the Agent call adds (isolation, background, subagent type).
 * @param cwd Where the parent's session runs (default: its top level).
 * @returns The run, for what the parent was told.
 */
async function featureChild(
  scenario: ScenarioRepo,
  path: string[],
  call: Record<string, unknown>,
  cwd = scenario.repo,
): Promise<ClaudeRun> {
  const run = await runClaude({
    cwd,
    prompt: PARENT,
    path,
    timeoutMs: 120_000,
    script: story({
      [PARENT]: parent([{ description: "Feature", prompt: CHILD, ...call }]),
      [CHILD]: isolatedChild(
        WORK,
        `Added the feature.\n${resultJson("feature.txt")}`,
        parentEditsMeanwhile(scenario.repo),
      ),
    }),
  });
  await clean(run);
  await assertLanded(run, scenario);
  return run;
}

Deno.test({
  name:
    "Claude Code with tether: a shared-tree child gets the v1 block in its prompt and its verify matches",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered();
  try {
    const SHARED = "CHILD-TASK: review";
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      path,
      timeoutMs: 120_000,
      script: story({
        [PARENT]: parent([{ description: "Review", prompt: SHARED, run_in_background: false }]),
        [SHARED]: (turn) => {
          if (turn.step > 0) return { text: "Reviewed." };
          const field = (name: string) =>
            new RegExp(`^${name}: (.*)$`, "m").exec(turn.text)?.[1] ?? "missing";
          const command = `verify --head ${field("parent_head")} --branch ${
            field("parent_branch")
          } --cwd ${field("parent_cwd")} --fingerprint ${field("parent_dirty_fingerprint")}`;
          return { tools: [{ name: "Bash", input: { command, description: "Step 0" } }] };
        },
      }),
    });
    await clean(run);
    assertMatch(childResult(run, SHARED, 0), /^environment-verified: [0-9a-f]{40} on main/);
    assertEquals(await tetherLeftovers(scenario.repo), "");
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: an isolated foreground child starts from the parent's real state, lands, and the parent is told",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered();
  try {
    const run = await featureChild(scenario, path, {
      isolation: "worktree",
      run_in_background: false,
    });
    assertMatch(
      toldParent(run),
      /PostToolUse:Agent hook additional context: tether: subagent \S+ .*accepted and landed into your working tree: feature\.txt/,
    );
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: a background isolated child lands and the parent is told on its task notification",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered();
  try {
    const run = await featureChild(scenario, path, { isolation: "worktree" });
    assertMatch(
      toldParent(run),
      /UserPromptSubmit hook additional context: tether: subagent \S+ .*accepted and landed into your working tree: feature\.txt/,
    );
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: a child isolated by its agent definition's frontmatter gets the exact worktree too",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered({
    ".claude/agents/isolated-worker.md":
      "---\nname: isolated-worker\ndescription: Works in its own worktree\nisolation: worktree\n---\nYou work on features.\n",
  });
  try {
    const call = { subagent_type: "isolated-worker", run_in_background: false };
    const run = await featureChild(scenario, path, call);
    assertMatch(toldParent(run), /accepted and landed into your working tree: feature\.txt/);
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: two background children change the same lines; one lands, the other's work is kept and named",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered();
  try {
    const [A, B] = ["CHILD-TASK: version A", "CHILD-TASK: version B"];
    const edit = (who: string) => [`echo ${who} > tracked.txt`];
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      path,
      timeoutMs: 120_000,
      script: story({
        [PARENT]: parent([
          { description: "A", prompt: A, isolation: "worktree" },
          { description: "B", prompt: B, isolation: "worktree" },
        ]),
        [A]: isolatedChild(edit("A"), `Done.\n${resultJson("tracked.txt")}`),
        [B]: isolatedChild(edit("B"), `Done.\n${resultJson("tracked.txt")}`),
      }),
    });
    await clean(run);
    const landed = (await Deno.readTextFile(join(scenario.repo, "tracked.txt"))).trim();
    assertOk(landed === "A" || landed === "B", `tracked.txt holds ${landed}`);
    const told = toldParent(run);
    assertMatch(told, /accepted and landed into your working tree: tracked\.txt/);
    assertMatch(told, /accepted, but nothing landed \(conflict\); its work is kept in (\S+)/);
    const kept = /its work is kept in (\S+) on the branch/.exec(told)![1]!;
    assertEquals(
      (await Deno.readTextFile(join(kept, "tracked.txt"))).trim(),
      landed === "A" ? "B" : "A",
    );
    assertMatch(told, /changed the same lines at: tracked\.txt/);
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: a change the child did not claim never lands unseen; the child is sent back twice, then the parent is told",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, path } = await tethered();
  try {
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      path,
      timeoutMs: 120_000,
      script: story({
        [PARENT]: parent([{
          description: "Feature",
          prompt: CHILD,
          isolation: "worktree",
          run_in_background: false,
        }]),
        [CHILD]: isolatedChild(
          ["echo claimed > claimed.txt", "echo sneaky > sneaky.txt"],
          `Done.\n${resultJson("claimed.txt")}`,
        ),
      }),
    });
    await clean(run);
    const sentBack = run.requests.filter((r) =>
      isTask(r.turn?.prompt, CHILD) && /send-back \d of 2/.test(r.turn!.text)
    );
    assertOk(sentBack.length >= 2, `the child was sent back ${sentBack.length} times`);
    for (const file of ["claimed.txt", "sneaky.txt"]) {
      assertEquals(await Deno.stat(join(scenario.repo, file)).then(() => true, () => false), false);
    }
    const told = toldParent(run);
    assertMatch(told, /its result was rejected after 2 send-backs; nothing landed/);
    assertMatch(told, /did not claim: sneaky\.txt/);
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name:
    "Claude Code with tether: a parent session in a subdirectory gets its isolated child, which lands",
  ignore: skip !== undefined,
}, async () => {
  const scenario = await scenarioRepo({ files: { "sub/s.txt": "in a package\n" } });
  try {
    const sub = join(scenario.repo, "sub");
    await writeSettings(sub, readmeSettings());
    const call = { isolation: "worktree", run_in_background: false };
    const run = await featureChild(scenario, [await commandsDir()], call, sub);
    assertMatch(toldParent(run), /accepted and landed into your working tree: feature\.txt/);
  } finally {
    await scenario.cleanup();
  }
});
