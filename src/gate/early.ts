/**
 * `gate --since`'s git reads started before the rest of gate loads: the repository, the
 * live `git status`, the repository's directories and the snapshot blob. `gate.ts` starts
 * them once the command line is checked and the child's result has been read to its end
 * (so the tree is observed after a child writing on a pipe is done, and a usage error runs
 * no git); they run while zod and the contracts load and the result is parsed, and
 * {@linkcode evaluate} takes them instead of starting its own. Read-only.
 *
 * @module
 */
import type { StatusEntry } from "../context/porcelain.ts";
import { readStatus } from "../context/status.ts";
import { type LiveRepo, openTop, readBlob, withHead } from "./repo.ts";
import { type RepoDirs, repoDirs } from "../context/lstat.ts";
import { isFullOid } from "../git_objects.ts";

/** The reads a `gate --since` run started early. */
export interface EarlyReads {
  /** The `--since` value they were started for. */
  since: string;
  /** The repository around the current directory, as `openRepo` reads it. */
  repo: Promise<LiveRepo>;
  /** The live status (undefined when the repository could not be opened). */
  status: Promise<StatusEntry[] | undefined>;
  /** The repository's directories. */
  dirs: Promise<RepoDirs | undefined>;
  /** The snapshot's text, when `since` is a full id of the repository's format. */
  blob: Promise<string | undefined>;
}

let early: EarlyReads | undefined;

let started: Promise<void> = Promise.resolve();

/**
 * Start `gate --since`'s reads in the current directory now. Call it only once the command
 * line has been checked and the child's result read to its end: the tree is observed from
 * here on. {@linkcode gateStarted} tells when they have started.
 *
 * @param since The checked `--since` value (a full object id).
 */
export function prestartGate(since: string): void {
  if (early) return;
  const top = openTop(undefined, true); // pinned: src/repo_pin.ts
  const opened = top.then((r) => r, () => undefined);
  // Status first, the moment the top level is known; HEAD and the rest beside it.
  const status = opened.then((r) => r && readStatus(r.top));
  const repo = opened.then((r) => r ? withHead(r) : top.then(withHead));
  const dirs = opened.then((r) => r && repoDirs(r.top));
  const blob = opened.then((r) =>
    r && isFullOid(since, r.format) ? readBlob(r.top, since, r.format) : undefined
  );
  for (const p of [repo, status, dirs, blob]) p.catch(() => {}); // awaited later, if at all
  early = { since, repo, status, dirs, blob };
  started = opened.then(() => {}); // after the callbacks above: their git calls have started
}

/**
 * Settles once the reads {@linkcode prestartGate} started have (status first, the moment
 * the top level is known) or could not, at once when none were: loading the rest of gate
 * then runs beside them, not before.
 *
 * @returns A promise that never rejects.
 */
export function gateStarted(): Promise<void> {
  return started;
}

/**
 * Take the early reads for a run in the current directory with this `--since` (once).
 *
 * @param since The run's `--since`.
 * @returns The reads, or undefined when none were started for it.
 */
export function takeEarly(since: string | undefined): EarlyReads | undefined {
  const taken = early;
  early = undefined;
  return taken !== undefined && taken.since === since ? taken : undefined;
}
