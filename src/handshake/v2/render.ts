/**
 * The text `verify` prints for a v2 block: the seed's finding, byte for byte, with `seed`
 * among the diverged fields, followed by the seed and the paths whose content differs.
 *
 * @module
 */

import { divergenceFinding, unverifiedText, verifiedLine } from "../finding.ts";
import type { ExactVerdict, SeedReport } from "./exact.ts";
import { blockValue } from "../../show.ts";

/**
 * A path as a finding line shows it: {@linkcode blockValue} (as it is, or JSON-quoted when
 * it holds a control character or edge white space), so a path cannot forge lines.
 *
 * @example A newline in a path is quoted
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(showPath("a.txt"), "a.txt");
 * assertEquals(showPath("a\nb"), '"a\\nb"');
 * ```
 * @param path The path as git names it.
 * @returns The display form.
 */
export function showPath(path: string): string {
  return blockValue(path);
}

/**
 * The seed section of a finding: the seed id and the differing paths.
 *
 * @param seed The seed comparison.
 * @returns Markdown lines, ending in a newline.
 */
export function seedSection(seed: SeedReport): string {
  const lines = [
    ...seed.worktree_paths.map((p) => `- ${showPath(p)} (working tree)`),
    ...seed.index_paths.map((p) => `- ${showPath(p)} (index)`),
  ];
  if (seed.more > 0) lines.push(`- and ${seed.more} more`);
  if (lines.length === 0) lines.push("- none (the same content; HEAD differs)");
  return `\n**Seed (the parent's exact state):** ${seed.id}\n\n` +
    `**Paths whose content differs from the seed:**\n\n${lines.join("\n")}\n`;
}

/**
 * Render a v2 verdict as the human text of its path.
 *
 * @param verdict What exact verification decided.
 * @returns The text for stdout.
 */
export function renderExactVerdict(verdict: ExactVerdict): string {
  switch (verdict.status) {
    case "match":
      return verifiedLine(verdict.observed!.parent_head, verdict.observed!.parent_branch);
    case "mismatch": {
      const text = divergenceFinding(verdict.expected!, verdict.observed!, [])
        .replace(
          /^\*\*Diverged fields:\*\* .*$/m,
          () => `**Diverged fields:** ${verdict.diverged.join(", ")}`,
        );
      const seedDiverged = verdict.diverged.includes("seed") && verdict.seed !== null;
      return seedDiverged ? `${text}${seedSection(verdict.seed!)}` : text;
    }
    default:
      return unverifiedText(verdict.reason ?? "unknown");
  }
}
