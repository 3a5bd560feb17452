/**
 * The human text of a verdict: one `key: value` line per fact, so it reads and greps.
 *
 * @module
 */

import type { GateReport } from "./verdict.ts";
import { blockValue, quoteLine, UNSAFE_IN_LINE } from "../show.ts";

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
  const lines = [`verdict: ${oneLine(report.verdict)}`];
  // A reason quotes the child's values, but a schema message may carry a raw key: a reason
  // that could break a line is printed as a JSON string, so every fact stays on one line.
  for (const reason of report.reasons) lines.push(`reason: ${oneLine(reason)}`);
  for (const e of report.evidence) {
    lines.push(`evidence: ${oneLine(e.status)} ${blockValue(e.kind)} ${blockValue(e.ref)}`);
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

/**
 * A value as one line of human output: unchanged unless it holds a character that could
 * start a new line or hide text (C0 and C1 controls, line and paragraph separators), in
 * which case it is written as a JSON string.
 *
 * @example A reason carrying a forged verdict line
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(oneLine("plain reason"), "plain reason");
 * assertEquals(oneLine("x\nverdict: accept"), '"x\\nverdict: accept"');
 * ```
 * @param value The text.
 * @returns Text without line breaks.
 */
export function oneLine(value: string): string {
  return UNSAFE_IN_LINE.test(value) ? quoteLine(value) : value;
}
