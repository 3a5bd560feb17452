/**
 * The evidence step of a verdict: file evidence looked at early (with `--since`, while the
 * changes are observed: what the files hold now does not depend on that, only the judging
 * does), and every evidence item checked once what was true at spawn is known.
 *
 * @module
 */
import type { SubagentResult } from "../contract/schemas.ts";
import {
  checkEvidence,
  type EvidenceFinding,
  type FileInspector,
  type SpawnState,
} from "./evidence.ts";
import { inspectWorktreeFiles, type LiveRepo } from "./repo.ts";

/** File evidence being looked at, and how the evidence check looks at files. */
export interface Looking {
  /** The early look at the evidence files, when one was started. */
  looked?: ReturnType<FileInspector>;
  /** How file evidence is looked at: the early look where it covers the paths asked for. */
  inspect?: FileInspector;
}

/**
 * Start looking at the evidence files, with `--since`, when gate looks at them itself.
 *
 * @param result The child's result, when it keeps the contract.
 * @param repo The repository, when the verdict needs one.
 * @param options `since`, and the caller's `inspect` when it looks at files its own way.
 * @param evidencePaths The paths file evidence cites.
 * @returns What is being looked at.
 */
export function startLooking(
  result: SubagentResult | undefined,
  repo: LiveRepo | undefined,
  options: { since?: string; inspect?: FileInspector },
  evidencePaths: readonly string[],
): Looking {
  const looked = result && repo && options.since !== undefined && !options.inspect &&
      evidencePaths.length > 0
    ? inspectWorktreeFiles(repo.top, evidencePaths)
    : undefined;
  looked?.catch(() => {}); // awaited by checkEvidence, or by whileLooking when observing fails
  if (!looked) return options.inspect ? { inspect: options.inspect } : {};
  const lookedAt = new Set(evidencePaths);
  const inspect: FileInspector = (top, paths) =>
    paths.every((p) => lookedAt.has(p)) ? looked : inspectWorktreeFiles(top, paths);
  return { looked, inspect };
}

/**
 * `work`'s result; when it fails, the failure once the early look has ended too (no git
 * left running).
 *
 * @param looking What is being looked at.
 * @param work What runs beside the look.
 * @returns What `work` returns.
 */
export async function whileLooking<T>(looking: Looking, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await looking.looked?.catch(() => {});
    throw error;
  }
}

/**
 * Check every evidence item of a result; without a repository, each is unverified.
 *
 * @param result The child's result, when it keeps the contract (none: no findings).
 * @param repo The repository, when the verdict needs one.
 * @param spawn What was true at spawn, when known.
 * @param looking How files are looked at.
 * @returns One finding an evidence item.
 */
export async function checkFindings(
  result: SubagentResult | undefined,
  repo: LiveRepo | undefined,
  spawn: SpawnState | undefined,
  looking: Looking,
): Promise<EvidenceFinding[]> {
  if (!result) return [];
  if (!repo) {
    return result.evidence.map((e) => ({ kind: e.kind, ref: e.ref, status: "unverified" }));
  }
  return await checkEvidence(result.evidence, repo, spawn, looking.inspect);
}
