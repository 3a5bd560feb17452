/**
 * The human text of a verdict: one `key: value` line per fact, so it reads and greps.
 *
 * @module
 */
import { blockValue } from "../context/render.ts";
import type { GateReport } from "./evaluate.ts";

/**
 * Render a verdict as text.
 *
 * @example An accepted result
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const text = renderReport({
 *   verdict: "accept", reasons: [], recent_files: ["a.ts"],
 *   evidence: [{ kind: "file", ref: "a.ts", status: "verified" }],
 *   changes: { confirmed: ["a.ts"], claimed_unobserved: [], observed_unclaimed: [] },
 * });
 * assertEquals(text, "verdict: accept\nevidence: verified file a.ts\nconfirmed: a.ts\nrecent_file: a.ts\n");
 * ```
 * @param report The verdict document.
 * @returns Text ending in a newline.
 */
export function renderReport(report: GateReport): string {
  const lines = [`verdict: ${report.verdict}`];
  for (const reason of report.reasons) lines.push(`reason: ${reason}`);
  for (const e of report.evidence) {
    lines.push(`evidence: ${e.status} ${blockValue(e.kind)} ${blockValue(e.ref)}`);
  }
  if (report.changes) {
    for (const p of report.changes.confirmed) lines.push(`confirmed: ${blockValue(p)}`);
    for (const p of report.changes.claimed_unobserved) {
      lines.push(`claimed_unobserved: ${blockValue(p)}`);
    }
    for (const p of report.changes.observed_unclaimed) {
      lines.push(`observed_unclaimed: ${blockValue(p)}`);
    }
  }
  for (const p of report.recent_files) lines.push(`recent_file: ${blockValue(p)}`);
  return lines.join("\n") + "\n";
}
