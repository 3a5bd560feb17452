/**
 * `gate --since`'s git reads started before the rest of gate loads: the repository, the
 * live `git status`, the repository's directories and the snapshot blob. They need
 * nothing from the child's result, so they run while zod and the contracts load and stdin
 * is read; {@linkcode evaluate} takes them instead of starting its own. Read-only: a run
 * that then fails on its arguments or input has only read.
 *
 * @module
 */
import type { StatusEntry } from "../context/porcelain.ts";
import { readStatus, type RepoDirs, repoDirs } from "../context/status.ts";
import { isFullOid } from "../git.ts";
import { type LiveRepo, openRepo, readBlob } from "./repo.ts";

/** The reads a `gate --since` run started early. */
export interface EarlyReads {
  /** The `--since` value they were started for. */
  since: string;
  /** {@linkcode openRepo} of the current directory. */
  repo: Promise<LiveRepo>;
  /** The live status (undefined when the repository could not be opened). */
  status: Promise<StatusEntry[] | undefined>;
  /** The repository's directories. */
  dirs: Promise<RepoDirs | undefined>;
  /** The snapshot's text, when `since` is a full id of the repository's format. */
  blob: Promise<string | undefined>;
}

let early: EarlyReads | undefined;

/**
 * The `--since` value of a plain `gate --since OID` command line (no `--worktree`), or
 * undefined. Only a well-formed command line is read; anything else starts nothing, and
 * gate's own parsing decides.
 *
 * @example Both spellings, and lines that start nothing
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const oid = "a".repeat(40);
 * assertEquals(sinceArgument(["--since", oid, "--json"]), oid);
 * assertEquals(sinceArgument([`--since=${oid}`]), oid);
 * assertEquals(sinceArgument(["--since", oid, "--worktree", "x"]), undefined);
 * assertEquals(sinceArgument(["--since", "HEAD"]), undefined);
 * assertEquals(sinceArgument(["--json"]), undefined);
 * ```
 * @param args gate's arguments.
 * @returns The snapshot id, or undefined.
 */
export function sinceArgument(args: readonly string[]): string | undefined {
  let since: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return undefined;
    if (arg === "--worktree" || arg.startsWith("--worktree=")) return undefined;
    if (arg === "--since") since = args[++i];
    else if (arg.startsWith("--since=")) since = arg.slice("--since=".length);
  }
  return since !== undefined && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(since) ? since : undefined;
}

/**
 * Start `gate --since`'s reads in the current directory now, when the command line asks
 * for them (see {@linkcode sinceArgument}).
 *
 * @param args gate's arguments.
 */
export function prestartGate(args: readonly string[]): void {
  const since = sinceArgument(args);
  if (since === undefined || early) return;
  const repo = openRepo();
  const opened = repo.then((r) => r, () => undefined);
  const status = opened.then((r) => r && readStatus(r.top));
  const dirs = opened.then((r) => r && repoDirs(r.top));
  const blob = opened.then((r) =>
    r && isFullOid(since, r.format) ? readBlob(r.top, since, r.format) : undefined
  );
  for (const p of [repo, status, dirs, blob]) p.catch(() => {}); // awaited later, if at all
  early = { since, repo, status, dirs, blob };
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
