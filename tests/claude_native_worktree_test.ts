/**
 * What Claude Code 2.1.328 alone gives an isolated subagent, and the order of the hook events
 * around one, proved with the real CLI in `-p` mode against the scripted API stand-in. These
 * tests pin the facts the tether hooks are built on; they skip (with a line saying why) where
 * the CLI cannot be installed.
 *
 * Observed here beyond or unlike `shared/claude-code/README.md`:
 * - A native worktree the child did not change is removed when the child ends, with its
 *   `worktree-agent-*` branch: after the run the parent's `git worktree list` holds only
 *   itself and `git status` shows no `.claude/`. It exists (under `.claude/worktrees/`) only
 *   while the child runs.
 * - A hook-made worktree is left as the hook made it (no `WorktreeRemove`, as the README says).
 * - Hook context never reaches the model in the request's `system` field, nor in a user
 *   message: it comes as `role: "system"` messages inside `messages` (a role the public Messages
 *   API does not document; Claude Code 2.1.328 sends it so). Each piece reads
 *   `<Event>[:<Tool>] hook additional context: <text>`, and Claude Code joins all system text
 *   of one point of the conversation into one such message, pieces parted by a blank line:
 *   the `-p` prompt is followed by one system message `SessionStart hook additional context:
 *   …` (if any), `# Environment …`, `UserPromptSubmit hook additional context: …`, `Today's
 *   date is …`; a child's first request by `SubagentStart hook additional context: …` then
 *   the deferred-tools text and its environment; a tool result by `PostToolUse:Bash hook
 *   additional context: …` (the first also carrying the agent list); a notification prompt
 *   by `UserPromptSubmit hook additional context: …` alone. A message sent once as blocks is
 *   resent as a plain string later. A plain-text (non-JSON) `UserPromptSubmit` stdout reads
 *   `UserPromptSubmit hook success: <text>` in the same place.
 * - `-p` with a background child: the parent's turn ends (`Stop` fires with the child in
 *   `background_tasks` as `running`), the CLI waits for the child, then gives the parent one
 *   more turn whose last user message holds the `<task-notification>` (wrapped in a
 *   `<system-reminder>`). The script must answer that turn (step 2 for one `Agent` call) with
 *   plain text and no tool calls: then `Stop` fires again and the run ends, the JSON `result`
 *   being that last text. An unscripted answer (the stand-in's default text) ends it too.
 * - An isolated child's `Bash` refuses `git -C <parent> …`: "This agent is isolated in the
 *   worktree …, but this command redirects git to the shared checkout via -C. Refusing to run
 *   it". A check the child runs must target its own worktree.
 * - `-p` waits for a background `Bash` command too (see `claude_harness_test.ts`).
 * - The hooks run with `CLAUDE_PROJECT_DIR` set to the parent's directory, their working
 *   directory being the parent's, also for `WorktreeCreate`.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { git } from "./_helpers.ts";
import {
  claudeBinary,
  type ClaudeRun,
  eventLabel,
  type HookEvent,
  type HookSettings,
  loggingHook,
  type MessagesBody,
  PARENT_WORK,
  readHookLog,
  requestText,
  runClaude,
  runProcesses,
  type ScenarioRepo,
  scenarioRepo,
  type Script,
  shellQuote,
  systemMessages,
  toolResults,
  writeSettings,
} from "./_claude/mod.ts";

const binary = await claudeBinary();
const skip = typeof binary === "string" ? undefined : binary.skip;
if (skip !== undefined) console.log(`skipping Claude Code tests: ${skip}`);

const PARENT = "PARENT-TASK: run one isolated child";
const CHILD = "CHILD-TASK: report where you are";
const CHILD_COMMANDS = [
  "pwd",
  "git rev-parse HEAD",
  "git branch --show-current",
  "git status --porcelain",
  "ls -a",
];
const EMPTY = "(Bash completed with no output)";

/**
 * The story: the parent calls `Agent` once, then answers every later turn with text; the
 * child runs {@linkcode CHILD_COMMANDS} one per turn, then ends. With `holdChild` the child's
 * first answer waits until the parent has been asked for its next turn (for a background
 * child: so the parent's turn surely ends while the child still works).
 */
function story(
  agent: Record<string, unknown>,
  holdChild = false,
  commands = CHILD_COMMANDS,
): Script {
  const parentAsked = Promise.withResolvers<void>();
  return async ({ prompt, step }) => {
    if (prompt === PARENT) {
      if (step > 0) {
        parentAsked.resolve();
        return { text: `Parent turn ${step}.` };
      }
      return {
        tools: [{
          name: "Agent",
          input: {
            description: "Report location",
            prompt: CHILD,
            subagent_type: "general-purpose",
            isolation: "worktree",
            ...agent,
          },
        }],
      };
    }
    if (prompt === CHILD) {
      if (step === 0 && holdChild) await parentAsked.promise;
      const command = commands[step];
      if (command === undefined) return { text: "Child done." };
      return { tools: [{ name: "Bash", input: { command, description: "Report location" } }] };
    }
    return undefined;
  };
}

/** What the child's commands printed, by command (from the requests that answer them). */
function childOutputs(run: ClaudeRun, commands = CHILD_COMMANDS): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const request of run.requests) {
    if (request.turn?.prompt !== CHILD || request.turn.step === 0) continue;
    const command = commands[request.turn.step - 1];
    const [result] = toolResults(request.body);
    if (command !== undefined && result !== undefined) outputs[command] = result.trim();
  }
  return outputs;
}

/** Check that a run ended by itself, cleanly, leaving no process. */
async function assertClean(run: ClaudeRun): Promise<void> {
  console.log(`claude -p took ${run.durationMs} ms, ${run.requests.length} requests`);
  assertEquals(run.timedOut, false, "the run timed out");
  assertEquals(run.code, 0, `claude exited ${run.code}: ${run.stderr}`);
  assertEquals(run.scriptErrors, []);
  assertEquals(run.leftovers, 0, "processes outlived the CLI");
  assertEquals(await runProcesses(run.marker), []);
}

Deno.test({
  name: "native worktree isolation starts the child from origin, not the parent's HEAD or work",
  ignore: skip !== undefined,
}, async () => {
  const scenario = await scenarioRepo();
  try {
    const intoParent = `git -C ${scenario.repo} status --porcelain`;
    const commands = [...CHILD_COMMANDS, intoParent];
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      script: story({ run_in_background: false }, false, commands),
      timeoutMs: 90_000,
    });
    await assertClean(run);
    const out = childOutputs(run, commands);
    const where = out["pwd"] ?? "";
    const inside = `${scenario.repo}/.claude/worktrees/agent-`;
    assertOk(where.startsWith(inside), `child ran in ${where}, not under ${inside}`);
    const agentId = where.slice(inside.length);
    assertEquals(out["git rev-parse HEAD"], scenario.originHead, "child's HEAD is not origin's");
    assertEquals(out["git branch --show-current"], `worktree-agent-${agentId}`);
    assertEquals(out["git status --porcelain"], EMPTY);
    // The child's Bash will not point git at the parent's checkout.
    assertIncludes(out[intoParent] ?? "", "redirects git to the shared checkout via -C");
    const listing = (out["ls -a"] ?? "").split("\n");
    assertOk(listing.includes("tracked.txt"), `child sees no tracked.txt: ${listing}`);
    for (const kind of ["ahead", "staged", "untracked", "ignored"] as const) {
      for (const path of Object.keys(PARENT_WORK[kind])) {
        assertOk(!listing.includes(path), `child sees the parent's ${kind} ${path}`);
      }
    }
    // The parent learns the agent id that names the directory.
    const parentEnd = run.requests.find((r) => r.turn?.prompt === PARENT && r.turn.step === 1);
    assertIncludes(toolResults(parentEnd?.body ?? {}).join("\n"), `agentId: ${agentId}`);
    // Unchanged, the native worktree and its branch are gone after the run.
    assertEquals(
      await git(scenario.repo, ["worktree", "list", "--porcelain"]).then(countWorktrees),
      1,
    );
    assertEquals(await git(scenario.repo, ["branch", "--list", "worktree-agent-*"]), "");
    assertEquals(
      await git(scenario.repo, ["status", "--porcelain"]),
      "A  staged.txt\n M tracked.txt\n?? untracked.txt",
    );
  } finally {
    await scenario.cleanup();
  }
});

function countWorktrees(porcelain: string): number {
  return porcelain.split("\n").filter((l) => l.startsWith("worktree ")).length;
}

/** Hook context each logging hook answers, so the tests can find where it reaches the model. */
const CONTEXT_EVENTS = ["SubagentStart", "PostToolUse", "UserPromptSubmit"];
const context = (event: string) => `TETHER-CTX ${event}`;

/** A scenario whose hooks log every payload, with a `WorktreeCreate` outside the tree. */
async function loggedScenario(): Promise<{ scenario: ScenarioRepo; log: string; kids: string }> {
  const scenario = await scenarioRepo();
  try {
    const log = join(scenario.scratch, "events.jsonl");
    const kids = join(scenario.scratch, "worktrees");
    const hooks: HookSettings = {};
    const events = [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "SubagentStart",
      "SubagentStop",
      "PostToolUse",
      "Stop",
      "WorktreeRemove",
      "SessionEnd",
    ];
    for (const event of events) {
      const answer = CONTEXT_EVENTS.includes(event)
        ? JSON.stringify({
          hookSpecificOutput: { hookEventName: event, additionalContext: context(event) },
        })
        : "";
      const command = await loggingHook(scenario.scratch, `${event}.sh`, log, answer);
      hooks[event] = [{ matcher: "*", hooks: [{ type: "command", command }] }];
    }
    const create = join(scenario.scratch, "WorktreeCreate.sh");
    await Deno.writeTextFile(
      create,
      [
        "#!/bin/sh",
        "payload=$(cat)",
        `printf '%s\\n' "$payload" >> ${shellQuote(log)}`,
        `name=$(printf '%s' "$payload" | sed -n 's/.*"name" *: *"\\([^"]*\\)".*/\\1/p')`,
        `dir=${shellQuote(kids)}/"$name"`,
        'git worktree add -q --detach "$dir" HEAD >&2 || exit 1',
        "printf '%s\\n' \"$dir\"",
        "",
      ].join("\n"),
    );
    await Deno.chmod(create, 0o755);
    hooks["WorktreeCreate"] = [{ hooks: [{ type: "command", command: create }] }];
    await writeSettings(scenario.repo, { hooks });
    return { scenario, log, kids };
  } catch (error) {
    await scenario.cleanup();
    throw error;
  }
}

/** The index of the first event (from `from`) that matches, asserting there is one. */
function at(events: HookEvent[], label: string, from = 0, match = (_: HookEvent) => true): number {
  const i = events.findIndex((e, j) => j >= from && eventLabel(e) === label && match(e));
  assertOk(i >= 0, `no ${label} after event ${from} in ${events.map(eventLabel).join(", ")}`);
  return i;
}

/**
 * The parts of a request's system messages: Claude Code joins the hook context and its own
 * system text for one point of the conversation into one message, parted by a blank line.
 */
function systemParts(body: MessagesBody): string[] {
  return systemMessages(body).flatMap((t) => t.split("\n\n"));
}

/** Checks both runs share: the child in the hook's worktree, from the parent's HEAD. */
function assertHookWorktree(
  run: ClaudeRun,
  events: HookEvent[],
  scenario: ScenarioRepo,
  kids: string,
): { agentId: string; worktree: string } {
  const created = events[at(events, "WorktreeCreate")];
  const started = events[at(events, "SubagentStart")];
  const agentId = started?.agent_id ?? "";
  const worktree = join(kids, `agent-${agentId}`);
  assertEquals(created?.name, `agent-${agentId}`);
  assertEquals(created?.cwd, scenario.repo);
  assertEquals(started?.cwd, worktree);
  const out = childOutputs(run);
  assertEquals(out["pwd"], worktree);
  assertEquals(out["git rev-parse HEAD"], scenario.head, "the hook's base is the parent's HEAD");
  for (const e of events.filter((e) => e.agent_id !== undefined)) {
    assertEquals(e.cwd, worktree, `${eventLabel(e)} ran elsewhere`);
  }
  assertEquals(events.filter((e) => e.hook_event_name === "WorktreeRemove"), []);
  // Hook context, as the model sees it.
  const child0 = run.requests.find((r) => r.turn?.prompt === CHILD && r.turn.step === 0);
  const child1 = run.requests.find((r) => r.turn?.prompt === CHILD && r.turn.step === 1);
  assertOk(
    systemParts(child0?.body ?? {}).includes(
      `SubagentStart hook additional context: ${context("SubagentStart")}`,
    ),
    "SubagentStart context is not part of a system message of the child's first request",
  );
  assertOk(
    systemParts(child1?.body ?? {}).includes(
      `PostToolUse:Bash hook additional context: ${context("PostToolUse")}`,
    ),
    "PostToolUse context is not part of a system message of the child's next request",
  );
  const parent0 = run.requests.find((r) => r.turn?.prompt === PARENT && r.turn.step === 0);
  assertOk(
    systemParts(parent0?.body ?? {}).includes(
      `UserPromptSubmit hook additional context: ${context("UserPromptSubmit")}`,
    ),
    "the -p prompt's UserPromptSubmit context is not part of a system message",
  );
  assertExcludes(JSON.stringify(parent0?.body.system), "TETHER-CTX");
  for (const r of run.requests.filter((r) => r.turn?.prompt === CHILD)) {
    assertExcludes(requestText(r.body), "UserPromptSubmit hook");
  }
  return { agentId, worktree };
}

Deno.test({
  name: "hook events for a foreground isolated child: create, start, child tools, stop, result",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, log, kids } = await loggedScenario();
  try {
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      script: story({ run_in_background: false }),
      timeoutMs: 90_000,
    });
    await assertClean(run);
    const events = await readHookLog(log);
    const child = CHILD_COMMANDS.flatMap(
      () => ["PreToolUse(Bash)@child", "PostToolUse(Bash)@child"],
    );
    assertEquals(events.map(eventLabel), [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse(Agent)",
      "WorktreeCreate",
      "SubagentStart",
      ...child,
      "SubagentStop",
      "PostToolUse(Agent)",
      "Stop",
      "SessionEnd",
    ]);
    const { agentId, worktree } = assertHookWorktree(run, events, scenario, kids);
    const result = events[at(events, "PostToolUse(Agent)")]?.tool_response ?? {};
    assertEquals(result["status"], "completed");
    assertEquals(result["agentId"], agentId);
    assertEquals(result["worktreePath"], worktree);
    assertEquals("worktreeBranch" in result, false);
    const stop = events[at(events, "SubagentStop")];
    assertEquals(stop?.last_assistant_message, "Child done.");
    // PostToolUse(Agent) context reaches the parent's next turn as a system message.
    const parent1 = run.requests.find((r) => r.turn?.prompt === PARENT && r.turn.step === 1);
    assertOk(
      systemParts(parent1?.body ?? {}).includes(
        `PostToolUse:Agent hook additional context: ${context("PostToolUse")}`,
      ),
      "PostToolUse(Agent) context is not part of a system message of the parent's next turn",
    );
    assertEquals(JSON.parse(run.stdout).result, "Parent turn 1.");
    // No WorktreeRemove: the hook's worktree is still there.
    assertOk((await git(scenario.repo, ["worktree", "list"])).includes(worktree));
  } finally {
    await scenario.cleanup();
  }
});

Deno.test({
  name: "hook events for a background isolated child: -p waits, then a task-notification turn",
  ignore: skip !== undefined,
}, async () => {
  const { scenario, log, kids } = await loggedScenario();
  try {
    // run_in_background omitted: background is the default.
    const run = await runClaude({
      cwd: scenario.repo,
      prompt: PARENT,
      script: story({}, true),
      timeoutMs: 90_000,
    });
    await assertClean(run);
    const events = await readHookLog(log);
    const { agentId, worktree } = assertHookWorktree(run, events, scenario, kids);
    const isChild = (e: HookEvent) => e.agent_id === agentId;
    const pre = at(events, "PreToolUse(Agent)");
    const create = at(events, "WorktreeCreate", pre);
    const start = at(events, "SubagentStart", create);
    const launched = at(events, "PostToolUse(Agent)", pre);
    const firstStop = at(events, "Stop", launched);
    const firstChildTool = at(events, "PreToolUse(Bash)@child", start, isChild);
    const childStop = at(events, "SubagentStop", firstChildTool, isChild);
    const notified = at(
      events,
      "UserPromptSubmit",
      childStop,
      (e) => (e.prompt ?? "").includes("<task-notification>"),
    );
    const lastStop = at(events, "Stop", notified);
    const end = at(events, "SessionEnd", lastStop);
    assertOk(launched < childStop && firstStop < childStop, events.map(eventLabel).join(", "));
    assertEquals(end, events.length - 1);
    // PostToolUse(Agent) fires at launch; the first Stop sees the child still running.
    const launch = events[launched]?.tool_response ?? {};
    assertEquals(launch["status"], "async_launched");
    assertEquals(launch["agentId"], agentId);
    const running = events[firstStop]?.["background_tasks"] as { id: string; status: string }[];
    assertEquals(running.map((t) => [t.id, t.status]), [[agentId, "running"]]);
    // The notification names the task, its status, the child's last message and worktree.
    const prompt = events[notified]?.prompt ?? "";
    assertIncludes(prompt, `<task-id>${agentId}</task-id>`);
    assertIncludes(prompt, "<status>completed</status>");
    assertIncludes(prompt, "<result>Child done.</result>");
    assertIncludes(prompt, `<worktree><worktreePath>${worktree}</worktreePath></worktree>`);
    // How -p ends: the parent's steps are 0 (Agent), 1 (text while the child runs) and 2 (the
    // notification turn, answered with text); that last text is the run's result.
    const parentSteps = run.requests.filter((r) => r.turn?.prompt === PARENT);
    assertEquals(parentSteps.map((r) => r.turn?.step), [0, 1, 2]);
    const notice = parentSteps[2]?.body ?? {};
    const lastUser = (notice.messages ?? []).findLast((m) => m.role === "user");
    assertIncludes(JSON.stringify(lastUser?.content), "<task-notification>");
    assertOk(
      systemParts(notice).includes(
        `UserPromptSubmit hook additional context: ${context("UserPromptSubmit")}`,
      ),
      "the notification's UserPromptSubmit context is not a system message",
    );
    assertEquals(JSON.parse(run.stdout).result, "Parent turn 2.");
  } finally {
    await scenario.cleanup();
  }
});
