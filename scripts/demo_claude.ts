/**
 * The Claude Code part of `deno task demo`: one isolated subagent on a parent that is a
 * commit ahead of its origin with staged, unstaged and untracked work, run twice with the
 * real Claude Code CLI (offline, against the tests' scripted stand-in for the model): once
 * as Claude Code alone gives it, once with the README's settings block. Where the CLI cannot
 * be installed it says so and shows the tether side driven with Claude Code's own payloads.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { git } from "../tests/_helpers.ts";
import {
  claudeBinary,
  PARENT_WORK,
  runClaude,
  type ScenarioRepo,
  scenarioRepo,
  type Script,
  systemMessages,
  toolResults,
  writeSettings,
} from "../tests/_claude/mod.ts";
import { commandsDir, isolatedChild, readmeSettings, resultJson } from "../tests/_claude_loop.ts";

const PARENT = "PARENT-TASK: add a feature in an isolated worktree";
const CHILD = "CHILD-TASK: add feature.txt";
const LOOK = "git rev-parse HEAD; ls";
const WORK = [
  LOOK,
  "echo feature > feature.txt",
  "git add feature.txt",
  "git commit -q -m feature",
];

/** What one run showed, for the side-by-side table. */
interface Seen {
  head: string;
  sees: string;
  step0: string;
  landed: string;
  told: string;
}

function story(child: (turn: Parameters<Script>[0]) => unknown): Script {
  return (turn) => {
    if (turn.prompt === PARENT) {
      return turn.step === 0
        ? {
          tools: [{
            name: "Agent",
            input: {
              description: "Feature",
              prompt: CHILD,
              isolation: "worktree",
              run_in_background: false,
            },
          }],
        }
        : { text: "The subagent finished." };
    }
    if (turn.prompt === CHILD) return child(turn) as ReturnType<Script>;
    return undefined;
  };
}

async function observe(
  scenario: ScenarioRepo,
  run: Awaited<ReturnType<typeof runClaude>>,
  lookStep: number,
): Promise<Seen> {
  const childRequests = run.requests.filter((r) => r.turn?.prompt === CHILD);
  const result = (step: number) =>
    toolResults(childRequests.find((r) => r.turn?.step === step)?.body ?? {}).join("\n");
  const looked = result(lookStep);
  const head = looked.split("\n")[0] ?? "";
  const work = [
    ...Object.keys(PARENT_WORK.ahead),
    ...Object.keys(PARENT_WORK.staged),
    ...Object.keys(PARENT_WORK.untracked),
  ];
  const has = work.filter((f) => looked.split("\n").includes(f));
  const told =
    run.requests.filter((r) => r.turn?.prompt === PARENT).flatMap((r) => systemMessages(r.body))
      .join("\n").split("\n").find((l) => l.includes("hook additional context: tether:")) ?? "";
  const landed = await Deno.stat(join(scenario.repo, "feature.txt")).then(() => "yes", () => "no");
  return {
    head: head === scenario.head
      ? `the parent's HEAD ${head.slice(0, 12)}`
      : head === scenario.originHead
      ? `origin's ${head.slice(0, 12)} (stale)`
      : head,
    sees: `${has.length} of ${work.length} (${work.join(", ")})`,
    step0: lookStep === 2 ? (result(1).split("\n")[0] ?? "") : "(no block, no Step 0)",
    landed,
    told: told === ""
      ? "nothing"
      : told.replace(/^.*hook additional context: /, "").slice(0, 110) + "…",
  };
}

/** Run the Claude Code demo (both sides) in throwaway repositories. */
export async function demoClaude(): Promise<void> {
  console.log("== Claude Code: an isolated subagent, alone and with tether's hooks");
  const binary = await claudeBinary();
  if (typeof binary !== "string") {
    console.log(`\nThe real Claude Code CLI cannot be installed here (${binary.skip}).`);
    console.log(
      "tests/claude_hook_loop_test.ts drives tether's side with Claude Code's own payloads.",
    );
    return;
  }
  console.log(
    "Claude Code 2.1.328 runs offline against a scripted stand-in for the model on loopback.",
  );
  const alone = await scenarioRepo();
  const withTether = await scenarioRepo();
  const commands = await commandsDir();
  try {
    const nativeRun = await runClaude({
      cwd: alone.repo,
      prompt: PARENT,
      timeoutMs: 120_000,
      script: story((turn) =>
        turn.step < WORK.length
          ? { tools: [{ name: "Bash", input: { command: WORK[turn.step]!, description: "Work" } }] }
          : { text: `Added the feature.\n${resultJson("feature.txt")}` }
      ),
    });
    await writeSettings(withTether.repo, readmeSettings());
    const tetherRun = await runClaude({
      cwd: withTether.repo,
      prompt: PARENT,
      path: [commands],
      timeoutMs: 120_000,
      script: story(isolatedChild(WORK, `Added the feature.\n${resultJson("feature.txt")}`)),
    });
    const a = await observe(alone, nativeRun, 1);
    const b = await observe(withTether, tetherRun, 2);
    const rows: [string, keyof Seen][] = [
      ["the child's HEAD", "head"],
      ["the parent's ahead/staged/untracked files it sees", "sees"],
      ["its Step 0", "step0"],
      ["its feature.txt landed in the parent's tree", "landed"],
      ["what the parent model is told", "told"],
    ];
    console.log(`\nParent: one commit ahead of origin, with staged, unstaged and untracked work.`);
    for (const [label, key] of rows) {
      console.log(
        `\n  ${label}:\n    Claude Code alone: ${a[key]}\n    with tether:       ${b[key]}`,
      );
    }
    console.log(`\n  The parent's working tree after the run, with tether:`);
    console.log(
      (await git(withTether.repo, ["status", "--short"])).split("\n").map((l) => `    ${l}`).join(
        "\n",
      ),
    );
  } finally {
    await alone.cleanup();
    await withTether.cleanup();
    await Deno.remove(commands, { recursive: true });
  }
}

if (import.meta.main) await demoClaude();
