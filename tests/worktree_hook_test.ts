/**
 * `handshake hook` for a subagent call with `isolation: "worktree"`: the prompt gets the
 * harness form of the v2 block, so the child's Step 0 discloses a worktree that lacks the
 * parent's live state (Claude Code #82955).
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, tempDir, writeFiles } from "./_helpers.ts";
import { removeWorktrees } from "./_worktree_fixture.ts";

function payload(cwd: string, toolInput: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "s",
    transcript_path: "/t.jsonl",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Task",
    tool_input: toolInput,
  });
}

Deno.test("hook: a Task call with isolation worktree gets the harness form of the v2 block, and Step 0 in a worktree lacking the parent's edits halts naming them", async () => {
  const repo = await makeRepo();
  const kids = await tempDir("tether-kids-");
  try {
    await writeFiles(repo, { "README.md": "# edited by the parent\n", "new.txt": "new\n" });
    const input = { description: "d", prompt: "Fix it.", isolation: "worktree" };
    const r = await bin("handshake", ["hook"], { cwd: kids, stdin: payload(repo, input) });
    assertEquals([r.code, r.stderr], [0, ""]);
    const updated = JSON.parse(r.stdout).hookSpecificOutput.updatedInput;
    assertEquals(updated.isolation, "worktree");
    assertOk(updated.prompt.startsWith("<!-- subagent-env-handshake v2 -->\n"), updated.prompt);
    assertIncludes(updated.prompt, "workspace_mode: worktree\n");
    assertIncludes(updated.prompt, "worktree_path: harness\n");
    assertOk(updated.prompt.endsWith("-->\n\nFix it."), updated.prompt);
    // The harness makes the worktree from HEAD, without the parent's uncommitted work.
    const wt = join(kids, "agent");
    await git(repo, ["worktree", "add", "-q", "--detach", wt, "HEAD"]);
    const v = await bin("verify", [], { cwd: wt, stdin: updated.prompt });
    assertEquals(v.code, 1, v.stdout);
    assertIncludes(v.stdout, "absent or different here: README.md, new.txt;");
    // Without isolation the hook still writes the v1 block.
    const plain = await bin("handshake", ["hook"], {
      cwd: kids,
      stdin: payload(repo, { description: "d", prompt: "p" }),
    });
    const prompt = JSON.parse(plain.stdout).hookSpecificOutput.updatedInput.prompt;
    assertOk(prompt.startsWith("<!-- subagent-env-handshake v1 -->\n"), prompt);
  } finally {
    await removeWorktrees(repo);
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(kids, { recursive: true });
  }
});
