/**
 * `tether hook`: the one command a Claude Code settings block names for every event
 * tether serves. It reads the payload on stdin and dispatches on `hook_event_name`.
 *
 * Exit codes follow what Claude Code does with them: 0 lets the harness go on (an event
 * or shape tether does not serve passes with one line on stderr); `WorktreeCreate` exits 1
 * when the worktree cannot be exact, which makes the harness refuse the isolated child;
 * 2 is a usage error of the command line itself.
 *
 * @module
 */
import {
  err,
  helpOrVersion,
  InputError,
  out,
  parseCli,
  readStdinText,
  UsageError,
  VERSION,
} from "../cli.ts";
import type { Answer } from "../harness/claude/events.ts";
import { serve } from "../harness/claude/serve.ts";

/** The help text. */
export const TETHER_HELP =
  `tether ${VERSION}: Claude Code hooks that ground, isolate, gate and land subagents

Usage:
  tether hook [--context [--recent PATH]...]   < payload.json

Serves, from one settings block (README, "Claude Code"):
  PreToolUse (Agent|Task)  a shared-tree child's prompt gets the v1 block
  WorktreeCreate           an isolated child's worktree, made from the parent's exact state
  SubagentStart            an isolated child gets its v2 block and its Step 0 command
  SubagentStop             its result is gated and its work landed (or it is sent back)
  PostToolUse (Agent|Task) the parent is told the verdict of a foreground child
  UserPromptSubmit         ... and of a background child, on its task notification
  WorktreeRemove           a worktree with no unlanded work is removed

Options:
  --context            add the [working-context] block to a shared-tree child's prompt
  --recent PATH        a recent file for the working context (repeatable)
  -h, --help, help     this text
  -V, --version        the version

Exit codes:
  0  served, or passed through (an event or payload tether does not serve: one line on stderr)
  1  WorktreeCreate failed, or its payload is malformed: nothing was made (one line on stderr)
  2  usage error
`;

const OPTIONS = {
  context: { type: "boolean" },
  recent: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

async function answer(a: Answer): Promise<number> {
  if (a.stdout !== undefined) await out(a.stdout);
  if (a.stderr !== undefined) err(oneLine(a.stderr));
  return a.code;
}

/**
 * Run `tether` with its arguments.
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 * @throws {UsageError} for bad arguments.
 */
export async function tetherMain(args: string[]): Promise<number> {
  const asked = helpOrVersion(args);
  const { values: v, positionals } = parseCli(asked ? [] : args, OPTIONS);
  if (v.help || asked === "help") return await out(TETHER_HELP), 0;
  if (v.version || asked === "version") return await out(`tether ${VERSION}\n`), 0;
  if (positionals[0] !== "hook" || positionals.length > 1) {
    throw new UsageError(
      positionals.length === 0
        ? "a subcommand is needed: tether hook"
        : `Unknown subcommand: ${JSON.stringify(positionals.join(" "))}`,
    );
  }
  if (v.recent && !v.context) throw new UsageError("--recent goes with --context");
  let raw: string;
  try {
    raw = await readStdinText();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return await answer({ stderr: `tether hook: ${error.message}; passed through`, code: 0 });
  }
  const context = v.context ?? false;
  const recent = v.recent ?? [];
  return await answer(
    await serve(
      raw,
      // Loaded only for the PreToolUse that wraps a prompt.
      async (payload) =>
        (await import("./handshake.ts")).wrapSubagentCall(payload, {
          context,
          recent,
          audience: "private",
          cwdStyle: "native",
        }),
    ),
  );
}
