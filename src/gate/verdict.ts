/**
 * The verdict: the reasons a result is rejected, and the report `gate` prints (SPEC §5).
 *
 * @module
 */
import { releaseObject } from "../anchor.ts";
import { SNAPSHOT_ANCHOR, SNAPSHOT_HEAD_ANCHOR } from "../context/capture.ts";
import type { WorkingContextSnapshot } from "../context/snapshot.ts";
import type { SubagentResult } from "../contract/schemas.ts";
import { ownWords } from "../git_failure.ts";
import type { ChangeReport } from "./changes.ts";
import { type CheckedEvidence, type EvidenceFinding, UNKNOWN_WHY } from "./evidence.ts";
import { type LiveRepo, readCommits } from "./repo.ts";
import { isFullOid } from "../git_objects.ts";

/** The verdict document `gate --json` prints (SPEC §5). */
export interface GateReport {
  /** `accept` only when nothing below is wrong. */
  verdict: "accept" | "reject";
  /** Why it was rejected, or notes; one sentence each. */
  reasons: string[];
  /** Each evidence item with its status. */
  evidence: CheckedEvidence[];
  /** Observed-vs-claimed changes, only with `--since`. */
  changes?: ChangeReport;
  /** What the parent should merge into its recent files: confirmed changes, then its own. */
  recent_files: string[];
  /** Problems after the verdict (a failed `--done` release); printed on stderr, not in JSON. */
  warnings?: string[];
}

/**
 * The reasons a schema-valid result is rejected: the child's own report, its evidence, its
 * working-context head, and claims not observed.
 *
 * @param result The child's result.
 * @param findings Its evidence, checked.
 * @param changes The changes classified, with `--since`.
 * @param repo The repository, when the verdict needs one.
 * @param acceptUnverified Whether `ok: true` with evidence gate cannot check is accepted.
 * @param unknown The paths gate cannot tell changed or unchanged.
 * @returns The reasons, one sentence each.
 */
export async function rejections(
  result: SubagentResult,
  findings: readonly EvidenceFinding[],
  changes: ChangeReport | undefined,
  repo: LiveRepo | undefined,
  acceptUnverified: boolean | undefined,
  unknown: ReadonlySet<string>,
): Promise<string[]> {
  const reasons = result.ok ? reportedOkReasons(result, findings, acceptUnverified) : [
    `Child reported failure (ok is false)${
      result.errors[0] ? `: ${JSON.stringify(result.errors[0])}` : ""
    }`,
  ];
  for (const f of findings) if (f.status === "refuted") reasons.push(`Evidence refuted: ${f.why}`);
  const head = result.working_context?.head;
  if (head !== undefined && repo) {
    if (
      !isFullOid(head, repo.format) ||
      (await readCommits(repo.top, [head], repo.format)).get(head)?.kind !== "commit"
    ) {
      reasons.push(`Working context head "${head}" is not a commit in this repository`);
    }
  }
  const listed = (paths: readonly string[]) =>
    paths.slice(0, 10).map((p) => JSON.stringify(p)).join(", ") +
    (paths.length > 10 ? ` and ${paths.length - 10} more` : "");
  const unobserved = changes?.claimed_unobserved.filter((p) => !unknown.has(p)) ?? [];
  const untold = changes?.claimed_unobserved.filter((p) => unknown.has(p)) ?? [];
  if (unobserved.length > 0) {
    reasons.push(`Claimed changes were not observed: ${listed(unobserved)}`);
  }
  if (untold.length > 0) {
    reasons.push(
      `Cannot tell whether claimed files changed since spawn: ${
        listed(untold)
      } (for each, ${UNKNOWN_WHY})`,
    );
  }
  return reasons;
}

/** The reasons a result that says `ok: true` is rejected: errors, and evidence that proves nothing. */
function reportedOkReasons(
  result: SubagentResult,
  findings: readonly EvidenceFinding[],
  acceptUnverified: boolean | undefined,
): string[] {
  const reasons: string[] = [];
  if (result.errors.length > 0) {
    reasons.push(`Child reported ok with ${result.errors.length} errors`);
  }
  // Preexisting evidence proves no work; a read-only report (no files_changed) may still
  // cite files that exist.
  const readOnly = result.files_changed.length === 0;
  const proves = (f: EvidenceFinding) =>
    f.status === "verified" ||
    (readOnly && f.status === "preexisting" && f.kind === "file"); // guard: old evidence proves no work
  if (result.evidence.length === 0) reasons.push("Child reported ok with no evidence");
  else if (!acceptUnverified && !findings.some(proves)) {
    reasons.push(
      findings.some((f) => f.status === "preexisting")
        ? "No evidence item shows work done since spawn (preexisting evidence does not count)"
        : "No evidence item could be verified (kinds commit and file can be checked)",
    );
  }
  result.evidence.forEach((e, i) => {
    if (!e.ok) {
      reasons.push(
        `Evidence [${i}] ${JSON.stringify(e.kind)} ${JSON.stringify(e.ref)} reports failure`,
      );
    }
  });
  return reasons;
}

/**
 * The report: `accept` when there is no reason, and the recent files the parent merges
 * (the confirmed changes first, only on `accept`; then the snapshot's own).
 *
 * @example Rejected: the snapshot's recent files alone
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const report = verdict(["Child reported ok with no evidence"], [], undefined, undefined);
 * assertEquals([report.verdict, report.recent_files], ["reject", []]);
 * ```
 * @param reasons Why the result is rejected.
 * @param findings The evidence, checked.
 * @param changes The changes classified, with `--since`.
 * @param snapshot The spawn snapshot, with `--since`.
 * @returns The report.
 */
export function verdict(
  reasons: string[],
  findings: readonly EvidenceFinding[],
  changes: ChangeReport | undefined,
  snapshot: WorkingContextSnapshot | undefined,
): GateReport {
  const recent = changes && reasons.length === 0
    ? [...new Set([...changes.confirmed, ...(snapshot?.recent_files ?? [])])]
    : [...(snapshot?.recent_files ?? [])];
  const report: GateReport = {
    verdict: reasons.length === 0 ? "accept" : "reject",
    reasons,
    evidence: findings.map(({ kind, ref, status }) => ({ kind, ref, status })),
    recent_files: recent,
  };
  if (changes) report.changes = changes;
  return report;
}

/**
 * Remove the snapshot's anchor (`--done`). The verdict stands whatever happens to the
 * anchor: a failed release is a warning on the report.
 *
 * @param report The verdict reached; a warning is added to it when the release fails.
 * @param repo The repository.
 * @param since The snapshot id.
 */
export async function releaseSnapshot(
  report: GateReport,
  repo: LiveRepo,
  since: string,
): Promise<void> {
  try {
    await releaseObject(repo.top, SNAPSHOT_ANCHOR, since, [SNAPSHOT_HEAD_ANCHOR]);
  } catch (error) {
    const detail = ownWords(error);
    report.warnings = [`Cannot release the snapshot's anchor: ${detail.replace(/\s+/g, " ")}`]; // guard: verdict survives release
  }
}
