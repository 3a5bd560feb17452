/**
 * Step 0 verification: compare a handshake with the live tree and take the match,
 * mismatch, error or missing path.
 *
 * @module
 */
import {
  type Handshake,
  parseIssuedAt,
  TREE_FIELDS,
  type TreeField,
  type TreeState,
} from "./fields.ts";
import { captureDirectory, captureLive, type LiveTree } from "./capture.ts";
import { branchRef, spelledHere } from "./branch.ts";
import { locate } from "./location.ts";
import type { ParseResult } from "./block.ts";
import { GitError } from "../git_error.ts";

/** The four verification paths. */
export type VerifyStatus = "match" | "mismatch" | "error" | "missing";

/** What `verify` decided, as printed by `--json`. */
export interface Verdict {
  /** Which path. */
  status: VerifyStatus;
  /** `environment-verified`, `environment-divergence` or `environment-unverified`. */
  tag: "environment-verified" | "environment-divergence" | "environment-unverified";
  /** The block's four tree fields, when a block was parsed. */
  expected: TreeState | null;
  /** The live four tree fields, when captured. */
  observed: TreeState | null;
  /** Diverged field names in schema order. */
  diverged: TreeField[];
  /** Why unverified (error and missing paths). */
  reason: string | null;
}

/**
 * Compare expected and observed tree fields; `parent_cwd` and `parent_branch` use the
 * given equalities (the branch is compared as a ref).
 *
 * @example One field diverged
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const a = { parent_head: "a".repeat(40), parent_branch: "main", parent_cwd: "/r", parent_dirty_fingerprint: "e3b0c44298fc" };
 * assertEquals(diverge(a, { ...a, parent_branch: "dev" }, true), ["parent_branch"]);
 * assertEquals(diverge(a, a, false), ["parent_cwd"]);
 * assertEquals(diverge(a, { ...a, parent_cwd: "/elsewhere" }, true), []);
 * ```
 * @param expected From the block.
 * @param observed From the live tree.
 * @param sameCwd Whether the two directories are the same directory.
 * @param sameBranch Whether the two name the same ref (default: the same text).
 * @returns Diverged field names in schema order.
 */
export function diverge(
  expected: TreeState,
  observed: TreeState,
  sameCwd: boolean,
  sameBranch: boolean = expected.parent_branch === observed.parent_branch,
): TreeField[] {
  return TREE_FIELDS.filter((field) =>
    field === "parent_cwd"
      ? !sameCwd
      : field === "parent_branch"
      ? !sameBranch
      : expected[field] !== observed[field]
  );
}

function unverified(
  reason: string,
  expected: TreeState | null = null,
  observed: TreeState | null = null,
): Verdict {
  return {
    status: "error",
    tag: "environment-unverified",
    expected,
    observed,
    diverged: [],
    reason,
  };
}

function treeOf(h: TreeState): TreeState {
  return {
    parent_head: h.parent_head,
    parent_branch: h.parent_branch,
    parent_cwd: h.parent_cwd,
    parent_dirty_fingerprint: h.parent_dirty_fingerprint,
  };
}

/** The current directory as `getcwd` names it, or undefined when it cannot. */
function physicalCwd(): string | undefined {
  try {
    return Deno.cwd();
  } catch {
    return undefined;
  }
}

/** With `--max-age`, how far in the future a block may be dated (clock skew) before it is refused. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Options for {@linkcode verifyLive}. */
export interface VerifyOptions {
  /** A block older than this many milliseconds takes the error path. */
  maxAgeMs?: number;
  /** The current time in epoch milliseconds (default `Date.now()`). */
  now?: number;
  /** The directory to verify (default: the current one). */
  cwd?: string;
}

/**
 * Run Step 0 for a parsed prompt against the live tree of a directory (default: the
 * current one).
 *
 * @param parsed What {@linkcode parseBlock} found.
 * @param options Optional maximum age, clock and directory.
 * @returns The verdict; never throws for git failures (they are the error path).
 *
 * Kept whole: the paths (match, mismatch, error) are decided from one capture in one place,
 * so no path can be taken on facts another path did not see.
 */
export async function verifyLive(
  parsed: ParseResult,
  options: VerifyOptions = {},
): Promise<Verdict> {
  if (parsed.kind === "missing") {
    return {
      status: "missing",
      tag: "environment-unverified",
      expected: null,
      observed: null,
      diverged: [],
      reason: "no handshake",
    };
  }
  if (parsed.kind === "error") return unverified(`handshake block unparseable: ${parsed.reason}`);
  const block: Handshake = parsed.handshake;
  const expected = treeOf(block);
  if (block.workspace_mode === "worktree") {
    return unverified("workspace_mode worktree is reserved in v1", expected);
  }
  if (options.maxAgeMs !== undefined) {
    const age = (options.now ?? Date.now()) - parseIssuedAt(block.handshake_issued_at)!;
    if (age < -FUTURE_TOLERANCE_MS) {
      return unverified(
        `handshake is issued in the future (${block.handshake_issued_at})`,
        expected,
      );
    }
    if (age > options.maxAgeMs) {
      return unverified(
        `handshake is older than the maximum age (issued ${block.handshake_issued_at})`,
        expected,
      );
    }
  }
  const where = options.cwd === undefined ? {} : { cwd: captureDirectory(options) };
  // The parent's directory is resolved through git and compared with git's own answer for
  // this one: equal text is no proof (git may be looking at another tree). The capture's
  // answer is git's for the current directory itself, so a block naming it as `getcwd`
  // does (no symbolic link in it) needs no call of its own.
  const here = options.cwd === undefined ? physicalCwd() : undefined;
  const expectedResolved = block.parent_cwd === here ? undefined : locate(block.parent_cwd);
  let live: LiveTree;
  try {
    live = await captureLive(where);
  } catch (error) {
    await expectedResolved;
    if (error instanceof GitError) {
      return unverified(`live git verification failed: ${error.message}`, expected);
    }
    throw error;
  }
  const observed = treeOf(live);
  if (live.headRef === "refs/heads/HEAD") {
    return unverified(
      "HEAD is on a branch named HEAD, which a v1 block cannot tell from a detached HEAD",
      expected,
      observed,
    );
  }
  const resolved = expectedResolved === undefined ? live.location : await expectedResolved;
  const sameCwd = resolved !== undefined && resolved === live.location; // tether:guard f1-location
  // The block names the ref HEAD is on, in tether's spelling (`refs/heads/<value>`) or in the
  // seed's as git gives it here and now (`heads/<name>` when a tag shares the name); a tag,
  // a remote-tracking ref or another branch that git prints alike is never that ref.
  const asTether = branchRef(expected.parent_branch) === live.headRef; // tether:guard f3-branch-ref
  const asSeed = !asTether && await spelledHere(expected.parent_branch, live.headRef, where.cwd);
  if (asSeed) observed.parent_branch = expected.parent_branch; // what Step 0's command prints here
  const sameBranch = asTether || asSeed;
  const diverged = diverge(expected, observed, sameCwd, sameBranch);
  return diverged.length === 0
    ? { status: "match", tag: "environment-verified", expected, observed, diverged, reason: null }
    : {
      status: "mismatch",
      tag: "environment-divergence",
      expected,
      observed,
      diverged,
      reason: null,
    };
}
