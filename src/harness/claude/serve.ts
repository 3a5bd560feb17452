/**
 * Serving one Claude Code hook payload: read it, dispatch on its event to the loop's
 * handlers (events.ts), and turn a failure into the answer Claude Code should get: one line,
 * exit 0, except a creation that cannot be exact.
 *
 * @module
 */

import { quoteLine } from "../../show.ts";
import type { Answer } from "./events.ts";
import { readPayload } from "./payload.ts";
import { GitError } from "../../git_error.ts";

const PASS: Answer = { code: 0 };

/**
 * The loop's handlers and records, loaded only by the events that use them: a shared-tree
 * Agent call, the event Claude Code sends most, never pays for loading the worktree and gate
 * code.
 */
const loop = () => import("./events.ts");
const records = () => import("./agents.ts");

function reason(error: unknown): string {
  if (error instanceof GitError && error.kind === "not-a-repository") return "not a git repository";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Serve one payload.
 *
 * @param raw The payload's text.
 * @param wrap Wraps a shared-tree child's prompt (`handshake hook`'s PreToolUse), printing
 *   the answer itself; returns its exit code.
 * @returns The answer.
 */
export async function serve(
  raw: string,
  wrap: (payload: string) => Promise<number>,
): Promise<Answer> {
  const event = readPayload(raw);
  if (typeof event === "string") {
    // Only a creation must fail when it cannot be served: any other event goes on as it
    // would without tether.
    const create = raw.includes("WorktreeCreate");
    return { stderr: `tether hook: ${event}`, code: create ? 1 : 0 };
  }
  if ("pass" in event) return { stderr: `tether hook: ${event.pass}; passed through`, code: 0 };
  try {
    switch (event.event) {
      case "PreToolUse":
        // An isolated child is grounded by SubagentStart, in its own worktree.
        if (event.input.isolation === "worktree") return PASS;
        return { code: await wrap(raw) };
      case "WorktreeCreate":
        return await (await loop()).worktreeCreate(event.cwd, event.name);
      case "SubagentStart":
        return await (await loop()).subagentStart(event.cwd, event.agent);
      case "SubagentStop":
        return await stop(event.cwd, event.agent, event.message);
      case "PostToolUse":
        return await tell("PostToolUse", event.cwd, event.agent === undefined ? [] : [event.agent]);
      case "UserPromptSubmit":
        return await tell("UserPromptSubmit", event.cwd, event.agents);
      case "WorktreeRemove":
        return await (await loop()).worktreeRemove(event.cwd, event.path);
    }
  } catch (error) {
    if (event.event === "WorktreeCreate") {
      return { stderr: `tether hook: cannot make the worktree: ${reason(error)}`, code: 1 };
    }
    return { stderr: `tether hook: ${event.event}: ${reason(error)}`, code: 0 };
  }
}

/**
 * Tell the parent of these children, loading the loop only when tether made a worktree for
 * one of them: every Agent call and every prompt of a session comes here, and most name no
 * child of tether's (a shared-tree child, a prompt without a task notification).
 */
async function tell(event: string, cwd: string, agents: string[]): Promise<Answer> {
  if (agents.length === 0) return PASS;
  const { readAgent } = await records();
  const known = await Promise.all(agents.map((agent) => readAgent(cwd, agent)));
  if (known.every((record) => record === undefined)) return PASS;
  return await (await loop()).tellParent(event, cwd, agents);
}

/** `SubagentStop`, where a failure of the gate itself is kept as the verdict for the parent. */
async function stop(cwd: string, agent: string, message: string): Promise<Answer> {
  const { readAgent, writeAgent } = await records();
  const record = await readAgent(cwd, agent);
  if (record === undefined) return PASS;
  try {
    return await (await loop()).subagentStop(record, message);
  } catch (error) {
    if (record.outcome === undefined) {
      await writeAgent(record.top, {
        ...record,
        outcome: {
          status: "failed",
          text: `tether: subagent ${agent} could not be judged (${
            reason(error)
          }); nothing landed. Its work is kept in ${
            quoteLine(record.worktree)
          } on the branch ${record.branch} (seed ${record.seed}).`,
        },
      }).catch(() => {});
    }
    return { stderr: `tether hook: SubagentStop: ${reason(error)}`, code: 0 };
  }
}
