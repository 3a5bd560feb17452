/**
 * Every payload Claude Code 2.1.328 really sent (captured in tests/fixtures/claude_code, as
 * shared/claude-code records them) is read as the event tether serves or passed through by
 * name; none is taken for a malformed payload.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { ROOT } from "./_helpers.ts";
import { readPayload } from "../src/harness/claude/payload.ts";

const FIXTURES = join(ROOT, "tests", "fixtures", "claude_code");

async function lines(file: string): Promise<string[]> {
  return (await Deno.readTextFile(join(FIXTURES, file))).split("\n").filter((l) => l !== "");
}

/** What tether makes of one payload: the event it serves, or "pass". */
function reading(line: string): string {
  const read = readPayload(line);
  if (typeof read === "string") return `malformed: ${read}`;
  if ("pass" in read) return "pass";
  if (read.event === "PostToolUse") return `PostToolUse(${read.agent ?? "launch"})`;
  if (read.event === "UserPromptSubmit") return `UserPromptSubmit(${read.agents.join(",")})`;
  return read.event;
}

Deno.test("the captured foreground payloads: creation, start, stop and the completed Agent call are served; the rest pass", async () => {
  const read = (await lines("foreground-isolated-hook-created.jsonl")).map(reading);
  assertEquals(read, [
    "pass", // SessionStart
    "UserPromptSubmit()",
    "PreToolUse",
    "PreToolUse",
    "WorktreeCreate",
    "WorktreeCreate",
    "SubagentStart",
    "pass", // the child's Bash
    "SubagentStart",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "SubagentStop",
    "PostToolUse(a3df4e9ec1584a1a0)",
    "pass",
    "SubagentStop",
    "PostToolUse(a4e13c78db2759f1e)",
    "pass", // Stop
    "pass", // SessionEnd
  ]);
});

Deno.test("the captured background payloads: the Agent call's launch tells nothing, the task notifications name the children", async () => {
  const read = (await lines("background-isolated-hook-created.jsonl")).map(reading);
  assertEquals(read.filter((r) => r.startsWith("PostToolUse(")), [
    "PostToolUse(launch)",
    "PostToolUse(launch)",
  ]);
  const notified = read.filter((r) =>
    r.startsWith("UserPromptSubmit(") && r !== "UserPromptSubmit()"
  );
  assertEquals(notified.length, 2);
  assertEquals(read.filter((r) => r.startsWith("malformed")), []);
});

Deno.test("the captured native-worktree payloads are read without a malformed one", async () => {
  const read = (await lines("foreground-isolated-native.jsonl")).map(reading);
  assertEquals(read.filter((r) => r.startsWith("malformed")), []);
  assertEquals(read.includes("SubagentStop"), true);
});
