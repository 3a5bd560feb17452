/**
 * What tether tells an isolated child when it starts, and when it is sent back: its
 * handshake block, the one plain command that is its Step 0, and how to end its answer.
 * Pure.
 *
 * @module
 */
import { parseHandshake } from "../../handshake/v2/block.ts";

/** How often a child whose result is missing or rejected is sent back before tether gives up. */
export const MAX_SEND_BACKS = 2;

/**
 * A value as one shell word: left bare when it is plain, else in single quotes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(shellWord("/w/agent-1"), "/w/agent-1");
 * assertEquals(shellWord("/my dir/it's"), "'/my dir/it'\\''s'");
 * ```
 * @param value The value.
 * @returns The word.
 */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_./:@+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The `verify` command that checks a v2 block, as flags: one plain command, which an
 * isolated child's shell runs where it refuses heredocs and variables.
 *
 * @param block The v2 block.
 * @returns The command line, or undefined when the text holds no v2 block.
 */
export function verifyCommand(block: string): string | undefined {
  const parsed = parseHandshake(block);
  if (parsed.kind !== "v2") return undefined;
  const h = parsed.handshake;
  const extra = h.extra ?? {};
  const flags: [string, string | undefined][] = [
    ["--head", h.parent_head],
    ["--branch", h.parent_branch],
    ["--cwd", h.parent_cwd],
    ["--fingerprint", h.parent_dirty_fingerprint],
    ["--workspace-mode", h.workspace_mode],
    ["--issued-at", h.handshake_issued_at],
    ["--seed", h.seed],
    ["--worktree-path", extra.worktree_path],
    ["--worktree-branch", extra.worktree_branch],
    ["--worktree-cwd", extra.worktree_cwd],
  ];
  return [
    "verify",
    ...flags.filter(([, v]) => v !== undefined).map(([f, v]) => `${f} ${shellWord(v!)}`),
  ]
    .join(" ");
}

/** How a child ends its answer: the SubagentResult contract, in a few lines. */
export const RETURN_CONTRACT =
  `End your final answer with the SubagentResult JSON, as the last thing in the message:
{"ok": true, "summary": "...", "files_changed": ["path", ...], "errors": [],
 "evidence": [{"kind": "file", "ref": "path", "ok": true}, ...]}
List in files_changed every path you changed (committed or not), relative to your worktree's top
level (where you start), and give file evidence for each file that exists; for a file you deleted,
give commit evidence for the commit that deleted it ({"kind": "commit", "ref": "<full sha>"}).
If you could not do the task, say so with "ok": false: nothing lands, and you are not sent back.`;

/**
 * The context an isolated child gets before its first turn.
 *
 * @param block The v2 block of its worktree.
 * @returns The text.
 */
export function startContext(block: string): string {
  const command = verifyCommand(block);
  return [
    "tether made your git worktree from your parent's exact state (its HEAD, staged, unstaged and untracked work). This is your handshake block; it replaces any other handshake block in your prompt:",
    "",
    block.trimEnd(),
    "",
    "Step 0, before anything else: run this one command with Bash and halt (report the finding, change nothing) if it exits 1:",
    "",
    command ?? "verify",
    "",
    RETURN_CONTRACT,
    "When you end, tether checks your result against your worktree and lands your work in your parent's tree.",
  ].join("\n");
}

/**
 * What a child is told when it is sent back.
 *
 * @param reasons Why its result was not accepted.
 * @param round Which send-back this is (1-based).
 * @returns The text.
 */
export function sendBackReason(reasons: readonly string[], round: number): string {
  return [
    `tether did not accept your result (send-back ${round} of ${MAX_SEND_BACKS}); nothing was landed:`,
    ...reasons.map((r) => `- ${r}`),
    RETURN_CONTRACT,
  ].join("\n");
}
