/**
 * The README's bash examples, run as written: the first use, the dispatcher, the gate round
 * trip, the coord quick start and the Claude Code hook settings; and the reference's (docs/
 * reference.md): exact mode and Step 0 with the block inline. The docs cannot drift from the
 * product.
 */
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import {
  makeSite,
  markedExamples,
  pasteBlock,
  README,
  REFERENCE,
  runScript,
  type Site,
  stepZeroCommands,
} from "./_readme.ts";
import { bin, git, run, writeFiles } from "./_helpers.ts";

const EXAMPLES = markedExamples(README);
const REFERENCE_EXAMPLES = markedExamples(REFERENCE);

/** Run a test body on a fresh site and remove it after. */
async function onSite(body: (site: Site) => Promise<void>): Promise<void> {
  const site = await makeSite();
  try {
    await body(site);
  } finally {
    await Deno.remove(site.root, { recursive: true });
  }
}

function example(name: string, examples = EXAMPLES): string {
  const found = examples.get(name);
  assertOk(found, `example "${name}" is missing`);
  return found.code;
}

Deno.test("README: every marked example is one this suite runs", () => {
  assertEquals([...EXAMPLES.keys()].sort(), [
    "bash-dispatcher",
    "coord-quickstart",
    "first-use",
    "gate-roundtrip",
    "powershell-dispatcher",
    "worktree-mode",
  ]);
  assertEquals([...REFERENCE_EXAMPLES.keys()].sort(), ["exact-mode"]);
  assertEquals([...stepZeroCommands(REFERENCE).keys()].sort(), ["bash", "powershell"]);
});

Deno.test("README: the first use wraps, matches, then halts on a sibling's edit, and leaves nothing behind", async () => {
  await onSite(async (site) => {
    const r = await runScript(site, "bash", example("first-use"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("<!-- subagent-env-handshake v1 -->\n"), r.stdout);
    assertIncludes(r.stdout, "-->\n\nReview src/app.ts.\nenvironment-verified: ");
    assertIncludes(r.stdout, "## Finding: environment-divergence (halting)\n");
    assertIncludes(r.stdout, "**Diverged fields:** parent_dirty_fingerprint\n");
    assertOk(r.stdout.endsWith("halted: exit 1\n"), r.stdout);
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its prompt");
  });
});

Deno.test("README: the bash dispatcher runs three agents whose Step 0 matches, and leaves nothing behind", async () => {
  await onSite(async (site) => {
    const r = await runScript(site, "bash", example("bash-dispatcher"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assertEquals(lines.length, 3, r.stdout);
    for (const line of lines) assertOk(line.startsWith("environment-verified: "), line);
    assertEquals(r.stderr, "");
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its temp dir");
    assertEquals(await git(site.repo, ["status", "--porcelain"]), "");
  });
});

Deno.test("reference: exact mode matches, then halts on a sibling's second edit, naming the file", async () => {
  await onSite(async (site) => {
    const r = await runScript(site, "bash", example("exact-mode", REFERENCE_EXAMPLES));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    assertIncludes(r.stdout, "**Diverged fields:** seed\n");
    assertIncludes(r.stdout, "- src/app.ts (working tree)\n");
    assertIncludes(r.stdout, "halted: exit 1\n");
    assertIncludes(r.stdout, "pruned 0 seed(s) older than 7d; kept 1\n");
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its temp dir");
  });
});

Deno.test("reference: the Step 0 snippet in bash (block in a quoted heredoc) matches and writes nothing into the tree", async () => {
  await onSite(async (site) => {
    await writeFiles(site.repo, { "wip.txt": "parent's uncommitted work\n" });
    const wrapped = await bin("handshake", ["wrap"], { cwd: site.repo, stdin: "Review.\n" });
    const block = wrapped.stdout.slice(0, wrapped.stdout.indexOf("-->\n\nReview.") + 4);
    const command = pasteBlock(stepZeroCommands(REFERENCE).get("bash")!, block);
    const before = await git(site.repo, ["status", "--porcelain"]);
    const r = await runScript(site, "bash", command);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    assertEquals(await git(site.repo, ["status", "--porcelain"]), before);
    // The same snippet still halts when the tree really moved.
    await writeFiles(site.repo, { "sibling.txt": "another agent's file\n" });
    const moved = await runScript(site, "bash", command);
    assertEquals(moved.code, 1, moved.stdout);
    assertIncludes(moved.stdout, "**Diverged fields:** parent_dirty_fingerprint");
  });
});

Deno.test("README: the gate round trip runs as written and the gate accepts", async () => {
  await onSite(async (site) => {
    const r = await runScript(site, "bash", example("gate-roundtrip"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
    assertEquals(report.verdict, "accept", r.stdout);
    assertEquals(report.changes.confirmed, ["src/app.ts"]);
    assertEquals(report.evidence.map((e: { status: string }) => e.status), [
      "verified",
      "verified",
    ]);
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its files");
  });
});

Deno.test("README: the coord quick start runs as written: handoff, wait, inbox, read, ack, status", async () => {
  await onSite(async (site) => {
    const r = await runScript(site, "bash", example("coord-quickstart"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    // `coord wait` returned at once with the waiting id, then `coord inbox` listed it.
    assertIncludes(
      r.stdout,
      "E001-M0001\nE001-M0001  W1         HANDOFF         SENT          frozen result\n",
    );
    assertIncludes(
      r.stdout,
      "artifact-check: ok: commit, tree and path resolve to the recorded ids\n",
    );
    assertIncludes(r.stdout, "\n| Frozen; please review.\n"); // the body, framed
    assertIncludes(r.stdout, "E001-M0001 acknowledged by Primary\n");
    assertOk(/\nOWNER ACTION: .*\n$/.test(r.stdout), r.stdout);
    assertEquals(r.stderr, "");
  });
});

Deno.test("README: the Claude Code settings run tether hook, PreToolUse for Task and Agent only", async () => {
  await onSite(async (site) => {
    const json = /^```json\n(\{\n {2}"hooks"[\s\S]*?)^```$/m.exec(README)?.[1];
    assertOk(json, "no settings.json block in the README");
    const entry = JSON.parse(json).hooks.PreToolUse[0];
    const matcher = new RegExp(`^(?:${entry.matcher})$`);
    assertEquals(["Task", "Agent", "Bash", "Write"].map((t) => matcher.test(t)), [
      true,
      true,
      false,
      false,
    ]);
    const command: string = entry.hooks[0].command;
    assertEquals(entry.hooks[0].type, "command");
    const payload = JSON.stringify({
      session_id: "abc123",
      transcript_path: join(site.root, "t.jsonl"),
      cwd: site.repo,
      hook_event_name: "PreToolUse",
      tool_name: "Task",
      tool_input: { description: "Review", prompt: "Review src/app.ts.", subagent_type: "x" },
    });
    // Claude Code runs the command through a shell, from the session's directory.
    const r = await run("sh", ["-c", command], { cwd: site.repo, env: site.env, stdin: payload });
    assertEquals([r.code, r.stderr], [0, ""]);
    const updated = JSON.parse(r.stdout).hookSpecificOutput.updatedInput;
    assertEquals(Object.keys(updated), ["description", "prompt", "subagent_type"]);
    const v = await bin("verify", [], { cwd: site.repo, stdin: updated.prompt });
    assertEquals(v.code, 0, v.stdout);
  });
});
