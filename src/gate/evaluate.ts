/**
 * The evidence gate (seed 001 with seed 004's observed changes): from the child's
 * `SubagentResult` text and, optionally, the spawn snapshot, reach a verdict.
 *
 * @module
 */
import { ownWords } from "../git_failure.ts";
import type { SubagentResult } from "../contract/schemas.ts";
import { isFullOid } from "../git.ts";
import { releaseObject } from "../anchor.ts";
import { SNAPSHOT_ANCHOR, SNAPSHOT_HEAD_ANCHOR } from "../context/capture.ts";
import { canonicalClaim, type ChangeReport, classifyChanges } from "./changes.ts";
import {
  type CheckedEvidence,
  checkEvidence,
  type EvidenceFinding,
  evidencePath,
  type FileInspector,
  isCheckable,
  type SpawnState,
  UNKNOWN_WHY,
} from "./evidence.ts";
import { inspectWorktreeFiles, type LiveRepo, openRepo, readCommits } from "./repo.ts";
import { readResult } from "./result.ts";
import { observe } from "./observe.ts";
import { readSnapshot } from "./snapshot.ts";
import { takeEarly } from "./early.ts";

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

/** How to evaluate. */
export interface GateOptions {
  /** The spawn snapshot id (`--since`), syntax-checked by the caller. */
  since?: string;
  /** Accept `ok: true` whose evidence is all of kinds gate cannot check. */
  acceptUnverified?: boolean;
  /** The parent is done with the snapshot: remove its anchor once the verdict is reached. */
  done?: boolean;
  /** Where to evaluate; defaults to the current directory (the library's callers). */
  cwd?: string;
  /** How file evidence is looked at, instead of git in the worktree. */
  inspect?: FileInspector;
  /**
   * What was true at spawn when the caller knows it without a snapshot (`gate --worktree`:
   * the child's seed, changes and commits since); ignored with `since`.
   */
  spawn?: SpawnState;
}

/** A message as the tail of a reason: its first letter in lower case ("Path is …" → "path is …"). */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}

/**
 * Evaluate a child's return.
 *
 * @param text The child's `SubagentResult` JSON text.
 * @param options `since` snapshot id, `acceptUnverified`.
 * @returns The verdict document.
 * @throws {GateError} when the verdict cannot be reached (no repository where one is
 *   needed, a missing or foreign snapshot, git failing).
 */
export async function evaluate(text: string, options: GateOptions = {}): Promise<GateReport> {
  const read = readResult(text);
  const reasons = read.reasons;
  const result = read.result;

  const needsRepo = options.since !== undefined ||
    (result?.evidence.some((e) => isCheckable(e.kind)) ?? false) ||
    result?.working_context?.head !== undefined;
  // `gate --since` in the current directory started its reads before it loaded (early.ts).
  const early = options.cwd === undefined ? takeEarly(options.since) : undefined;
  const repo = needsRepo ? await (early?.repo ?? openRepo(options.cwd)) : undefined;
  // With --since every claim is read: one that is not a path inside the tree (outside it,
  // inside .git, a NUL) is a reason of its own and is never handed to git.
  const claimChecks = (result?.files_changed ?? []).map((c) =>
    [c, options.since === undefined ? canonicalClaim(c) : evidencePath(c)] as const
  );
  const badClaims = claimChecks.filter(([, p]) => p instanceof Error); // tether:guard pb-claim-checked
  reasons.push(
    ...badClaims.map(([, e]) => `Claimed path refused: ${lowerFirst((e as Error).message)}`),
  );
  const claimed = claimChecks.flatMap(([, p]) => typeof p === "string" ? [canonicalClaim(p)] : []);
  const evidencePaths = (result?.evidence ?? []).filter((e) => e.kind === "file").map((e) =>
    evidencePath(e.ref)
  ).filter((p): p is string => typeof p === "string");
  // With --since, the evidence files are looked at while the changes are observed (what
  // they hold now does not depend on it; only the judging does).
  const looked = result && repo && options.since !== undefined && !options.inspect &&
      evidencePaths.length > 0
    ? inspectWorktreeFiles(repo.top, evidencePaths)
    : undefined;
  looked?.catch(() => {}); // awaited by checkEvidence, or below when observing fails
  let observation;
  try {
    observation = repo && options.since !== undefined
      ? await observe(
        repo,
        await readSnapshot(repo, options.since, early),
        claimed,
        evidencePaths,
        early,
      )
      : undefined;
  } catch (error) {
    await looked?.catch(() => {});
    throw error;
  }
  const lookedAt = new Set(evidencePaths);
  const inspect: FileInspector | undefined = looked
    ? (top, paths) =>
      paths.every((p) => lookedAt.has(p)) ? looked : inspectWorktreeFiles(top, paths)
    : options.inspect;

  let findings: EvidenceFinding[] = [];
  if (result && repo) {
    findings = await checkEvidence(
      result.evidence,
      repo,
      observation?.spawn ?? options.spawn,
      inspect,
    );
  } else if (result) {
    findings = result.evidence.map((e) => ({ kind: e.kind, ref: e.ref, status: "unverified" }));
  }

  // A claim is confirmed by what files hold; what only the index or HEAD holds is listed
  // when unclaimed, and leaves a claim of it unobserved (review gate-8).
  const changes = observation ? classifyChanges(observation.held, claimed) : undefined; // tether:guard gate-confirm-held
  if (changes && observation) {
    const claims = new Set(claimed);
    const held = new Set(observation.held);
    changes.observed_unclaimed = [
      ...new Set([
        ...changes.observed_unclaimed,
        ...observation.observed.filter((p) => !held.has(p) && !claims.has(p)),
        // What gate cannot tell about is shown, never attributed or counted as work.
        ...observation.unknown.filter((p) => !claims.has(p)),
      ]),
    ].sort();
  }
  const unknown = new Set(observation?.unknown ?? []);
  if (result) reasons.push(...await judge(result, findings, changes, repo, options, unknown));

  const recent = changes && reasons.length === 0
    ? [...new Set([...changes.confirmed, ...(observation?.snapshot.recent_files ?? [])])]
    : [...(observation?.snapshot.recent_files ?? [])];
  const report: GateReport = {
    verdict: reasons.length === 0 ? "accept" : "reject",
    reasons,
    evidence: findings.map(({ kind, ref, status }) => ({ kind, ref, status })),
    recent_files: recent,
  };
  if (changes) report.changes = changes;
  if (options.done && repo && options.since !== undefined) {
    // The verdict stands whatever happens to the anchor: a failed release is a warning.
    try {
      await releaseObject(repo.top, SNAPSHOT_ANCHOR, options.since, [SNAPSHOT_HEAD_ANCHOR]);
    } catch (error) {
      const detail = ownWords(error);
      report.warnings = [`Cannot release the snapshot's anchor: ${detail.replace(/\s+/g, " ")}`]; // guard: verdict survives release
    }
  }
  return report;
}

/** The reasons a schema-valid result is rejected. */
async function judge(
  result: SubagentResult,
  findings: readonly EvidenceFinding[],
  changes: ChangeReport | undefined,
  repo: LiveRepo | undefined,
  options: GateOptions,
  unknown: ReadonlySet<string>,
): Promise<string[]> {
  const reasons: string[] = [];
  if (!result.ok) {
    const first = result.errors[0] ? `: ${JSON.stringify(result.errors[0])}` : "";
    reasons.push(`Child reported failure (ok is false)${first}`);
  } else {
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
    else if (!options.acceptUnverified && !findings.some(proves)) {
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
  }
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
