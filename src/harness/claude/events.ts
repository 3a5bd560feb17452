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
import { basename, dirname, join } from "../../_path.ts";
import { buildV2Block } from "../../handshake/v2/block.ts";
import { blocksFor } from "../../worktree/handshake.ts";
import { parentLocation, spawnWorktrees } from "../../worktree/spawn.ts";
import { dropSeedRef, removeEmptyDirs } from "../../worktree/spawn_undo.ts";
import { SEED_REF_PREFIX } from "../../seed/commit.ts";
import { renderWorktree, worktreeGate, type WorktreeGateReport } from "../../worktree/gate.ts";
import { readChildWork } from "../../worktree/child_work.ts";
import { removeChild } from "../../worktree/remove.ts";
import { pinHere } from "../../repo_pin.ts";
import { renderReport } from "../../gate/render.ts";
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
import { listPaths } from "../../show.ts";

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
 * parent's status would show it, and its seed would record it). A name that is no plain
 * file name (a session worktree such as `feature/login`) is spelled with `-` for the rest.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(worktreeDir("/home/dev/project", "agent-a1"), "/home/dev/project.worktrees/agent-a1");
 * assertEquals(worktreeDir("/p", "feature/login"), "/p.worktrees/feature-login");
 * ```
 * @param top The parent's top level.
 * @param name The worktree name Claude Code gave.
 * @returns The absolute directory.
 */
export function worktreeDir(top: string, name: string): string {
  const plain = name.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^\.+/, "-");
  return join(dirname(top), `${basename(top)}.worktrees`, plain);
}

/**
 * `WorktreeCreate`: spawn the worktree from the parent's exact state and print its top level
 * (Claude Code accepts nothing else, so a parent in a subdirectory gets a child at the top,
 * and its block says so). An isolated subagent's worktree (`agent-<id>`) is recorded for the
 * rest of the loop; a session worktree of another name is only made. Any failure makes
 * nothing and leaves nothing: a caller who asked for isolation never gets a stale or shared
 * tree. It holds the land lock, so no land removes the worktrees' directory meanwhile.
 *
 * @param cwd The parent's directory.
 * @param name The worktree name.
 * @returns The answer (exit 1 with one line when the worktree cannot be exact).
 */
export async function worktreeCreate(cwd: string, name: string): Promise<Answer> {
  const agent = agentOfWorktree(name);
  const subagent = name.startsWith("agent-") && validAgentId(agent);
  const { top } = await parentLocation(cwd);
  return await underLandLock(top, async () => {
    const spawn = await spawnWorktrees([worktreeDir(top, name)], cwd);
    try {
      const child = spawn.children[0]!;
      const [handshake] = blocksFor(spawn, [{ ...child, cwd: child.path }], {
        cwdStyle: "native",
        issuedAt: undefined,
      });
      if (subagent) {
        await writeAgent(top, {
          agent,
          seed: spawn.seed,
          worktree: child.path,
          cwd: child.path,
          branch: child.branch,
          parent: cwd,
          top,
          block: buildV2Block(handshake!),
          stops: 0,
        });
      }
      return { stdout: `${child.path}\n`, code: 0 };
    } catch (error) {
      await spawn.rollback?.();
      throw error;
    }
  });
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

function outcomeOf(
  record: AgentRecord,
  report: WorktreeGateReport,
  given: boolean,
  gaveUp: boolean,
  removed: boolean,
): Outcome {
  const head = `tether: subagent ${record.agent} (worktree ${record.worktree})`;
  const detail = (renderReport(report) + renderWorktree(report)).trimEnd();
  const land = report.land;
  if (gaveUp) {
    const where = removed
      ? "it changed nothing, and its worktree was removed"
      : `its work is kept in ${record.worktree} on the branch ${record.branch} (seed ${record.seed})`;
    return {
      status: "rejected",
      text:
        `${head}: it reported that it did not do its task (ok: false); nothing landed; ${where}.\n${detail}`,
    };
  }
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

/** Whether a result says the child did not do its task (`"ok": false`): its own verdict. */
function reportsFailure(result: string): boolean {
  try {
    return JSON.parse(result)?.ok === false;
  } catch {
    return false;
  }
}

/**
 * Remove a child's worktree, branch and refs when it changed nothing since its seed.
 *
 * @returns The paths it changed (its worktree then kept), or none when it was removed.
 */
async function removeIfUnchanged(record: AgentRecord): Promise<string[]> {
  await pinHere(record.top);
  const child = await readChildWork(record.worktree, record.seed);
  if (child.landing.length > 0) return child.landing;
  await removeChild(child);
  await dropSeedRef(`${SEED_REF_PREFIX}${record.seed}`, record.seed);
  await removeEmptyDirs([dirname(record.worktree)]);
  return [];
}

/**
 * `SubagentStop`: judge an isolated child's result against the seed tether recorded (never
 * one the child names) and, on accept, land its work into the parent's working tree and
 * remove its worktree. A missing or rejected result sends the child back at most
 * {@linkcode MAX_SEND_BACKS} times; then nothing lands and the verdict is kept for the
 * parent, with the worktree. A child that reports failure itself (`"ok": false`) is not sent
 * back: nothing lands, and a worktree it did not change is removed.
 *
 * @param record The child's record.
 * @param message The child's last message.
 * @returns The answer (a block that sends the child back, or nothing).
 */
export async function subagentStop(record: AgentRecord, message: string): Promise<Answer> {
  if (record.outcome !== undefined) return PASS;
  const stops = record.stops + 1;
  const result = trailingResult(message);
  const gaveUp = result !== undefined && reportsFailure(result);
  return await underLandLock(record.top, async () => {
    const report = await worktreeGate(result ?? EMPTY_RESULT, {
      dir: record.worktree,
      seed: record.seed,
      land: result !== undefined && !gaveUp,
      keep: false,
      acceptUnverified: false,
      parent: record.top,
    });
    if (
      (result === undefined || report.verdict === "reject") && !gaveUp && stops <= MAX_SEND_BACKS
    ) {
      await writeAgent(record.top, { ...record, stops });
      const reasons = result === undefined
        ? ["Your last message does not end with the SubagentResult JSON."]
        : report.reasons;
      return {
        stdout: `${
          JSON.stringify({ decision: "block", reason: sendBackReason(reasons, stops) })
        }\n`,
        code: 0,
      };
    }
    const removed = gaveUp && (await removeIfUnchanged(record)).length === 0;
    const outcome = outcomeOf(record, report, result !== undefined, gaveUp, removed);
    await writeAgent(record.top, { ...record, stops, outcome });
    if (outcome.status === "landed" || outcome.status === "nothing") {
      // The worktree and its branch went with the land; its seed ref and the directory that
      // held the worktree go too, unless another child still uses them.
      await dropSeedRef(`${SEED_REF_PREFIX}${record.seed}`, record.seed);
      await removeEmptyDirs([dirname(record.worktree)]);
    }
    return PASS;
  });
}

/**
 * Tell the parent the verdicts of children it has not been told of yet, and forget them. A
 * child that ended without a verdict (killed, or its SubagentStop never ran) has its
 * worktree removed when it changed nothing, and named when it holds work.
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
    if (record.outcome !== undefined) {
      texts.push(record.outcome.text);
    } else if ((await underLandLock(record.top, () => removeIfUnchanged(record))).length === 0) {
      texts.push(
        `tether: subagent ${agent} ended without a verdict (it gave no result that reached tether); it changed nothing, and its worktree was removed`,
      );
    } else {
      texts.push(
        `tether: subagent ${agent} ended without a verdict (it gave no result that reached tether); nothing landed; its work is kept in ${record.worktree} on the branch ${record.branch} (seed ${record.seed})`,
      );
    }
    await dropAgent(record.top, agent);
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
  const kept = await underLandLock(record.top, () => removeIfUnchanged(record));
  if (kept.length > 0) {
    return {
      stderr:
        `tether: kept ${record.worktree} (branch ${record.branch}): it holds work that did not land: ${
          listPaths(kept)
        }`,
      code: 0,
    };
  }
  if (record.outcome === undefined) await dropAgent(record.top, record.agent);
  return PASS;
}
