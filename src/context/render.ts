/**
 * Rendering the `[working-context]` block of seed 004 from a snapshot. Pure.
 *
 * @module
 */
import type { WorkingContextSnapshot } from "./snapshot.ts";
import { blockValue } from "../show.ts";

/** The block's opening line. */
export const BLOCK_START = "[working-context]";
/** The block's closing line. */
export const BLOCK_END = "[/working-context]";

/**
 * Render the block for the snapshot's audience.
 *
 * A `public` audience gets no path and no git context at all: only the audience line.
 * The snapshot id is carried as `snapshot: <oid>` when one was stored (private only).
 *
 * @example A non-git directory
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const block = renderBlock({
 *   tether_snapshot: 1, captured_at: "", audience: "private",
 *   project_dir: "/w", recent_files: ["a.ts"], git: null,
 * }, null);
 * assertEquals(block, "[working-context]\nproject_dir: /w\nrecent_files:\n  - a.ts\n[/working-context]");
 * ```
 * @param snapshot The snapshot.
 * @param snapshotId The stored blob id, or null.
 * @returns The block text, without a final newline.
 */
export function renderBlock(snapshot: WorkingContextSnapshot, snapshotId: string | null): string {
  if (snapshot.audience === "public") {
    return [BLOCK_START, "audience: public", BLOCK_END].join("\n");
  }
  const lines = [BLOCK_START, `project_dir: ${blockValue(snapshot.project_dir)}`];
  if (snapshot.recent_files.length === 0) lines.push("recent_files: []");
  else {
    lines.push("recent_files:");
    for (const file of snapshot.recent_files) lines.push(`  - ${blockValue(file)}`);
  }
  const git = snapshot.git;
  if (git) {
    lines.push(
      "git:",
      `  worktree: ${blockValue(git.worktree)}`,
      `  branch: ${blockValue(git.branch)}`,
      `  head: ${git.head ?? "(unborn)"}`,
      `  staged: ${git.staged}`,
      `  modified: ${git.modified}`,
      `  untracked: ${git.untracked}`,
      `  linked_worktree: ${git.linked_worktree}`,
    );
    if (git.remotes.length === 0) lines.push("  remotes: []");
    else {
      lines.push("  remotes:");
      for (const r of git.remotes) lines.push(`    - ${blockValue(r.name)} ${blockValue(r.url)}`);
    }
  }
  if (snapshotId) lines.push(`snapshot: ${snapshotId}`);
  lines.push(BLOCK_END);
  return lines.join("\n");
}
