/**
 * The worktree-mode environment-divergence finding: the seed's wording and layout, with
 * the v2 fields (`seed`, `worktree`) as two more lines in each list, and after the seed's
 * closing paragraph one section saying what is wrong in this worktree.
 *
 * @module
 */
import { DIVERGENCE_TEMPLATE } from "../handshake/finding.ts";

/** The values one side of the finding shows. */
export interface FindingSide {
  head: string;
  branch: string;
  cwd: string;
  fingerprint: string;
  seed: string;
  worktree: string;
}

/**
 * Fill the finding. The seed's four lines keep their text; `- seed:` and `- worktree:`
 * follow the dirty fingerprint line in both lists.
 *
 * @example The v2 lines follow the seed's four
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const side = { head: "a", branch: "b", cwd: "/c", fingerprint: "f", seed: "s", worktree: "/w" };
 * const text = worktreeFinding(side, side, ["seed"], ["missing work: a.txt"]);
 * assertEquals(text.split("\n").slice(7, 11), ["- dirty fingerprint: f", "- seed: s", "- worktree: /w", ""]);
 * assertEquals(text.includes("**Diverged fields:** seed\n"), true);
 * ```
 * @param expected The block's side.
 * @param observed The live side.
 * @param diverged Diverged field names, in block order.
 * @param problems What is wrong, one sentence each.
 * @returns The finding text, ending in a newline.
 */
export function worktreeFinding(
  expected: FindingSide,
  observed: FindingSide,
  diverged: readonly string[],
  problems: readonly string[],
): string {
  const values: Record<string, string> = {
    parent_head: expected.head,
    parent_branch: expected.branch,
    parent_cwd: expected.cwd,
    parent_dirty_fingerprint:
      `${expected.fingerprint}\n- seed: ${expected.seed}\n- worktree: ${expected.worktree}`,
    observed_head: observed.head,
    observed_branch: observed.branch,
    observed_cwd: observed.cwd,
    observed_dirty_fingerprint:
      `${observed.fingerprint}\n- seed: ${observed.seed}\n- worktree: ${observed.worktree}`,
    "comma-separated list": diverged.join(", "),
  };
  const text = DIVERGENCE_TEMPLATE.replace(
    /\{([a-z_ -]+)\}/g,
    (whole, key: string) => values[key] ?? whole,
  );
  if (problems.length === 0) return text;
  return `${text}\n**What is wrong in this worktree:**\n\n${
    problems.map((p) => `- ${p}`).join("\n")
  }\n`;
}
