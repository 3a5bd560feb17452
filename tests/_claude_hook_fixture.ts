/**
 * Fixtures for `tether hook` driven with Claude Code's payloads (the shapes of
 * `shared/claude-code/*.jsonl`): a parent one commit ahead of its origin with staged,
 * unstaged, untracked and ignored files, the hook run through the real entry point, and a
 * child's Step 0 run as its shell would run it.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import {
  bin,
  commitAll,
  fixtureIdentity,
  git,
  ROOT,
  type Run,
  run,
  tempDir,
  writeFiles,
} from "./_helpers.ts";
import { PERMISSIONS } from "../src/permissions.ts";

/** A parent repository inside its own temp dir (its worktrees go beside it, inside too). */
export interface Parent {
  /** The temp dir holding everything. */
  root: string;
  /** The parent's working tree. */
  repo: string;
  /** The commit its origin has (what Claude Code alone would give a child). */
  originHead: string;
  /** The parent's HEAD, one commit ahead. */
  head: string;
}

/**
 * A parent one local commit ahead of `origin`, with staged, unstaged, untracked and ignored
 * files.
 *
 * @returns The parent.
 */
export async function aheadParent(): Promise<Parent> {
  const root = await tempDir("tether-claude-");
  const origin = join(root, "origin.git");
  const repo = join(root, "project");
  await git(root, ["init", "-q", "--bare", "-b", "main", origin]);
  await git(root, ["clone", "-q", origin, repo]);
  await fixtureIdentity(repo);
  await git(repo, ["checkout", "-q", "-b", "main"]);
  await writeFiles(repo, { "app.txt": "one\ntwo\nthree\n", ".gitignore": "*.log\n" });
  const originHead = await commitAll(repo, "base");
  await git(repo, ["push", "-q", "origin", "main"]);
  await writeFiles(repo, { "local.txt": "ahead of origin\n" });
  const head = await commitAll(repo, "local work");
  await writeFiles(repo, {
    "staged.txt": "staged\n",
    "notes.txt": "untracked notes\n",
    "debug.log": "ignored\n",
  });
  await git(repo, ["add", "staged.txt"]);
  await Deno.writeTextFile(join(repo, "app.txt"), "one\ntwo\nthree\nunstaged four\n");
  return { root, repo, originHead, head };
}

/**
 * Run `tether hook` on one payload.
 *
 * @param payload The payload object (or raw text).
 * @param cwd The hook's own directory (Claude Code runs a child's hooks in its worktree).
 * @returns Exit code and output.
 */
export function hook(payload: Record<string, unknown> | string, cwd?: string): Promise<Run> {
  const stdin = typeof payload === "string" ? payload : JSON.stringify(payload);
  return bin("tether", ["hook"], { stdin, ...(cwd === undefined ? {} : { cwd }) });
}

/** The common fields of every payload. */
function base(cwd: string, event: string) {
  return { session_id: "s-1", transcript_path: "/nowhere.jsonl", cwd, hook_event_name: event };
}

/** Payload builders, one per event, as Claude Code 2.1.328 sends them. */
export const payload = {
  worktreeCreate: (cwd: string, agent: string) => ({
    ...base(cwd, "WorktreeCreate"),
    name: `agent-${agent}`,
  }),
  subagentStart: (cwd: string, agent: string) => ({
    ...base(cwd, "SubagentStart"),
    agent_id: agent,
    agent_type: "general-purpose",
  }),
  subagentStop: (cwd: string, agent: string, message: string) => ({
    ...base(cwd, "SubagentStop"),
    agent_id: agent,
    agent_type: "general-purpose",
    stop_hook_active: false,
    agent_transcript_path: "/nowhere-agent.jsonl",
    last_assistant_message: message,
  }),
  postAgent: (cwd: string, agent: string, status = "completed") => ({
    ...base(cwd, "PostToolUse"),
    tool_name: "Agent",
    tool_input: { description: "d", prompt: "p", isolation: "worktree" },
    tool_response: { status, agentId: agent, content: [{ type: "text", text: "done" }] },
  }),
  notification: (cwd: string, agent: string) => ({
    ...base(cwd, "UserPromptSubmit"),
    prompt:
      `<task-notification>\n<task-id>${agent}</task-id>\n<status>completed</status>\n<result>done</result>\n</task-notification>`,
  }),
  preAgent: (cwd: string, input: Record<string, unknown>) => ({
    ...base(cwd, "PreToolUse"),
    tool_name: "Agent",
    tool_input: input,
    tool_use_id: "toolu_1",
  }),
};

/**
 * The additional context a hook answer carries, or undefined.
 *
 * @param r The hook's run.
 * @returns The text.
 */
export function contextOf(r: Run): string | undefined {
  if (r.stdout.trim() === "") return undefined;
  return JSON.parse(r.stdout).hookSpecificOutput?.additionalContext;
}

/**
 * A child's final message: prose, then its SubagentResult claiming `files`.
 *
 * @param files The paths it claims, each with file evidence.
 * @returns The message.
 */
export function finalMessage(...files: string[]): string {
  return `Done.\n\n${
    JSON.stringify({
      ok: true,
      summary: `changed ${files.join(", ")}`,
      files_changed: files,
      errors: [],
      evidence: files.map((ref) => ({ kind: "file", ref, ok: true })),
    })
  }`;
}

/**
 * Run the Step 0 command a SubagentStart context names, with bash in the child's
 * directory, `verify` on PATH as the real entry point under its exact flags.
 *
 * @param context The SubagentStart context.
 * @param cwd The child's directory.
 * @returns verify's run.
 */
export async function runStep0(context: string, cwd: string): Promise<Run> {
  const command = context.split("\n").find((l) => l.startsWith("verify "));
  if (command === undefined) throw new Error("no verify command in the context");
  const shims = await tempDir("tether-shim-");
  const flags = PERMISSIONS.verify.join(" ");
  await Deno.writeTextFile(
    join(shims, "verify"),
    `#!/bin/sh\nexec '${Deno.execPath()}' run --quiet --no-prompt ${flags} '${
      join(ROOT, "verify.ts")
    }' "$@"\n`,
  );
  await Deno.chmod(join(shims, "verify"), 0o755);
  try {
    return await run("bash", ["-c", command], {
      cwd,
      env: { PATH: `${shims}:${Deno.env.get("PATH") ?? ""}`, NO_COLOR: "1" },
    });
  } finally {
    await Deno.remove(shims, { recursive: true });
  }
}

/**
 * The refs under `refs/tether/` and the branches under `tether/` of a repository.
 *
 * @param repo The repository.
 * @returns One ref per line (empty when none).
 */
export function tetherRefs(repo: string): Promise<string> {
  return git(repo, ["for-each-ref", "--format=%(refname)", "refs/tether/", "refs/heads/tether/"]);
}
