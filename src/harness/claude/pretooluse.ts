/**
 * `handshake hook`: a Claude Code `PreToolUse` hook that wraps every subagent prompt with
 * the handshake block, so nobody copies a block by hand. Claude Code passes the tool call
 * on stdin; for the subagent tool (`Task`, `Agent` in later versions) the hook prints
 * `updatedInput`: the tool's input with `prompt` wrapped (a call with `isolation:
 * "worktree"` gets the harness form of the v2 block). It never sets a
 * `permissionDecision` (Claude Code would then ignore `updatedInput` for this tool).
 *
 * @module
 */
import { buildBlock } from "../../handshake/block.ts";
import { captureLive } from "../../handshake/capture.ts";
import { err, out } from "../../cli.ts";
import type { ContextResult } from "../../context/capture.ts";
import type { Handshake, TreeState } from "../../handshake/fields.ts";
import { issuedAtNow } from "../../time.ts";

/** The tools that spawn a subagent. */
export const SUBAGENT_TOOLS: readonly string[] = ["Task", "Agent"];

/** Exit code for a payload that is not a PreToolUse payload (Claude Code: a non-blocking error). */
export const EXIT_BAD_PAYLOAD = 1;

/** What the hook needs from Claude Code's payload. */
export interface HookCall {
  /** The tool Claude Code is about to run. */
  toolName: string;
  /** The session's working directory, where the capture runs. */
  cwd: string;
  /** The tool's input, every field as given. */
  toolInput: Record<string, unknown>;
}

/**
 * Read a `PreToolUse` payload: `{ session_id, transcript_path, cwd, hook_event_name,
 * tool_name, tool_input }`. Only the fields the hook uses are checked.
 *
 * @example A Task call, and a payload that is no object
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const call = parseHookPayload(JSON.stringify({
 *   session_id: "s", transcript_path: "/t", cwd: "/r", hook_event_name: "PreToolUse",
 *   tool_name: "Task", tool_input: { description: "d", prompt: "p" },
 * }));
 * assertEquals(typeof call === "string" ? call : call.toolName, "Task");
 * assertEquals(parseHookPayload("[]"), "the hook payload is not a JSON object");
 * ```
 * @param text The payload.
 * @returns The call, or why the payload cannot be one.
 */
export function parseHookPayload(text: string): HookCall | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "the hook payload is not JSON";
  }
  if (!isObject(value)) return "the hook payload is not a JSON object";
  const { tool_name: toolName, tool_input: toolInput, cwd, hook_event_name: event } = value;
  if (event !== undefined && event !== "PreToolUse") {
    return `the hook payload is for ${JSON.stringify(event)}, not "PreToolUse"`;
  }
  if (typeof toolName !== "string") return 'the hook payload has no "tool_name" string';
  if (!isObject(toolInput)) return 'the hook payload has no "tool_input" object';
  if (typeof cwd !== "string" || cwd === "") return 'the hook payload has no "cwd" string';
  return { toolName, cwd, toolInput };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The hook output that hands Claude Code the wrapped prompt: every original field of
 * the tool input, `prompt` replaced, and no permission decision.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(hookOutput({ description: "d", prompt: "p" }, "B\np"), {
 *   hookSpecificOutput: {
 *     hookEventName: "PreToolUse",
 *     updatedInput: { description: "d", prompt: "B\np" },
 *   },
 * });
 * ```
 * @param toolInput The tool's input as Claude Code gave it.
 * @param prompt The wrapped prompt.
 * @returns The JSON document to print.
 */
export function hookOutput(toolInput: Record<string, unknown>, prompt: string): {
  hookSpecificOutput: { hookEventName: "PreToolUse"; updatedInput: Record<string, unknown> };
} {
  return {
    hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { ...toolInput, prompt } },
  };
}

/** How the hook wraps: the options `handshake hook` shares with `wrap`. */
export interface HookOptions {
  /** Add the `[working-context]` block. */
  context: boolean;
  /** Recent files for the working context. */
  recent: string[];
  /** `public` leaves path and git state out (so the handshake block too). */
  audience: "private" | "public";
  /** Checks and styles the captured fields (as `wrap` does). */
  fields: (tree: TreeState) => TreeState;
  /** The context block followed by a blank line, or nothing. */
  contextPrefix: (context: ContextResult | undefined) => string;
}

/**
 * Run the hook on a payload's text: print the output for a subagent tool, nothing for
 * any other tool; when the capture fails the spawn goes ahead unwrapped and the reason
 * goes to stderr.
 *
 * @param text The payload from stdin.
 * @param options How to wrap.
 * @param describe Turns a capture failure into one line.
 * @returns The exit code: 0, or {@linkcode EXIT_BAD_PAYLOAD}.
 */
export async function runHook(
  text: string,
  options: HookOptions,
  describe: (error: unknown) => string,
): Promise<number> {
  const call = parseHookPayload(text);
  if (typeof call === "string") {
    err(`error: ${call}`);
    return EXIT_BAD_PAYLOAD;
  }
  if (!SUBAGENT_TOOLS.includes(call.toolName)) return 0;
  const prompt = call.toolInput.prompt;
  if (typeof prompt !== "string") {
    err(`error: the ${call.toolName} call has no "prompt" string`);
    return EXIT_BAD_PAYLOAD;
  }
  if (!call.cwd.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(call.cwd)) {
    err(
      `handshake hook: the payload's cwd is not an absolute path: ${
        JSON.stringify(call.cwd)
      }; the subagent is spawned without a handshake block`,
    );
    return 0;
  }
  // A harness-made worktree's place is not known here: its context names no path and no
  // git part, never the parent's tree (docs/worktree.md).
  const isolated = call.toolInput.isolation === "worktree";
  // The context's code loads only when it is asked for: most Agent calls carry none.
  const contextPromise = options.context
    ? import("../../context/capture.ts").then(({ captureWorkingContext }) =>
      captureWorkingContext({
        cwd: call.cwd,
        recent: options.recent,
        audience: isolated ? "public" : options.audience, // tether:guard wt-context-hook
      })
    )
    : Promise.resolve(undefined);
  let head: string;
  try {
    let block = "";
    if (options.audience === "private" && call.toolInput.isolation === "worktree") {
      // The harness makes the worktree: the harness form of the v2 block (docs/worktree.md).
      const { harnessBlock } = await import("../../worktree/harness.ts");
      block = `${await harnessBlock(call.cwd, options.fields)}\n`;
    } else if (options.audience === "private") {
      const handshake: Handshake = {
        ...options.fields(await captureLive({ cwd: call.cwd, seedSpelling: true })),
        workspace_mode: "shared",
        handshake_issued_at: issuedAtNow(),
      };
      block = `${buildBlock(handshake)}\n`;
    }
    head = block + options.contextPrefix(await contextPromise);
  } catch (error) {
    contextPromise.catch(() => {});
    err(`handshake hook: ${describe(error)}; the subagent is spawned without a handshake block`);
    return 0;
  }
  await out(`${JSON.stringify(hookOutput(call.toolInput, head + prompt))}\n`);
  return 0;
}
