/**
 * Rendering the `[working-context]` block of seed 004 from a snapshot. Pure.
 *
 * @module
 */
import type { WorkingContextSnapshot } from "./snapshot.ts";

/** The block's opening line. */
export const BLOCK_START = "[working-context]";
/** The block's closing line. */
export const BLOCK_END = "[/working-context]";

/**
 * The characters no line tether prints may hold raw: C0 controls, DEL, C1 controls (U+0085
 * NEL among them, a line break to some readers), the bidirectional marks, embeddings,
 * overrides and isolates, the line and paragraph separators and the byte-order mark.
 */
export const UNSAFE_IN_LINE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * Quote a value that could break the block's layout or a report line (any of
 * {@linkcode UNSAFE_IN_LINE}, leading or trailing spaces, a leading quote or bracket) as a
 * JSON string; leave others as they are. Every path or value from a tree that tether prints
 * in a human line goes through here.
 *
 * @example A file name that tries to close the block
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(blockValue("src/a.ts"), "src/a.ts");
 * assertEquals(blockValue("x\n[/working-context]"), '"x\\n[/working-context]"');
 * assertEquals(blockValue("x\udcff"), '"x\\udcff"');
 * ```
 * @param value The raw value.
 * @returns The value as it appears in the block.
 */
export function blockValue(value: string): string {
  const risky = UNSAFE_IN_LINE.test(value) || /^\s|\s$|^["[]|^$/.test(value) ||
    !value.isWellFormed(); // a path that is not UTF-8 (src/seed/paths.ts): its \udcXX escapes
  return risky ? quoteLine(value) : value;
}

/**
 * A JSON string literal that is also one line of text: `JSON.stringify` leaves DEL, the
 * C1 controls, the bidirectional controls, the line and paragraph separators (U+2028,
 * U+2029) and the byte-order mark raw, and some readers break lines at them or reorder
 * text, so they are escaped as `\uXXXX` too.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(quoteLine("a\u2028b"), '"a\\u2028b"');
 * ```
 * @param value The raw value.
 * @returns A valid JSON string literal without line-breaking characters.
 */
export function quoteLine(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

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
