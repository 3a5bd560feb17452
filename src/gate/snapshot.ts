/**
 * The spawn snapshot a `gate --since` run judges against: read from the object store
 * (or from the reads `gate` started early) and checked to be a whole snapshot of this
 * worktree, written by a tether that records what gate compares.
 *
 * @module
 */
import type { GitSnapshot, WorkingContextSnapshot } from "../context/snapshot.ts";
import type { EarlyReads } from "./early.ts";
import { GateError, type LiveRepo, readBlob } from "./repo.ts";
import { parseSnapshot } from "./snapshot_schema.ts";
import { isFullOid } from "../git_objects.ts";

/** A spawn snapshot checked for this worktree. */
export interface SpawnSnapshot {
  /** The snapshot as captured. */
  snapshot: WorkingContextSnapshot;
  /** Its git part: HEAD, branch and status entries at spawn. */
  git: GitSnapshot;
  /** When it was captured, milliseconds since the epoch. */
  captured: number;
}

/**
 * Read the snapshot `since` names and check that it was taken in this worktree by a tether
 * that records each entry's state and content.
 *
 * @param repo The live repository.
 * @param since The snapshot's blob id (`--since`).
 * @param early The reads `gate --since` started early, when it did.
 * @returns The snapshot.
 * @throws {GateError} when `since` is no full id, names no tether snapshot, or a snapshot
 *   without a git part, of another worktree, or written by an older tether.
 */
export async function readSnapshot(
  repo: LiveRepo,
  since: string,
  early: EarlyReads | undefined,
): Promise<SpawnSnapshot> {
  if (!isFullOid(since, repo.format)) {
    throw new GateError(
      `Cannot evaluate: --since "${since}" is not a full ${repo.format} object id`,
    );
  }
  const snapshot = parseSnapshot(
    (await early?.blob) ?? await readBlob(repo.top, since, repo.format),
  );
  if (!snapshot) throw new GateError(`Cannot evaluate: blob "${since}" is not a tether snapshot`);
  const git = snapshot.git;
  if (!git) throw new GateError(`Cannot evaluate: snapshot "${since}" has no git part`);
  if (git.worktree !== repo.top) {
    throw new GateError(
      `Cannot evaluate: snapshot was taken in "${git.worktree}", gate runs in "${repo.top}"`,
    );
  }
  const captured = Date.parse(snapshot.captured_at);
  if (
    Number.isNaN(captured) ||
    git.entries.some((e) => e.state === undefined || e.content === undefined)
  ) {
    throw new GateError(
      `Cannot evaluate: snapshot "${since}" was written by an older tether; capture a new one`,
    );
  }
  return { snapshot, git, captured };
}
