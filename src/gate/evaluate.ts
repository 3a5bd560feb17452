/**
 * The evidence gate (seed 001 with seed 004's observed changes): from the child's
 * `SubagentResult` text and, optionally, the spawn snapshot, reach a verdict. The judging
 * reads as its steps: read the result, read the snapshot, observe what changed, classify
 * it against the claims, check the evidence, and reach the verdict; each step lives in a
 * module of its own.
 *
 * @module
 */
import type { SubagentResult } from "../contract/schemas.ts";
import { classifyObserved } from "./changes.ts";
import { readClaims } from "./claims.ts";
import { type EarlyReads, takeEarly } from "./early.ts";
import { type FileInspector, isCheckable, type SpawnState } from "./evidence.ts";
import { checkFindings, startLooking, whileLooking } from "./findings.ts";
import { observe } from "./observe.ts";
import { type LiveRepo, openRepo } from "./repo.ts";
import { readResult } from "./result.ts";
import { readSnapshot } from "./snapshot.ts";
import { type GateReport, rejections, releaseSnapshot, verdict } from "./verdict.ts";

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

/**
 * Evaluate a child's return: read result → read snapshot → observe → classify → verdict.
 *
 * @param text The child's `SubagentResult` JSON text.
 * @param options `since` snapshot id, `acceptUnverified`.
 * @returns The verdict document.
 * @throws {GateError} when the verdict cannot be reached (no repository where one is
 *   needed, a missing or foreign snapshot, git failing).
 */
export async function evaluate(text: string, options: GateOptions = {}): Promise<GateReport> {
  const { result, reasons } = readResult(text);
  // `gate --since` in the current directory started its reads before it loaded (early.ts).
  const early = options.cwd === undefined ? takeEarly(options.since) : undefined;
  const repo = await openWhenNeeded(result, options, early);
  const claims = readClaims(result, options.since);
  reasons.push(...claims.reasons);
  const looking = startLooking(result, repo, options, claims.evidencePaths);
  const since = options.since;
  const observation = repo && since !== undefined
    ? await whileLooking(looking, async () => {
      const snapshot = await readSnapshot(repo, since, early);
      return await observe(repo, snapshot, claims.claimed, claims.evidencePaths, early);
    })
    : undefined;
  const findings = await checkFindings(result, repo, observation?.spawn ?? options.spawn, looking);
  const changes = observation ? classifyObserved(observation, claims.claimed) : undefined;
  if (result) {
    const unknown = new Set(observation?.unknown ?? []);
    const acceptUnverified = options.acceptUnverified;
    reasons.push(
      ...await rejections(result, findings, changes, repo, acceptUnverified, unknown),
    );
  }
  const report = verdict(reasons, findings, changes, observation?.snapshot);
  if (options.done && repo && since !== undefined) await releaseSnapshot(report, repo, since);
  return report;
}

/** The repository, when the verdict needs one: with `--since`, checkable evidence or a head. */
async function openWhenNeeded(
  result: SubagentResult | undefined,
  options: GateOptions,
  early: EarlyReads | undefined,
): Promise<LiveRepo | undefined> {
  const needsRepo = options.since !== undefined ||
    (result?.evidence.some((e) => isCheckable(e.kind)) ?? false) ||
    result?.working_context?.head !== undefined;
  return needsRepo ? await (early?.repo ?? openRepo(options.cwd)) : undefined;
}
