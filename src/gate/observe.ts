/**
 * Observe what changed since the spawn snapshot: read the live repository, what every path
 * of interest holds now, the content the index or HEAD holds that no file shows, and the
 * files a checkout may have converted; then say which paths changed (what files hold),
 * which changed only in the index or HEAD, and which gate cannot tell about.
 *
 * @module
 */
import type { PathContent } from "../context/content.ts";
import { pathSetDigest, skipWorktreePaths } from "../context/sparse.ts";
import type { GitSnapshot, WorkingContextSnapshot } from "../context/snapshot.ts";
import { ownWords } from "../git_failure.ts";
import { observedChanges, plainPath } from "./changes.ts";
import { tellConverted } from "./converted_files.ts";
import type { EarlyReads } from "./early.ts";
import type { SpawnState } from "./evidence.ts";
import { type LiveState, readLive, readNow } from "./live_state.ts";
import { GateError, type LiveRepo } from "./repo.ts";
import type { SpawnSnapshot } from "./snapshot.ts";
import type { IndexEntry } from "./staged.ts";
import {
  forgetExplained,
  spawnJudges,
  unexplainedCommits,
  unexplainedIndex,
} from "./unexplained.ts";
import type { Held } from "./versions.ts";

/** What changed since the snapshot. */
export interface Observation {
  /** The spawn snapshot. */
  snapshot: WorkingContextSnapshot;
  /** Every path that changed: in what files hold, in the index or in HEAD. Sorted. */
  observed: string[];
  /** The paths whose files changed: what a claim is confirmed by. */
  held: string[];
  /** The paths gate cannot tell changed or unchanged. Sorted. */
  unknown: string[];
  /** What was true at spawn, for the evidence. */
  spawn: SpawnState;
}

/** What observe found before it sums up. */
interface Found {
  now: Map<string, PathContent>;
  staging: Map<string, Held>;
  committed: Map<string, Held>;
  unknown: Set<string>;
}

/**
 * Observe what changed since the snapshot.
 *
 * @param repo The live repository.
 * @param spawn The spawn snapshot.
 * @param claimed The child's claims, canonical.
 * @param evidencePaths The paths file evidence cites.
 * @param early The reads `gate --since` started early, when it did.
 * @returns The observation.
 * @throws {GateError} when git fails or the repository is not as the snapshot needs.
 */
export async function observe(
  repo: LiveRepo,
  spawn: SpawnSnapshot,
  claimed: readonly string[],
  evidencePaths: readonly string[],
  early: EarlyReads | undefined,
): Promise<Observation> {
  const { git } = spawn;
  const state = await readLive(repo, git, claimed, evidencePaths, early);
  const indexByPath = new Map(state.index.filter((e) => e.stage === 0).map((e) => [e.path, e]));
  const found = await cannotEvaluate(async () => {
    const now = await readNow(repo, state);
    const spawnEntry = new Map(git.entries.map((e) => [plainPath(e.path), e]));
    const judges = spawnJudges(state.trees, spawnEntry, now, repo.format);
    const staging = unexplainedIndex(state.staged, indexByPath, now, judges);
    const committed = unexplainedCommits(state.trees, state.onBranch, now, judges);
    const decides = new Set([...claimed, ...evidencePaths]);
    const unknown = await tellConverted(repo, {
      now,
      state,
      git,
      spawnEntry,
      indexByPath,
      staging,
      committed,
      decides,
    });
    // What the converted files' filtered ids now prove may explain an entry or a leaf.
    forgetExplained(staging, now, judges);
    forgetExplained(committed, now, judges);
    return { now, staging, committed, unknown };
  });
  await readSkipped(git, state, indexByPath, found.now);
  return sumUp(spawn, state, claimed, found);
}

/** `work`'s result; a failure other than a {@linkcode GateError} is said as one. */
async function cannotEvaluate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GateError) throw error;
    throw new GateError(`Cannot evaluate: ${ownWords(error).replace(/\s+/g, " ")}`);
  }
}

/**
 * Take an absent skip-worktree entry as holding its index entry when the set of such
 * entries is the spawn's.
 */
async function readSkipped(
  git: GitSnapshot,
  state: LiveState,
  indexByPath: ReadonlyMap<string, IndexEntry>,
  now: Map<string, PathContent>,
): Promise<void> {
  // A skip-worktree entry that was one at spawn too and is absent is the sparse checkout's
  // normal state: git judges it by its index entry, and so does gate. When the set of such
  // entries changed since spawn, each is read as it is: a child that marks a path
  // skip-worktree and deletes it has deleted it.
  const { recorded } = state;
  const skipped = skipWorktreePaths(state.index);
  if (git.skip_worktree !== undefined && git.skip_worktree === await pathSetDigest(skipped)) { // tether:guard gate-sparse-same
    for (const path of skipped) {
      const entry = indexByPath.get(path);
      // A path the snapshot records is judged by its record (absent then, absent now).
      if (entry === undefined || recorded.has(path) || now.get(path)?.kind !== "absent") continue;
      const kind = entry.mode === "120000"
        ? "symlink"
        : entry.mode === "160000"
        ? "gitlink"
        : "file";
      now.set(path, { kind, mode: entry.mode, raw: entry.oid, filtered: entry.oid });
    }
  }
}

/** The observation: what changed, in files and elsewhere, and what was true at spawn. */
function sumUp(
  spawn: SpawnSnapshot,
  state: LiveState,
  claimed: readonly string[],
  found: Found,
): Observation {
  const { snapshot, git, captured } = spawn;
  const { live, trees, unchecked } = state;
  const { now, staging, committed, unknown } = found;
  // A path gate cannot tell about is not observed: it confirms nothing and proves no work.
  const held = observedChanges(git.entries, live, now, trees, claimed, unchecked)
    .filter((p) => !unknown.has(p)); // tether:guard gate-unknown-held
  const observed = [...new Set([...held, ...staging.keys(), ...committed.keys()])].sort();
  // What existed at spawn: an entry's recorded content, else the spawn HEAD's leaf.
  const existed = new Set<string>(trees.before.keys());
  for (const e of git.entries) {
    if (e.content === "absent") existed.delete(plainPath(e.path));
    else existed.add(plainPath(e.path));
  }
  return {
    snapshot,
    observed,
    held,
    unknown: [...unknown].sort(),
    spawn: {
      head: git.head,
      time: Math.floor(captured / 1000),
      // File evidence is about what a file holds: content only the index or a commit has
      // does not make an unchanged file new work (a HEAD moved onto another branch would).
      changed: new Set(held), // tether:guard gate-evidence-held
      existed,
      unknown,
    },
  };
}
