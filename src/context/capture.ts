/**
 * Working-context capture at spawn (seed 004): the snapshot of the parent's directory,
 * recent files and git worktree, stored as a git blob and rendered as the
 * `[working-context]` block. Everything is learned through git, so `handshake --context`
 * still runs with `--allow-run=git` only. No zod on this path.
 *
 * @module
 */
import { anchorObject } from "../anchor.ts";
import { gitText, runGit } from "../git.ts";
import { countEntries } from "./porcelain.ts";
import { parseRemoteConfig } from "./remote.ts";
import { renderBlock } from "./render.ts";
import {
  canonicalRecentPath,
  type GitSnapshot,
  SNAPSHOT_VERSION,
  type WorkingContextSnapshot,
} from "./snapshot.ts";
import { readStatusEntries } from "./status.ts";
import { readSkipWorktreeDigest } from "./sparse.ts";
import { readConversionKey } from "./conversions.ts";
import { decodePath } from "../paths.ts";
import { GitError } from "../git_error.ts";

/** What the parent asks for. */
export interface ContextRequest {
  /** Recent files the parent names (`--recent`). */
  recent: string[];
  /** `public` suppresses path and git context entirely. */
  audience: "private" | "public";
  /** Directory to capture; defaults to the current directory. */
  cwd?: string;
}

/** The rendered block, the snapshot and the id of its stored blob. */
export interface ContextResult {
  /** The `[working-context]` … `[/working-context]` text. */
  block: string;
  /** The snapshot as JSON-ready data. */
  context: Record<string, unknown>;
  /** The git blob id holding the full snapshot, or null when none was stored. */
  snapshotId: string | null;
}

const decoder = new TextDecoder();

/** Whether a git failure means "no worktree here" rather than a real error. */
function outsideWorktree(error: unknown): boolean {
  if (!(error instanceof GitError)) return false;
  if (error.kind === "not-a-repository") return true;
  return error.kind === "failed" && /must be run in a work tree/i.test(error.stderrTail);
}

/**
 * Read the git part of the snapshot, or null when `cwd` is not inside a worktree.
 *
 * @param cwd The directory.
 * @returns The git snapshot and the caller's prefix, or null.
 * @throws {GitError} when git is missing or fails for another reason.
 */
export async function readGitSnapshot(
  cwd: string,
): Promise<{ git: GitSnapshot; prefix: string } | null> {
  let top: string;
  let prefix: string;
  let format: string;
  let commonDir: string;
  try {
    [top, prefix, format, commonDir] = (await gitText(
      [
        "rev-parse",
        "--show-toplevel",
        "--show-prefix",
        "--show-object-format",
        "--path-format=absolute",
        "--git-common-dir",
      ],
      { cwd },
    )).split("\n") as [string, string, string, string];
  } catch (error) {
    if (outsideWorktree(error)) return null;
    throw error;
  }
  const [branch, ref, head, worktrees, remotes, entries, skipWorktree, conversions] = await Promise
    .all([
      readBranch(top),
      // The full ref HEAD is attached to: the abbreviated name can be ambiguous (a tag of the
      // same name makes it `heads/main`).
      runGit(["symbolic-ref", "-q", "HEAD"], { cwd: top, parse: true, allowFailure: true })
        .then((r) => r.code === 0 ? decodePath(r.stdout.subarray(0, r.stdout.length - 1)) : null),
      runGit(["rev-parse", "--verify", "-q", "HEAD"], { cwd: top, parse: true, allowFailure: true })
        .then((r) => r.code === 0 ? decoder.decode(r.stdout).trim() : null),
      gitText(["worktree", "list", "--porcelain"], { cwd: top }),
      runGit(["config", "-z", "--get-regexp", "^remote\\..*\\.url$"], {
        cwd: top,
        parse: true,
        allowFailure: true,
      }).then((r) => r.code === 0 ? parseRemoteConfig(decoder.decode(r.stdout)) : []),
      readStatusEntries(top),
      readSkipWorktreeDigest(top),
      readConversionKey(top, commonDir),
    ]);
  const mainWorktree = /^worktree (.*)$/m.exec(worktrees)?.[1];
  return {
    prefix: prefix ?? "",
    git: {
      worktree: top,
      branch,
      head,
      object_format: format === "sha256" ? "sha256" : "sha1",
      linked_worktree: mainWorktree !== undefined && mainWorktree !== top,
      remotes,
      ...countEntries(entries),
      entries,
      skip_worktree: skipWorktree,
      ref,
      conversions,
    },
  };
}

/** `rev-parse --abbrev-ref HEAD` as the seed reads it; the symbolic name on an unborn branch. */
async function readBranch(top: string): Promise<string> {
  const abbrev = await runGit(["rev-parse", "--abbrev-ref", "HEAD"], {
    cwd: top,
    parse: true,
    allowFailure: true,
  });
  if (abbrev.code === 0) return decoder.decode(abbrev.stdout).trim();
  return await gitText(["symbolic-ref", "--short", "HEAD"], { cwd: top });
}

/** The anchor namespace of spawn snapshots: `refs/tether/snapshots/<seconds>/<oid>`. */
export const SNAPSHOT_ANCHOR = "snapshots";

/**
 * The anchor namespace of spawn HEADs: `refs/tether/snapshot-heads/<seconds>/<snapshot id>`
 * points at the commit HEAD named at spawn, so an amend plus `git gc` cannot take it away
 * while the snapshot is kept.
 */
export const SNAPSHOT_HEAD_ANCHOR = "snapshot-heads";

/**
 * Store a snapshot as a git blob, anchored under `refs/tether/snapshots/` (anchors older
 * than 14 days, `ANCHOR_MAX_AGE_DAYS`, are removed at the same time).
 *
 * @param snapshot The snapshot.
 * @param top The worktree it belongs to.
 * @returns The blob id.
 * @throws {GitError} when git cannot write the object.
 */
export async function storeSnapshot(
  snapshot: WorkingContextSnapshot,
  top: string,
): Promise<string> {
  const oid = await gitText(["hash-object", "-w", "--stdin"], {
    cwd: top,
    stdin: JSON.stringify(snapshot) + "\n",
  });
  // Reachable from a ref, the blob outlives `git gc --prune=now` until gate --done (or
  // expiry) lets it go.
  const head = snapshot.git?.head ?? null;
  try {
    await anchorObject( // guard: snapshot anchored
      top,
      SNAPSHOT_ANCHOR,
      oid,
      Date.now(),
      head === null ? undefined : { kind: SNAPSHOT_HEAD_ANCHOR, oid: head },
    );
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot anchor the snapshot under refs/tether/${SNAPSHOT_ANCHOR}/ (a ref in the way?): ${
        detail.replace(/\s+/g, " ")
      }`,
    );
  }
  return oid;
}

/**
 * What `handshake --json` shows as `context`: the snapshot without its per-entry list
 * (that lives in the blob); for a public audience only the audience.
 *
 * @param snapshot The snapshot.
 * @returns JSON-ready data.
 */
export function visibleContext(snapshot: WorkingContextSnapshot): Record<string, unknown> {
  if (snapshot.audience === "public") return { audience: "public" };
  const { git, ...rest } = snapshot;
  if (!git) return { ...rest, git: null };
  const { entries: _entries, ...summary } = git;
  return { ...rest, git: summary };
}

/**
 * Capture the working context of the current directory (or `request.cwd`).
 *
 * Inside a git worktree the full snapshot, with every porcelain entry, is written as a
 * blob (`git hash-object -w --stdin`) whose id the block carries; outside one the
 * snapshot has no git part and nothing is stored.
 *
 * @param request Recent files, audience, optional directory.
 * @returns The block, the visible snapshot and the snapshot id.
 * @throws {GitError} when git is missing or fails inside a worktree.
 */
export async function captureWorkingContext(request: ContextRequest): Promise<ContextResult> {
  const cwd = request.cwd ?? Deno.cwd();
  const found = await readGitSnapshot(cwd);
  const recent: string[] = [];
  for (const path of request.recent) {
    const canonical = canonicalRecentPath(path, found?.git.worktree ?? null, found?.prefix ?? "");
    if (!recent.includes(canonical)) recent.push(canonical);
  }
  const snapshot: WorkingContextSnapshot = {
    tether_snapshot: SNAPSHOT_VERSION,
    captured_at: new Date().toISOString(),
    audience: request.audience,
    project_dir: cwd,
    recent_files: recent,
    git: found?.git ?? null,
  };
  const snapshotId = found ? await storeSnapshot(snapshot, found.git.worktree) : null;
  return {
    block: renderBlock(snapshot, snapshotId),
    context: visibleContext(snapshot),
    snapshotId,
  };
}
