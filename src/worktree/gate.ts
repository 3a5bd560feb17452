/**
 * `gate --worktree DIR [--land] [--keep]`, run in the parent: judge the child's
 * SubagentResult against what the child changed in DIR since its seed (commits and
 * uncommitted changes alike), and on accept with `--land` apply exactly those changes to
 * the parent's working tree.
 *
 * In an isolated worktree every change is the child's, so a change the child did not
 * claim is a reason to reject: nothing lands that the child did not disclose.
 *
 * @module
 */

import { classifyChanges } from "../gate/changes.ts";
import { evaluate } from "../gate/evaluate.ts";
import type { GateReport } from "../gate/verdict.ts";
import { oneLine } from "../gate/render.ts";
import type { SpawnState } from "../gate/evidence.ts";
import { GateError } from "../gate/repo.ts";
import { gitText } from "../git.ts";
import { ownWords } from "../git_failure.ts";
import { inspectCaptured, readChildWork } from "./child_work.ts";
import { land, type LandOutcome } from "./land.ts";
import { nestedChanged } from "./land_checks.ts";
import { recordRef } from "./record.ts";
import { pinHere } from "../repo_pin.ts";
import { listPaths, quoteLine } from "../show.ts";
import { GitError } from "../git_error.ts";

/** Options for {@linkcode worktreeGate}. */
export interface WorktreeGateOptions {
  /** The child's worktree. */
  dir: string;
  /** The seed the parent spawned it from (full id: the block's `seed:` line). */
  seed: string;
  /** Apply the child's changes on accept. */
  land: boolean;
  /** Keep the worktree and branch after landing. */
  keep: boolean;
  /**
   * The land record a kept land of this child printed (`--landed`): the next land merges
   * against it. Without it the land merges against the seed; no record is ever found in refs.
   */
  landed?: string;
  /** Accept evidence gate cannot check. */
  acceptUnverified: boolean;
  /** The parent's directory (default: the current directory), for a harness hook. */
  parent?: string;
}

/** The report with what `--worktree` adds. */
export interface WorktreeGateReport extends GateReport {
  /** The child's worktree, branch, seed and commits since the seed. */
  worktree: {
    path: string;
    branch: string;
    seed: string;
    commits: string[];
    /** Changed paths that are nested repositories (gitlinks): they cannot land. Only when some. */
    nested?: string[];
    /** `"missing"` when the child's spawn ref no longer exists (it was found without it). */
    spawn_ref?: "missing";
    /**
     * With `--landed`: the paths the child changed since the seed and not since the record
     * (already landed; not judged as claims of this round). Only when some.
     */
    already_landed?: string[];
  };
  /** The land, when `--land` was given and the verdict is accept. */
  land?: LandOutcome;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

/**
 * The paths the child claims, as strings. They are compared with the observed paths as
 * exact strings: git's path bytes are decoded without loss (src/paths.ts), so a
 * claim confirms at most the one path it names, never two names that decode alike.
 */
function claims(text: string): string[] {
  try {
    const value = JSON.parse(text.replace(/^\uFEFF/, ""));
    return Array.isArray(value?.files_changed)
      ? value.files_changed.filter((p: unknown): p is string => typeof p === "string")
      : [];
  } catch {
    return [];
  }
}

/**
 * Judge (and land) a child's work.
 *
 * @param text The child's SubagentResult text.
 * @param options The worktree and what to do.
 * @returns The report; `land` is set when a land was tried.
 * @throws {GateError} when the worktree cannot be read or git fails.
 *
 * Kept whole: the judgement of one round (evidence, claims against the round's paths, the
 * land record) must be built from one reading of the child before the land runs.
 */
export async function worktreeGate(
  text: string,
  options: WorktreeGateOptions,
): Promise<WorktreeGateReport> {
  try {
    // Resolved once and pinned: every later git call of the run names this repository
    // (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR), whatever the shared .git comes to say.
    const parentTop = (await pinHere(options.parent)).top; // tether:guard wt-pin-parent
    // With --landed, the record is read back there, and the round is what the child
    // changed since it (child.round); without, since the seed.
    const child = await readChildWork(options.dir, options.seed, options.landed);
    const record = child.record;
    // Evidence counts only for what the child did in this round: its own commits (on its
    // first-parent line, on no other ref, within the round's paths) and the paths it
    // changed. The rest (the parent's HEAD, a file the child never touched, the parent's
    // carried edits, a path already landed) is preexisting, as it is for `gate --since`.
    const spawn: SpawnState = {
      head: child.seedState.head,
      time: 0,
      changed: new Set(child.round),
      // A captured path the child did not change held the same at the seed.
      existed: new Set(child.files.keys()),
      // Only the child's own commits whose change stays within its changed paths count.
      commits: child.counted,
    };
    const base = await evaluate(text, {
      acceptUnverified: options.acceptUnverified,
      cwd: child.top,
      // File evidence is read from the child's raw capture: nothing it configured runs.
      inspect: (_top, paths) => Promise.resolve(inspectCaptured(child.files, paths)), // tether:guard wt-raw-evidence
      spawn, // tether:guard wt-new-evidence
    });
    // A claim of a path already landed (not changed since the record) is no claim of this
    // round, and no reason to reject either: it is named as already landed.
    const landedBefore = new Set(child.already);
    const claimed = claims(text);
    const changes = classifyChanges(
      child.round,
      claimed.filter((p) => !landedBefore.has(p)), // tether:guard wt-claims-since-record
    );
    const reasons = [...base.reasons];
    if (record !== undefined && child.round.length === 0 && claimed.length > 0) { // tether:guard wt-idle-round
      reasons.push(
        `No change since the land record --landed ${
          record.id.slice(0, 12)
        }: the child's tree is the record's at every path, and what it claims is not new${
          child.already.length > 0 ? ` (already landed: ${listPaths(child.already)})` : ""
        }`,
      );
    }
    if (changes.claimed_unobserved.length > 0) {
      reasons.push(`Claimed changes were not observed: ${listPaths(changes.claimed_unobserved)}`);
    }
    if (changes.observed_unclaimed.length > 0) { // tether:guard wt-unclaimed
      reasons.push(
        `Changes in the child's worktree that it did not claim: ${
          listPaths(changes.observed_unclaimed)
        }`,
      );
    }
    const verdict = reasons.length === 0 ? "accept" : "reject";
    const report: WorktreeGateReport = {
      verdict,
      reasons,
      evidence: base.evidence,
      changes,
      recent_files: verdict === "accept" ? changes.confirmed : [],
      worktree: {
        path: child.top,
        branch: child.branch,
        seed: child.seed,
        commits: child.commits,
      },
    };
    const nested = nestedChanged(child.landing, child.files);
    if (record !== undefined && child.already.length > 0) {
      report.worktree.already_landed = child.already;
    }
    if (nested.length > 0) report.worktree.nested = nested;
    const warnings: string[] = [];
    if (child.spawnRefMissing) {
      report.worktree.spawn_ref = "missing";
      warnings.push(
        `the spawn ref ${child.spawnRef} is missing (deleted since the spawn?): the child was found by --seed, the parent's worktree list and its branch`,
      );
    }
    if (options.land && verdict === "accept") {
      if (record === undefined) {
        // Refs are shared: a record ref says nothing the parent vouched for. It is named
        // only so that a parent who forgot --landed knows the land merged against the seed.
        const ref = recordRef(child.branch);
        if (await gitText(["for-each-ref", "--format=%(refname)", ref]) !== "") {
          warnings.push(
            `no --landed ID was given, so the land merged against the seed as a first land does (the ref ${ref} exists, but a land record is taken only from --landed, never from refs)`,
          );
        }
      }
      report.land = await land(child, parentTop, options.keep);
      if (report.land.status === "conflict" || report.land.status === "refused") {
        report.recent_files = [];
      }
    }
    if (warnings.length > 0) report.warnings = warnings;
    return report;
  } catch (error) {
    if (error instanceof GitError) throw new GateError(`Cannot evaluate: ${ownWords(error)}`);
    throw error;
  }
}

/**
 * The lines `--worktree` adds to the human report.
 *
 * @param report The report.
 * @returns Text ending in a newline, or empty.
 *
 * Kept whole: one line per outcome of the land, in the order a reader needs them; each branch
 * is a sentence, not logic.
 */
export function renderWorktree(report: WorktreeGateReport): string {
  const out = [
    `worktree: ${
      quoteLine(report.worktree.path)
    } on ${report.worktree.branch} (seed ${report.worktree.seed}, ${
      count(report.worktree.commits.length, "commit")
    } since)`,
  ];
  const l = report.land;
  if (l === undefined && report.worktree.nested !== undefined) {
    out.push(
      `cannot land: nested repositories (gitlinks) the child changed: ${
        listPaths(report.worktree.nested)
      }`,
    );
  }
  if (l?.status === "landed" && l.paths.length === 0 && (l.since_record?.length ?? 0) > 0) {
    out.push(
      `landed: nothing new (the parent already has the child's changes since its land record: ${
        listPaths(l.since_record!)
      })`,
    );
  } else if (l?.status === "landed" && l.paths.length === 0 && l.landed_record !== undefined) {
    out.push("landed: nothing new (the child changed nothing since its land record)");
  } else if (l?.status === "landed" && l.paths.length === 0) {
    out.push("landed: nothing new (the parent already has every change)");
  } else if (l?.status === "landed") {
    out.push(`landed: ${count(l.paths.length, "path")}: ${listPaths(l.paths)}`);
  } else if (l?.status === "nothing") {
    out.push("landed: nothing (the child changed no file)");
  } else if (l?.status === "refused") {
    out.push(
      l.reason === "outside"
        ? `refused: nothing landed; the merge would change paths the child did not change (a rename in the parent?): ${
          listPaths(l.paths)
        }`
        : l.reason === "nested"
        ? `refused: nothing landed; nested repositories (gitlinks: submodules or embedded repositories, in the parent, the seed or the child) cannot land: git would write an empty directory, or delete the parent's or leave it behind; land the submodule change by hand: ${
          listPaths(l.paths)
        }`
        : `refused: nothing landed; the parent has ignored files or directories in the way: ${
          listPaths(l.paths)
        }`,
    );
  } else if (l?.status === "conflict") {
    const types = new Set(l.types ?? []);
    const other = new Set(l.other ?? []);
    const lines = l.paths.filter((p) => !types.has(p) && !other.has(p));
    if (lines.length > 0) {
      out.push(
        `conflict: nothing landed; the parent's working tree and the child changed the same lines at: ${
          listPaths(lines)
        }`,
      );
    }
    if (types.size > 0) {
      out.push(
        `conflict: nothing landed; a conflict of file types (a file, directory or link on one side, another type on the other) at: ${
          listPaths([...types])
        }`,
      );
    }
    if (other.size > 0) {
      out.push(
        `conflict: nothing landed; one side deleted or renamed what the other changed at: ${
          listPaths([...other])
        }`,
      );
    }
  }
  const already = report.worktree.already_landed;
  if (l?.status !== "landed" && already !== undefined) {
    out.push(`already landed (not changed since the land record): ${listPaths(already)}`);
  }
  if (l?.status === "landed" && l.already !== undefined) {
    const changed = new Set(l.parent_changed ?? []);
    const held = l.already.filter((p) => !changed.has(p));
    const since = `the child has not changed them since the land record --landed ${
      l.landed_record?.slice(0, 12)
    }`;
    if (held.length > 0) {
      out.push(`already landed (the parent holds them; ${since}): ${listPaths(held)}`);
    }
    if (changed.size > 0) {
      out.push(
        `already landed, changed by the parent since (its version kept; ${since}): ${
          listPaths([...changed])
        }`,
      );
    }
  }
  if (l?.status === "landed" || (l?.status === "nothing" && l.not_removed !== undefined)) {
    out.push(
      l.not_removed !== undefined
        ? `not removed: ${oneLine(l.not_removed.join("; "))}`
        : l.removed
        ? "removed: worktree and branch"
        : "kept: worktree and branch",
    );
  }
  if (l?.status === "landed" && l.record !== undefined) {
    out.push(`land record: ${l.record} (give this child's next land --landed ${l.record})`);
  }
  return `${out.join("\n")}\n`;
}
