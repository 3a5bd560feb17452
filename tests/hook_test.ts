/**
 * `handshake hook`: Claude Code's PreToolUse payload in, `updatedInput` with the wrapped
 * prompt out, for the subagent tool only; the capture runs in the payload's cwd; a failed
 * capture lets the spawn go ahead unwrapped.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import { bin, makeRepo, tempDir, writeFiles } from "./_helpers.ts";

/** A PreToolUse payload in the shape Claude Code documents. */
function payload(cwd: string, toolName: string, toolInput: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "abc123",
    transcript_path: "/home/user/.claude/projects/x/abc123.jsonl",
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: "toolu_01ABC123",
  });
}

const TASK_INPUT = {
  description: "Review the parser",
  prompt: "Review src/parser.ts for off-by-one errors.",
  subagent_type: "reviewer",
};

Deno.test("hook wraps a Task prompt: every tool_input field kept, prompt replaced, no permissionDecision", async () => {
  const repo = await makeRepo();
  const elsewhere = await tempDir();
  try {
    await writeFiles(repo, { "scratch.txt": "dirty\n" });
    // Run from another directory: the capture must use the payload's cwd.
    const r = await bin("handshake", ["hook"], {
      cwd: elsewhere,
      stdin: payload(repo, "Task", TASK_INPUT),
    });
    assertEquals([r.code, r.stderr], [0, ""]);
    const doc = JSON.parse(r.stdout);
    assertEquals(Object.keys(doc), ["hookSpecificOutput"]);
    assertEquals(Object.keys(doc.hookSpecificOutput), ["hookEventName", "updatedInput"]);
    assertEquals(doc.hookSpecificOutput.hookEventName, "PreToolUse");
    const updated = doc.hookSpecificOutput.updatedInput;
    assertEquals(Object.keys(updated), Object.keys(TASK_INPUT));
    assertEquals(updated.description, TASK_INPUT.description);
    assertEquals(updated.subagent_type, TASK_INPUT.subagent_type);
    assertOk(updated.prompt.startsWith("<!-- subagent-env-handshake v1 -->\n"), updated.prompt);
    assertOk(updated.prompt.endsWith(`-->\n\n${TASK_INPUT.prompt}`), updated.prompt);
    assertOk(updated.prompt.includes(`\nparent_cwd: ${repo}\n`), updated.prompt);
    // The subagent, standing in the repository, verifies the wrapped prompt.
    const v = await bin("verify", [], { cwd: repo, stdin: updated.prompt });
    assertEquals(v.code, 0, v.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("hook wraps the Agent tool too, and adds the working context with --context", async () => {
  const repo = await makeRepo();
  try {
    const r = await bin("handshake", ["hook", "--context", "--recent", "README.md"], {
      cwd: repo,
      stdin: payload(repo, "Agent", { prompt: "Go.", description: "d" }),
    });
    assertEquals([r.code, r.stderr], [0, ""]);
    const prompt: string = JSON.parse(r.stdout).hookSpecificOutput.updatedInput.prompt;
    assertOk(prompt.startsWith("<!-- subagent-env-handshake v1 -->\n"), prompt);
    assertOk(
      /\n\[working-context\]\n[\s\S]*recent_files:\n {2}- README\.md[\s\S]*\n\[\/working-context\]\n\nGo\.$/
        .test(prompt),
      prompt,
    );
    assertOk(/\nsnapshot: [0-9a-f]{40}\n/.test(prompt), prompt);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("hook prints nothing and exits 0 for any tool other than Task and Agent", async () => {
  const repo = await makeRepo();
  try {
    for (const tool of ["Bash", "Write", "task", "mcp__x__Task"]) {
      const r = await bin("handshake", ["hook"], {
        cwd: repo,
        stdin: payload(repo, tool, { command: "ls", prompt: "x" }),
      });
      assertEquals([r.code, r.stdout, r.stderr], [0, "", ""], tool);
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("hook: when the capture fails the spawn goes ahead unwrapped (exit 0, no output) and stderr says why", async () => {
  const notRepo = await tempDir();
  try {
    const r = await bin("handshake", ["hook"], {
      cwd: notRepo,
      stdin: payload(join(notRepo), "Task", TASK_INPUT),
    });
    assertEquals([r.code, r.stdout], [0, ""]);
    assertEquals(
      r.stderr,
      "handshake hook: not a git repository; the subagent is spawned without a handshake block\n",
    );
    const relative = await bin("handshake", ["hook"], {
      cwd: notRepo,
      stdin: payload("relative/dir", "Task", TASK_INPUT),
    });
    assertEquals([relative.code, relative.stdout], [0, ""]);
    assertOk(/cwd is not an absolute path/.test(relative.stderr), relative.stderr);
  } finally {
    await Deno.remove(notRepo, { recursive: true });
  }
});

Deno.test("hook: a payload that is not a PreToolUse payload is one error line, exit 1 (non-blocking)", async () => {
  const repo = await makeRepo();
  try {
    const cases: [string, string][] = [
      ["not json", "error: the hook payload is not JSON\n"],
      ["[1]", "error: the hook payload is not a JSON object\n"],
      [
        JSON.stringify({ cwd: repo, hook_event_name: "PreToolUse", tool_name: "Task" }),
        'error: the hook payload has no "tool_input" object\n',
      ],
      [
        payload(repo, "Task", { description: "no prompt" }),
        'error: the Task call has no "prompt" string\n',
      ],
    ];
    for (const [input, stderr] of cases) {
      const r = await bin("handshake", ["hook"], { cwd: repo, stdin: input });
      assertEquals([r.code, r.stdout, r.stderr], [1, "", stderr], input);
    }
    const usage = await bin("handshake", ["hook", "--count", "2"], { cwd: repo, stdin: "{}" });
    assertEquals(usage.code, 2);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
