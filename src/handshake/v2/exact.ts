/**
 * Exact mode in a shared workspace: the parent records its exact content state as a seed
 * (`handshake --exact`), and `verify` compares the live content state with it, on top of
 * every v1 comparison. Two trees with the same porcelain but different content diverge.
 *
 * @module
 */
import { captureLive, confirmEnvironment, type LiveTree } from "../capture.ts";
import { type TreeField, type TreeState as Fields } from "../fields.ts";
import { type Verdict, verifyLive, type VerifyOptions } from "../verification.ts";
import { changedPaths, type TreeState } from "../../seed/state.ts";
import { captureCachedState, captureCachedStateWith } from "../../seed/cached.ts";
import { readSeed, writeSeed } from "../../seed/commit.ts";
import type { HandshakeV2 } from "./block.ts";
import { objectFormat } from "../../git_objects.ts";
import { GitError } from "../../git_error.ts";

/** How often the parent's capture is tried when HEAD moved between its two halves. */
const EXACT_ATTEMPTS = 3;

/** How many differing paths a finding lists before it says "and N more". */
export const PATH_CAP = 20;

/** A live capture with the seed of its exact state. */
export interface ExactCapture {
  /** The v1 fields and location. */
  live: LiveTree;
  /** The recorded state. */
  state: TreeState;
  /** The seed commit's full id (anchored under `refs/tether/seeds/`). */
  seed: string;
}

/**
 * Capture the v1 fields and the exact state of the current directory's worktree, and
 * write the seed. The two halves run concurrently and agree on HEAD, or the capture is
 * tried again.
 *
 * @returns The v1 fields, the state and the seed id.
 * @throws {GitError} when git fails or HEAD kept moving.
 */
export async function captureExact(): Promise<ExactCapture> {
  const dir = Deno.cwd();
  await confirmEnvironment(); // GUARD:probe-before-seed
  for (let attempt = 1;; attempt++) {
    // The v1 fields are read inside the exact capture's window, so that a sibling's edit
    // that makes it go round again makes them be read again too: fields and seed of two
    // moments would make the child's Step 0 halt (see captureCachedStateWith for the edits
    // it does not see).
    const { state, beside: live } = await captureCachedStateWith(
      dir,
      () => captureLive({ seedSpelling: true }), // GUARD:v1-in-seed-window
    );
    if (live.parent_head === state.head) {
      return { live, state, seed: await writeSeed(dir, state) };
    }
    if (attempt >= EXACT_ATTEMPTS) {
      throw new GitError("failed", "HEAD kept moving during the exact capture");
    }
  }
}

/** The seed part of a v2 verdict. */
export interface SeedReport {
  /** The seed id the block carries. */
  id: string;
  /** The state the seed records. */
  expected: TreeState;
  /** The live state. */
  observed: TreeState;
  /** Paths whose staged content differs (first {@linkcode PATH_CAP}). */
  index_paths: string[];
  /** Paths whose working-tree content differs (first {@linkcode PATH_CAP}). */
  worktree_paths: string[];
  /** How many differing paths are not listed. */
  more: number;
}

/** A verdict on a v2 block: the v1 verdict's keys, `seed` among the diverged fields. */
export interface ExactVerdict extends Omit<Verdict, "diverged"> {
  /** Diverged fields in block order; `seed` when the content state differs. */
  diverged: (TreeField | "seed")[];
  /** The block version. */
  version: 2;
  /** The workspace mode. */
  workspace_mode: "shared" | "worktree";
  /** The seed comparison, when it ran. */
  seed: SeedReport | null;
}

function v1Part(block: HandshakeV2) {
  return {
    parent_head: block.parent_head,
    parent_branch: block.parent_branch,
    parent_cwd: block.parent_cwd,
    parent_dirty_fingerprint: block.parent_dirty_fingerprint,
    workspace_mode: "shared" as const,
    handshake_issued_at: block.handshake_issued_at,
  };
}

function errorVerdict(block: HandshakeV2, reason: string, base?: Verdict): ExactVerdict {
  const expected: Fields = base?.expected ?? v1Part(block);
  return {
    status: "error",
    tag: "environment-unverified",
    expected: {
      parent_head: expected.parent_head,
      parent_branch: expected.parent_branch,
      parent_cwd: expected.parent_cwd,
      parent_dirty_fingerprint: expected.parent_dirty_fingerprint,
    },
    observed: base?.observed ?? null,
    diverged: [],
    reason,
    version: 2,
    workspace_mode: block.workspace_mode,
    seed: null,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Read the seed, refusing a missing, forged or foreign one; throws a reason. */
async function expectedState(dir: string, block: HandshakeV2): Promise<TreeState> {
  const format = await objectFormat(dir);
  if (block.seed.length !== (format === "sha1" ? 40 : 64)) {
    throw new Error(`seed ${block.seed} is not a ${format} object id of this repository`);
  }
  let state: TreeState;
  try {
    state = await readSeed(dir, block.seed, format);
  } catch (error) {
    const detail =
      error instanceof GitError && /not a tether seed|does not hash/.test(error.message)
        ? error.message
        : "it is missing from this repository, or not a commit";
    throw new Error(`seed ${block.seed} cannot be read as a seed: ${detail}`);
  }
  // The block's parent_head must be the HEAD the seed records (the seed speaks for the block).
  if (state.head !== block.parent_head.toLowerCase()) { // GUARD:seed-head
    throw new Error(`seed ${block.seed} records HEAD ${state.head}, not parent_head`);
  }
  return state;
}

/**
 * Whether two content states are the same: HEAD, index tree and working-tree tree.
 *
 * @example A second edit of one file is another state
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const a = { head: "1".repeat(40), index: "2".repeat(40), worktree: "3".repeat(40) };
 * assertEquals(sameState(a, { ...a }), true);
 * assertEquals(sameState(a, { ...a, worktree: "4".repeat(40) }), false);
 * ```
 * @param a One state.
 * @param b The other.
 * @returns True when all three ids are equal.
 */
export function sameState(a: TreeState, b: TreeState): boolean {
  return a.head === b.head && a.index === b.index && a.worktree === b.worktree;
}

/** The differing paths of index and working tree, capped together. */
async function differences(dir: string, expected: TreeState, observed: TreeState) {
  const [index, worktree] = await Promise.all([
    changedPaths(dir, expected.index, observed.index),
    changedPaths(dir, expected.worktree, observed.worktree),
  ]);
  const shownIndex = index.slice(0, PATH_CAP);
  const shownWorktree = worktree.slice(0, Math.max(0, PATH_CAP - shownIndex.length));
  const more = index.length + worktree.length - shownIndex.length - shownWorktree.length;
  return { index_paths: shownIndex, worktree_paths: shownWorktree, more };
}

/**
 * Verify a v2 shared-mode block against the live tree of the current directory: every v1
 * comparison, and the live content state against the seed's.
 *
 * @param block The parsed v2 handshake.
 * @param options Maximum age and clock, as for v1.
 * @returns The verdict; git failures and unreadable seeds are the error path.
 */
export async function verifyExact(
  block: HandshakeV2,
  options: VerifyOptions = {},
): Promise<ExactVerdict> {
  if (block.workspace_mode !== "shared") {
    return errorVerdict(block, "workspace_mode worktree is not verified by this verify");
  }
  const dir = Deno.cwd();
  try {
    await confirmEnvironment(); // GUARD:probe-before-seed-verify
  } catch (error) {
    return errorVerdict(block, `live git verification failed: ${describe(error)}`);
  }
  const settle = <T>(p: Promise<T>) =>
    p.then((value) => ({ value }), (error: unknown) => ({ error: describe(error) }));
  const [v1, expected, observed] = await Promise.all([
    verifyLive({ kind: "block", handshake: v1Part(block) }, options),
    settle(expectedState(dir, block)),
    settle(captureCachedState(dir)),
  ]);
  if (v1.status === "error") return errorVerdict(block, v1.reason ?? "unknown", v1);
  if ("error" in expected) return errorVerdict(block, expected.error, v1);
  if (v1.status === "mismatch" && "error" in observed) { // GUARD:v1-halts-first
    // The tree already diverged from the block: that is the finding, whatever the content
    // capture met (an unmerged index, no write access to the object directory).
    return { ...v1, version: 2, workspace_mode: "shared", seed: null };
  }
  if ("error" in observed) {
    return errorVerdict(block, `live git verification failed: ${observed.error}`, v1);
  }
  const same = sameState(expected.value, observed.value); // GUARD:seed-comparison
  let paths = { index_paths: [] as string[], worktree_paths: [] as string[], more: 0 };
  if (!same) {
    try {
      paths = await differences(dir, expected.value, observed.value);
    } catch (error) {
      return errorVerdict(block, `live git verification failed: ${describe(error)}`, v1);
    }
  }
  const diverged: ExactVerdict["diverged"] = [...v1.diverged, ...(same ? [] : ["seed" as const])];
  const matched = diverged.length === 0;
  return {
    ...v1,
    status: matched ? "match" : "mismatch",
    tag: matched ? "environment-verified" : "environment-divergence",
    diverged,
    version: 2,
    workspace_mode: "shared",
    seed: { id: block.seed, expected: expected.value, observed: observed.value, ...paths },
  };
}
