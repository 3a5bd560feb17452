/**
 * The Claude Code events tether serves, each turned into calls of the worktree and gate
 * capabilities and their answers back into Claude Code's JSON. The rules (the seed, the
 * verdict, the land) stay in those capabilities; this module decides only which to call.
 *
 * The loop for one isolated child: `WorktreeCreate` spawns a worktree holding the parent's
 * exact state and records it; `SubagentStart` gives the child its v2 block and its Step 0;
 * `SubagentStop` gates the child's result against the recorded seed and lands it, or sends
 * the child back a bounded number of times; `PostToolUse` (a foreground child) or the
 * `UserPromptSubmit` of a `<task-notification>` (a background one) tells the parent.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import { buildV2Block } from "../../handshake/v2/block.ts";
import { blocksFor } from "../../worktree/handshake.ts";
import {
  dropSeedRef,
  parentLocation,
  removeEmptyDirs,
  spawnWorktrees,
} from "../../worktree/spawn.ts";
import { SEED_REF_PREFIX } from "../../seed/commit.ts";
import { renderWorktree, worktreeGate, type WorktreeGateReport } from "../../worktree/gate.ts";
import { readChildWork, removeChild } from "../../worktree/land.ts";
import { renderReport } from "../../gate/render.ts";
import { listPaths } from "../../worktree/plan.ts";
import {
  type AgentRecord,
  dropAgent,
  listAgents,
  type Outcome,
  readAgent,
  underLandLock,
  validAgentId,
  writeAgent,
} from "./agents.ts";
import { agentOfWorktree } from "./payload.ts";
import { MAX_SEND_BACKS, sendBackReason, startContext } from "./child.ts";
import { trailingResult } from "./result.ts";

/** What a handler answers: JSON for stdout, a line for stderr, the exit code. */
export interface Answer {
  stdout?: string;
  stderr?: string;
  code: number;
}

/** An answer that lets Claude Code go on as it would without tether. */
export const PASS: Answer = { code: 0 };

function context(event: string, text: string): Answer {
  return {
    stdout: `${
      JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
    }\n`,
    code: 0,
  };
}

/**
 * Where an isolated child's worktree goes: beside the parent's tree, never inside it (the
 * parent's status would show it, and its seed would record it).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(worktreeDir("/home/dev/project", "agent-a1"), "/home/dev/project.worktrees/agent-a1");
 * ```
 * @param top The parent's top level.
 * @param name The worktree name Claude Code gave.
 * @returns The absolute directory.
 */
export function worktreeDir(top: string, name: string): string {
  return `${dirname(top)}/${basename(top)}.worktrees/${name}`;
}

/**
 * `WorktreeCreate`: spawn the child's worktree from the parent's exact state and print its
 * directory. Any failure makes nothing and leaves nothing: a caller who asked for isolation
 * never gets a stale or shared tree.
 *
 * @param cwd The parent's directory.
 * @param name The worktree name (`agent-<id>`).
 * @returns The answer (exit 1 with one line when the worktree cannot be exact).
 */
export async function worktreeCreate(cwd: string, name: string): Promise<Answer> {
  const agent = agentOfWorktree(name);
  if (!validAgentId(agent)) {
    return { stderr: `the worktree name ${JSON.stringify(name)} is not agent-<id>`, code: 1 };
  }
  const { top } = await parentLocation(cwd);
  const dir = worktreeDir(top, name);
  const spawn = await spawnWorktrees([dir], cwd);
  try {
    const child = spawn.children[0]!;
    const [handshake] = blocksFor(spawn, [child], { cwdStyle: "native", issuedAt: undefined });
    await writeAgent(cwd, {
      agent,
      seed: spawn.seed,
      worktree: child.path,
      cwd: child.cwd,
      branch: child.branch,
      parent: cwd,
      block: buildV2Block(handshake!),
      stops: 0,
    });
    return { stdout: `${child.cwd}\n`, code: 0 };
  } catch (error) {
    await spawn.rollback?.();
    throw error;
  }
}

/**
 * `SubagentStart`: an isolated child tether made gets its block and Step 0 before its
 * first turn; any other child passes (a shared-tree child got its block in its prompt).
 *
 * @param cwd The child's directory.
 * @param agent The agent id.
 * @returns The answer.
 */
export async function subagentStart(cwd: string, agent: string): Promise<Answer> {
  const record = await readAgent(cwd, agent);
  if (record === undefined) return PASS;
  return context("SubagentStart", startContext(record.block));
}

function outcomeOf(record: AgentRecord, report: WorktreeGateReport, given: boolean): Outcome {
  const head = `tether: subagent ${record.agent} (worktree ${record.worktree})`;
  const detail = (renderReport(report) + renderWorktree(report)).trimEnd();
  const land = report.land;
  if (report.verdict === "reject") {
    const why = given ? "its result was rejected" : "it gave no SubagentResult";
    return {
      status: given ? "rejected" : "no-result",
      text:
        `${head}: ${why} after ${MAX_SEND_BACKS} send-backs; nothing landed. Its work is kept in ${record.worktree} on the branch ${record.branch} (seed ${record.seed}).\n${detail}`,
    };
  }
  if (land?.status === "landed") {
    return {
      status: "landed",
      text: `${head}: accepted and landed into your working tree: ${
        land.paths.length === 0 ? "nothing new" : listPaths(land.paths)
      }.\n${detail}`,
    };
  }
  if (land?.status === "nothing") {
    return { status: "nothing", text: `${head}: accepted; it changed no file.\n${detail}` };
  }
  const kept =
    `its work is kept in ${record.worktree} on the branch ${record.branch}; land it by hand with: gate --worktree ${record.worktree} --seed ${record.seed} --land < result.json`;
  return {
    status: land?.status === "conflict" ? "conflict" : "refused",
    text: `${head}: accepted, but nothing landed (${
      land?.status ?? "no land"
    }); ${kept}.\n${detail}`,
  };
}

/** A result that claims nothing: what the child changed is then all unclaimed. */
const EMPTY_RESULT =
  '{"ok": false, "summary": "", "files_changed": [], "errors": [], "evidence": []}';

/**
 * `SubagentStop`: judge an isolated child's result against the seed tether recorded (never
 * one the child names) and, on accept, land its work into the parent's working tree and
 * remove its worktree. A missing or rejected result sends the child back at most
 * {@linkcode MAX_SEND_BACKS} times; then nothing lands and the verdict is kept for the
 * parent, with the worktree.
 *
 * @param cwd The child's directory.
 * @param agent The agent id.
 * @param message The child's last message.
 * @returns The answer (a block that sends the child back, or nothing).
 */
export async function subagentStop(cwd: string, agent: string, message: string): Promise<Answer> {
  const record = await readAgent(cwd, agent);
  if (record === undefined || record.outcome !== undefined) return PASS;
  const stops = record.stops + 1;
  const result = trailingResult(message);
  const report = await underLandLock(record.parent, () =>
    worktreeGate(result ?? EMPTY_RESULT, {
      dir: record.worktree,
      seed: record.seed,
      land: result !== undefined,
      keep: false,
      acceptUnverified: false,
      parent: record.parent,
    }));
  if ((result === undefined || report.verdict === "reject") && stops <= MAX_SEND_BACKS) {
    await writeAgent(record.parent, { ...record, stops });
    const reasons = result === undefined
      ? ["Your last message does not end with the SubagentResult JSON."]
      : report.reasons;
    return {
      stdout: `${JSON.stringify({ decision: "block", reason: sendBackReason(reasons, stops) })}\n`,
      code: 0,
    };
  }
  const outcome = outcomeOf(record, report, result !== undefined);
  await writeAgent(record.parent, { ...record, stops, outcome });
  if (outcome.status === "landed" || outcome.status === "nothing") {
    // The worktree and its branch went with the land; its seed ref and the directory that
    // held the worktree go too, unless another child still uses them.
    await dropSeedRef(`${SEED_REF_PREFIX}${record.seed}`, record.seed);
    await removeEmptyDirs([dirname(record.worktree)]);
  }
  return PASS;
}

/**
 * Tell the parent the verdicts of children it has not been told of yet, and forget them.
 *
 * @param event The event answered (`PostToolUse` or `UserPromptSubmit`).
 * @param cwd The parent's directory.
 * @param agents The children's ids.
 * @returns The answer.
 */
export async function tellParent(event: string, cwd: string, agents: string[]): Promise<Answer> {
  const texts: string[] = [];
  for (const agent of agents) {
    const record = await readAgent(cwd, agent);
    if (record === undefined) continue;
    if (record.outcome === undefined) {
      texts.push(
        `tether: subagent ${agent} ended without a verdict (its SubagentStop hook did not run?); its worktree is kept in ${record.worktree} on the branch ${record.branch}`,
      );
    } else {
      texts.push(record.outcome.text);
    }
    await dropAgent(cwd, agent);
  }
  return texts.length === 0 ? PASS : context(event, texts.join("\n\n"));
}

/**
 * `WorktreeRemove`, for harness versions that send it: a tether worktree the child did not
 * change is removed; one holding work that did not land is kept and named.
 *
 * @param cwd The parent's directory.
 * @param path The worktree to remove.
 * @returns The answer.
 */
export async function worktreeRemove(cwd: string, path: string): Promise<Answer> {
  const record = (await listAgents(cwd)).find((r) => r.cwd === path || r.worktree === path);
  if (record === undefined) return PASS;
  if (record.outcome?.status === "landed" || record.outcome?.status === "nothing") return PASS;
  const { pinHere } = await import("../../repo_pin.ts");
  await pinHere(record.parent);
  const child = await readChildWork(record.worktree, record.seed);
  if (child.landing.length > 0) {
    return {
      stderr:
        `tether: kept ${record.worktree} (branch ${record.branch}): it holds work that did not land: ${
          listPaths(child.landing)
        }`,
      code: 0,
    };
  }
  const left = await removeChild(child);
  await removeEmptyDirs([dirname(record.worktree)]);
  if (record.outcome === undefined) await dropAgent(cwd, record.agent);
  return left.length === 0 ? PASS : { stderr: `tether: not removed: ${left.join("; ")}`, code: 0 };
}
