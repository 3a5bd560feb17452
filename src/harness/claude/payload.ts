/**
 * Claude Code's hook payloads, read into the few facts tether acts on. Claude Code sends
 * one JSON object per event on stdin; the field names here are the ones the CLI really
 * sends (see docs/claude-code.md), with the documented variants (`Task` or `Agent`,
 * `name` or `worktree_name`) accepted alike. Pure: no git, no I/O.
 *
 * @module
 */

/** The tools that spawn a subagent. */
export const SUBAGENT_TOOLS: readonly string[] = ["Task", "Agent"];

/** One event tether serves, with what it needs of the payload. */
export type HookEvent =
  | { event: "PreToolUse"; cwd: string; tool: string; input: Record<string, unknown> }
  | { event: "WorktreeCreate"; cwd: string; name: string }
  | { event: "WorktreeRemove"; cwd: string; path: string }
  | { event: "SubagentStart"; cwd: string; agent: string }
  | { event: "SubagentStop"; cwd: string; agent: string; message: string }
  | {
    event: "PostToolUse";
    cwd: string;
    tool: string;
    /** The child's id, when the tool was a subagent that finished in the foreground. */
    agent?: string;
  }
  | { event: "UserPromptSubmit"; cwd: string; agents: string[] };

/** A payload tether does not act on: another event, or another tool. */
export interface PassThrough {
  pass: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The ids of the background children a `<task-notification>` prompt reports.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const prompt = "<task-notification>\n<task-id>a1b2</task-id>\n<status>completed</status>";
 * assertEquals(notifiedAgents(prompt), ["a1b2"]);
 * assertEquals(notifiedAgents("fix the bug"), []);
 * ```
 * @param prompt The prompt of a `UserPromptSubmit`.
 * @returns The task ids, in order, without repeats.
 */
export function notifiedAgents(prompt: string): string[] {
  if (!prompt.includes("<task-notification>")) return [];
  const ids = [...prompt.matchAll(/<task-id>\s*([^<\s]+)\s*<\/task-id>/g)].map((m) => m[1]!);
  return [...new Set(ids)];
}

/**
 * Read one hook payload.
 *
 * @example An isolated child's creation, and an event tether does not serve
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const create = readPayload(JSON.stringify({
 *   hook_event_name: "WorktreeCreate", cwd: "/r", name: "agent-a1",
 * }));
 * assertEquals(create, { event: "WorktreeCreate", cwd: "/r", name: "agent-a1" });
 * assertEquals(readPayload('{"hook_event_name":"Notification","cwd":"/r"}'), {
 *   pass: 'the event "Notification" is not one tether serves',
 * });
 * ```
 * @param raw The payload text.
 * @returns The event, what passes through, or why the payload is malformed (a string).
 */
export function readPayload(raw: string): HookEvent | PassThrough | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return "the hook payload is not JSON";
  }
  if (!isObject(value)) return "the hook payload is not a JSON object";
  const event = value.hook_event_name;
  if (typeof event !== "string") return 'the hook payload has no "hook_event_name" string';
  const cwd = text(value.cwd);
  if (cwd === undefined) return `the ${event} payload has no "cwd" string`;
  switch (event) {
    case "PreToolUse": {
      const tool = text(value.tool_name);
      if (tool === undefined) return 'the PreToolUse payload has no "tool_name" string';
      if (!SUBAGENT_TOOLS.includes(tool)) return { pass: `the tool ${tool} is not a subagent` };
      if (!isObject(value.tool_input)) return 'the PreToolUse payload has no "tool_input" object';
      return { event, cwd, tool, input: value.tool_input };
    }
    case "WorktreeCreate": {
      const name = text(value.name) ?? text(value.worktree_name);
      if (name === undefined) return 'the WorktreeCreate payload has no "name" string';
      return { event, cwd, name };
    }
    case "WorktreeRemove": {
      const path = text(value.worktree_path) ?? text(value.path);
      if (path === undefined) return 'the WorktreeRemove payload has no "worktree_path" string';
      return { event, cwd, path };
    }
    case "SubagentStart":
    case "SubagentStop": {
      const agent = text(value.agent_id);
      if (agent === undefined) return `the ${event} payload has no "agent_id" string`;
      if (event === "SubagentStart") return { event, cwd, agent };
      const message = typeof value.last_assistant_message === "string"
        ? value.last_assistant_message
        : "";
      return { event, cwd, agent, message };
    }
    case "PostToolUse": {
      const tool = text(value.tool_name);
      if (tool === undefined) return 'the PostToolUse payload has no "tool_name" string';
      if (!SUBAGENT_TOOLS.includes(tool)) return { pass: `the tool ${tool} is not a subagent` };
      const response = isObject(value.tool_response) ? value.tool_response : {};
      const agent = response.status === "completed" ? text(response.agentId) : undefined;
      return agent === undefined ? { event, cwd, tool } : { event, cwd, tool, agent };
    }
    case "UserPromptSubmit": {
      const prompt = typeof value.prompt === "string" ? value.prompt : "";
      return { event, cwd, agents: notifiedAgents(prompt) };
    }
    default:
      return { pass: `the event ${JSON.stringify(event)} is not one tether serves` };
  }
}

/**
 * The agent id in a worktree name Claude Code gives (`agent-<id>`), or the name itself.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(agentOfWorktree("agent-a4e13c78db2759f1e"), "a4e13c78db2759f1e");
 * assertEquals(agentOfWorktree("review"), "review");
 * ```
 * @param name The `name` of a `WorktreeCreate` payload.
 * @returns The id `SubagentStart` and `SubagentStop` will carry.
 */
export function agentOfWorktree(name: string): string {
  return name.startsWith("agent-") ? name.slice("agent-".length) : name;
}
