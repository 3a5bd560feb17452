/**
 * `coord status`: read-only management by exception. Per work item, what the caller may
 * see: counts, unacknowledged messages, blockers, and handoffs whose commit is gone or
 * reachable from no ref; it ends with an `OWNER ACTION:` line.
 *
 * @module
 */
import { runGit } from "../../git.ts";
import { objectTypes } from "../history.ts";
import { laneState } from "../policy.ts";
import { channelAllowed } from "../visibility.ts";
import type { Message } from "../message.ts";
import type { Session } from "../session.ts";
import { isRecipient, stateFor } from "./inbox.ts";
import { cutLine, escapeLine, foldLine } from "../terminal.ts";

/** The widest a subject quoted in an owner action is shown (display columns). */
const ACTION_SUBJECT_COLUMNS = 40;

/** One work item's summary. */
export interface WorkItemStatus {
  /** The work item. */
  id: string;
  /** Messages the caller may see. */
  messages: number;
  /** Visible messages addressed to the caller and not acknowledged by it. */
  unacknowledged: number;
  /** Visible handoffs. */
  handoffs: number;
  /** Visible BLOCKER messages nobody addressed has acknowledged. */
  open_blockers: string[];
}

/** What `coord status` reports. */
export interface StatusReport {
  /** The caller's lane. */
  lane: string;
  /** Where the policy came from. */
  policy_ref: string;
  /** Every lane of the policy and its state (primary, open, sealed, released (N)). */
  lanes: { name: string; state: string; worktree: boolean }[];
  /** Work items. */
  work_items: WorkItemStatus[];
  /** Exceptions worth a look. */
  warnings: string[];
  /** What the owner must do, or `none`. */
  owner_action: string;
}

/**
 * Summarise the store for the caller.
 *
 * @param session The caller's session.
 * @param workItem One work item, or all when undefined.
 * @returns The report.
 *
 * Kept whole: one pass over the visible messages builds every line of the report; the
 * counters it keeps are shared by all of them.
 */
export async function status(
  session: Session,
  workItem: string | undefined,
): Promise<StatusReport> {
  const { repo, store } = session;
  const lane = session.lane;
  const items = workItem === undefined ? store.workItems() : [workItem];
  const warnings: string[] = [];
  const actions: string[] = [];
  const summaries: WorkItemStatus[] = [];
  const handoffs: Message[] = [];
  // Read every work item first, then decide visibility once for all of them (one
  // reflog read and one history load per command, however many work items there are).
  const byId = new Map<string, Message>();
  const perItem = new Map<string, Message[]>();
  for (const item of items) {
    const mine: Message[] = [];
    for (const slot of store.readAll(item)) {
      if (!slot.ok) {
        warnings.push(`${slot.id} is corrupt: ${slot.reason}`);
        actions.push(`repair corrupt record ${slot.id}`);
        continue;
      }
      const m = slot.message;
      byId.set(slot.id, m);
      if (m.sender === lane || m.to.includes(lane) || m.cc.includes(lane)) mine.push(m);
    }
    perItem.set(item, mine);
  }
  const visible = await session.visibility(
    lane,
    [...perItem.values()].flat(),
    (id) => byId.get(id),
  );
  for (const item of items) {
    const shown = (perItem.get(item) ?? []).filter((m) => visible(m.id));
    const { acks, corrupt } = store.readAcks(item, {
      counts: (id, by) => visible(id) && isRecipient(byId.get(id), by),
    });
    for (const name of corrupt) warnings.push(`acknowledgement ${name} is corrupt`);
    let unacknowledged = 0;
    const blockers: string[] = [];
    for (const m of shown) {
      const addressed = m.to.includes(lane) || m.cc.includes(lane);
      if (addressed && stateFor(m, lane, acks) === "SENT") unacknowledged++;
      // Only acknowledgements of lanes the caller may talk with count: another blind
      // lane's ack must not change what this lane sees.
      const heard = (r: string) => r === lane || channelAllowed(repo.policy, lane, r);
      if (
        m.type === "BLOCKER" &&
        ![...m.to, ...m.cc].some((r) => heard(r) && acks.get(m.id)?.has(r))
      ) {
        blockers.push(m.id);
        // The subject is quoted, its own quotes and backslashes escaped, so nothing in it
        // can pass for coord's words after it (`x"); repair corrupt record …`).
        const escaped = m.subject.replace(/[\\"]/g, "\\$&"); // GUARD:quote-action-subject
        const subject = cutLine(escaped, ACTION_SUBJECT_COLUMNS); // GUARD:cut-action-subject
        actions.push(`resolve blocker ${m.id} (${m.sender}: "${subject}")`);
      }
      if (m.artifact) handoffs.push(m);
    }
    // Listing every work item: one where the caller sees nothing looks like one that
    // does not exist (its name would leak another lane's words).
    if (workItem === undefined && shown.length === 0) continue;
    summaries.push({
      id: item,
      messages: shown.length,
      unacknowledged,
      handoffs: shown.filter((m) => m.artifact).length,
      open_blockers: blockers,
    });
  }
  await checkHandoffCommits(session, handoffs, warnings, actions);
  const worktreeLanes = new Set(repo.worktrees.map((w) => w.lane));
  return {
    lane,
    policy_ref: repo.policyRef,
    lanes: [...repo.policy.lanes.keys()].map((name) => ({
      name,
      state: laneState(repo.policy, name),
      worktree: worktreeLanes.has(name),
    })),
    work_items: summaries,
    warnings,
    owner_action: actions.length === 0 ? "none" : actions.join("; "),
  };
}

/** Warn about handoffs whose commit is gone or reachable from no ref (one or two git calls). */
async function checkHandoffCommits(
  session: Session,
  handoffs: Message[],
  warnings: string[],
  actions: string[],
) {
  const commits = [...new Set(handoffs.map((m) => m.artifact!.commit))];
  if (commits.length === 0) return;
  const at = session.repo.at;
  const types = await objectTypes(at, commits);
  const existing = commits.filter((c) => types.get(c) === "commit");
  const unreachable = new Set<string>();
  if (existing.length > 0) {
    const result = await runGit(["rev-list", "--stdin", "--not", "--all"], {
      ...at,
      parse: true,
      stdin: existing.join("\n") + "\n",
    });
    for (const line of new TextDecoder().decode(result.stdout).split("\n")) {
      if (line) unreachable.add(line);
    }
  }
  for (const m of handoffs) {
    const commit = m.artifact!.commit;
    if (types.get(commit) !== "commit") {
      warnings.push(`${m.id} handoff commit ${commit} is gone from the repository`);
      actions.push(`re-issue handoff ${m.id}`);
    } else if (unreachable.has(commit)) {
      warnings.push(
        `${m.id} handoff commit ${commit} is reachable from no ref (garbage collection may remove it)`,
      );
      actions.push(`keep ${commit} reachable (a branch or tag) for ${m.id}`);
    }
  }
}

/**
 * Render a status report for a person (a subject quoted in an owner action shown with its
 * control characters escaped; a line wider than 78 columns continues on lines indented by
 * two spaces).
 *
 * @example Nothing to do
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const text = renderStatus({ lane: "Primary", policy_ref: "refs/heads/main", lanes: [], work_items: [], warnings: [], owner_action: "none" });
 * assertEquals(text.trimEnd().split("\n").at(-1), "OWNER ACTION: none");
 * ```
 * @param report The report.
 * @returns The text for stdout.
 */
export function renderStatus(report: StatusReport): string {
  const lines = [`coord status for ${report.lane}; policy: STATUS at ${report.policy_ref}`];
  lines.push(
    `lanes: ${
      report.lanes.map((l) => `${l.name} ${l.state}${l.worktree ? "" : " (no worktree)"}`).join(
        ", ",
      )
    }`,
  );
  if (report.work_items.length === 0) lines.push("no work items");
  for (const w of report.work_items) {
    lines.push(
      `${w.id}: ${w.messages} visible, ${w.unacknowledged} unacknowledged, ${w.handoffs} handoffs, ${w.open_blockers.length} open blockers`,
    );
  }
  for (const warning of report.warnings) lines.push(`warning: ${escapeLine(warning)}`);
  lines.push(`OWNER ACTION: ${escapeLine(report.owner_action)}`);
  // A line wider than a terminal continues on indented lines: only coord's own words
  // start a line.
  return lines.map(foldLine).join("\n") + "\n"; // GUARD:fold-status
}
