/**
 * Hook configuration for a project under test: writing `.claude/settings.json`, and a logging
 * hook that records every payload it is given, so a test can read the events in order.
 *
 * @module
 */
import { join } from "../../src/_path.ts";

/** One hook command in `settings.json`. */
export interface HookCommand {
  type: "command";
  command: string;
  timeout?: number;
}

/** The `hooks` of `settings.json`: event → matcher groups. */
export type HookSettings = Record<string, { matcher?: string; hooks: HookCommand[] }[]>;

/** A hook payload as read back from the log (the fields every event has, and the rest). */
export interface HookEvent {
  hook_event_name: string;
  session_id: string;
  cwd: string;
  agent_id?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_response?: Record<string, unknown>;
  prompt?: string;
  [field: string]: unknown;
}

/**
 * Write the project's `.claude/settings.json` and exclude it in `.git/info/exclude`, so the
 * parent's `git status` shows only the scenario's own work.
 *
 * @param repo The project (a main worktree).
 * @param settings The whole settings object (say `{ hooks }`).
 * @returns The settings file's path.
 */
export async function writeSettings(repo: string, settings: unknown): Promise<string> {
  await Deno.mkdir(join(repo, ".claude"), { recursive: true });
  const file = join(repo, ".claude", "settings.json");
  await Deno.writeTextFile(file, JSON.stringify(settings, null, 2) + "\n");
  const exclude = join(repo, ".git", "info", "exclude");
  await Deno.mkdir(join(exclude, ".."), { recursive: true });
  await Deno.writeTextFile(exclude, "/.claude/settings.json\n", { append: true });
  return file;
}

/**
 * A shell hook that appends its stdin (one payload) as one line to `log`, then prints
 * `stdout` if given (say a `hookSpecificOutput` JSON).
 *
 * @param dir Where to write the script.
 * @param name The script's file name.
 * @param log The log file.
 * @param stdout What the hook answers (nothing when omitted).
 * @returns The script's path, for a `command`.
 */
export async function loggingHook(
  dir: string,
  name: string,
  log: string,
  stdout = "",
): Promise<string> {
  const script = join(dir, name);
  await Deno.writeTextFile(
    script,
    [
      "#!/bin/sh",
      "payload=$(cat)",
      `printf '%s\\n' "$payload" >> ${shellQuote(log)}`,
      stdout === "" ? "" : `printf '%s\\n' ${shellQuote(stdout)}`,
      "",
    ].join("\n"),
  );
  await Deno.chmod(script, 0o755);
  return script;
}

/**
 * Read a hook log: one payload a line.
 *
 * @param log The log file (missing reads as no events).
 * @returns The payloads in the order the hooks appended them.
 */
export async function readHookLog(log: string): Promise<HookEvent[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(log);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as HookEvent);
}

/**
 * A short label per event, for comparing orders: `PreToolUse(Agent)`, `SubagentStart`,
 * `PostToolUse(Bash)@child` (a child's tool events are marked `@child`).
 *
 * @param event A payload.
 * @returns The label.
 * @example
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * const e = { hook_event_name: "PreToolUse", tool_name: "Bash", agent_id: "a1", session_id: "s", cwd: "/" };
 * assertEquals(eventLabel(e), "PreToolUse(Bash)@child");
 * ```
 */
export function eventLabel(event: HookEvent): string {
  const name = event.hook_event_name;
  if (name !== "PreToolUse" && name !== "PostToolUse") return name;
  return `${name}(${event.tool_name})${event.agent_id === undefined ? "" : "@child"}`;
}

/**
 * Quote a string for POSIX sh.
 *
 * @param text Any text.
 * @returns It in single quotes.
 * @example
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * assertEquals(shellQuote("it's"), "'it'\\''s'");
 * ```
 */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
