/**
 * What tether remembers of each isolated child between Claude Code's events: the seed its
 * worktree was made from, where it is, the block tether gave it, how often it was sent
 * back, and the verdict the parent has not been told yet. A hook runs once per event and
 * holds nothing itself, and its only permission is git, so the record is a blob in the
 * parent's repository named by `refs/tether/claude/<agent id>`.
 *
 * The ref is shared with every worktree, so a child could rewrite it; tether's threat model
 * is an honest but fallible child, which has no reason to touch `refs/tether/`. The seed a
 * land is judged against still has to be the seed its worktree was spawned from: gate
 * checks that whatever the record says.
 *
 * @module
 */
import { runGit } from "../../git.ts";

/** Where the records live. */
export const AGENT_REF_PREFIX = "refs/tether/claude/";

/** The ref that serialises lands into one parent (two children may end at once). */
export const LAND_LOCK_REF = "refs/tether/claude-land-lock";

/** The verdict of a child, kept until the parent is told. */
export interface Outcome {
  /** What happened. */
  status: "landed" | "nothing" | "conflict" | "rejected" | "no-result" | "refused" | "failed";
  /** The text the parent model is given. */
  text: string;
}

/** One isolated child. */
export interface AgentRecord {
  /** The agent id (`agent_id` in the payloads). */
  agent: string;
  /** The seed its worktree was made from. */
  seed: string;
  /** The worktree's top level. */
  worktree: string;
  /** The child's directory in it (what the hook printed). */
  cwd: string;
  /** The worktree's branch. */
  branch: string;
  /** The parent's directory (the `WorktreeCreate` payload's `cwd`). */
  parent: string;
  /**
   * The parent's top level, where every parent-side call runs: the parent's own directory
   * may be a subdirectory a land renames or removes.
   */
  top: string;
  /** The v2 block tether gave the child. */
  block: string;
  /** How many times the child ended (`SubagentStop`) so far. */
  stops: number;
  /** The verdict, once there is one. */
  outcome?: Outcome;
}

/**
 * Whether an agent id can name a ref (Claude Code's ids are hex).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(validAgentId("a4e13c78db2759f1e"), true);
 * assertEquals(validAgentId("../x"), false);
 * assertEquals(validAgentId("x.lock"), false);
 * ```
 * @param id The id.
 * @returns True when it is 1 to 100 letters, digits, `_` or `-`.
 */
export function validAgentId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}

function refOf(agent: string): string {
  if (!validAgentId(agent)) throw new Error(`Agent id ${JSON.stringify(agent)} cannot name a ref`);
  return `${AGENT_REF_PREFIX}${agent}`;
}

function parseRecord(text: string): AgentRecord | undefined {
  try {
    const value = JSON.parse(text);
    const fields = ["agent", "seed", "worktree", "cwd", "branch", "parent", "top", "block"];
    if (typeof value !== "object" || value === null) return undefined;
    if (!fields.every((f) => typeof value[f] === "string")) return undefined;
    if (typeof value.stops !== "number") return undefined;
    return value as AgentRecord;
  } catch {
    return undefined;
  }
}

/**
 * Write (or replace) a child's record.
 *
 * @param cwd A directory of the parent's repository (any of its worktrees).
 * @param record The record.
 * @throws {import("../../git_error.ts").GitError} when git fails.
 */
export async function writeAgent(cwd: string, record: AgentRecord): Promise<void> {
  const blob = await runGit(["hash-object", "-w", "--stdin"], {
    cwd,
    stdin: JSON.stringify(record),
  });
  const id = new TextDecoder().decode(blob.stdout).trim();
  await runGit(["update-ref", "-m", "tether: claude agent", refOf(record.agent), id], { cwd });
}

/**
 * Read a child's record.
 *
 * @param cwd A directory of the parent's repository.
 * @param agent The agent id.
 * @returns The record, or undefined when tether made no worktree for this agent.
 */
export async function readAgent(cwd: string, agent: string): Promise<AgentRecord | undefined> {
  if (!validAgentId(agent)) return undefined;
  const r = await runGit(["cat-file", "blob", `${refOf(agent)}`], { cwd, allowFailure: true });
  return r.code === 0 ? parseRecord(new TextDecoder().decode(r.stdout)) : undefined;
}

/**
 * Every child's record in the parent's repository.
 *
 * @param cwd A directory of the parent's repository.
 * @returns The records.
 */
export async function listAgents(cwd: string): Promise<AgentRecord[]> {
  const refs = await runGit(
    ["for-each-ref", "--format=%(refname:lstrip=3)", AGENT_REF_PREFIX],
    { cwd, allowFailure: true },
  );
  if (refs.code !== 0) return [];
  const ids = new TextDecoder().decode(refs.stdout).split("\n").filter(validAgentId);
  const records = await Promise.all(ids.map((id) => readAgent(cwd, id)));
  return records.filter((r): r is AgentRecord => r !== undefined);
}

/**
 * Forget a child (after the parent was told, or its worktree was removed).
 *
 * @param cwd A directory of the parent's repository.
 * @param agent The agent id.
 */
export async function dropAgent(cwd: string, agent: string): Promise<void> {
  await runGit(["update-ref", "-d", refOf(agent)], { cwd, allowFailure: true });
}

/** How long a land waits for another child's land before it gives up. */
const LOCK_WAIT_MS = 120_000;
/** A lock older than this was left by a hook that died: it is taken over. */
const LOCK_STALE_MS = 600_000;

/**
 * Run `work` while holding the parent's land lock: two background children that end at
 * once must not land into the same working tree at the same moment. The lock is a ref
 * created only when absent (`update-ref --stdin` `create`), naming a blob with its time.
 *
 * @param cwd A directory of the parent's repository.
 * @param work What to do under the lock.
 * @returns What `work` returned.
 * @throws {Error} when the lock stays taken for two minutes.
 */
export async function underLandLock<T>(cwd: string, work: () => Promise<T>): Promise<T> {
  const stamp = await runGit(["hash-object", "-w", "--stdin"], {
    cwd,
    stdin: JSON.stringify({ tether: "land lock", at: Date.now() }),
  });
  const id = new TextDecoder().decode(stamp.stdout).trim();
  const started = Date.now();
  for (;;) {
    const taken = await runGit(["update-ref", "--stdin"], {
      cwd,
      stdin: `create ${LAND_LOCK_REF} ${id}\n`,
      allowFailure: true,
    });
    if (taken.code === 0) break;
    const held = await runGit(["cat-file", "blob", LAND_LOCK_REF], { cwd, allowFailure: true });
    const at = held.code === 0 ? lockTime(new TextDecoder().decode(held.stdout)) : undefined;
    if (at !== undefined && Date.now() - at > LOCK_STALE_MS) {
      // Only the stale lock read here is deleted: two waiters that both saw it must not
      // delete the one a third just took.
      const stale = await runGit(["rev-parse", "--verify", "-q", LAND_LOCK_REF], {
        cwd,
        allowFailure: true,
      });
      const old = new TextDecoder().decode(stale.stdout).trim();
      if (old !== "") {
        await runGit(["update-ref", "-d", LAND_LOCK_REF, old], { cwd, allowFailure: true });
      }
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new Error(`another land held ${LAND_LOCK_REF} for two minutes`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await work();
  } finally {
    await runGit(["update-ref", "-d", LAND_LOCK_REF, id], { cwd, allowFailure: true });
  }
}

function lockTime(text: string): number | undefined {
  try {
    const at = JSON.parse(text)?.at;
    return typeof at === "number" ? at : undefined;
  } catch {
    return undefined;
  }
}
