/**
 * Landing a child's work: what the child changed in its worktree since its seed (its
 * commits and its uncommitted changes alike, as one tree), and applying exactly that to
 * the parent's working tree with a three-way merge against the seed. Atomic: the merge
 * is computed in the object store first (`git merge-tree --write-tree`), and the files
 * are changed by one `git read-tree -m -u`, which checks every path before it writes
 * any. The parent's index is never written.
 *
 * @module
 */
import type { RawEntry } from "../context/content.ts";
import { GitError, gitText, objectFormat, runGit } from "../git.ts";
import type { WorktreeFile } from "../gate/repo.ts";
import { readSeed } from "../seed/commit.ts";
import { captureState, changedPaths, type TreeState } from "../seed/state.ts";
import { ignoredInTheWay, outsideChanged, verifyPaths } from "./land_checks.ts";
import { BRANCH_PREFIX, SPAWN_REF_PREFIX } from "./plan.ts";

/** A child's worktree as the parent sees it. */
export interface ChildWork {
  /** The child's top level. */
  top: string;
  /** Its branch (short name). */
  branch: string;
  /** The seed it was spawned from. */
  seed: string;
  /** The seed's state. */
  seedState: TreeState;
  /** The child's live state. */
  state: TreeState;
  /** The entries of the child's working-tree tree (path → mode and raw id). */
  files: ReadonlyMap<string, RawEntry>;
  /** Paths the child changed since the seed (committed or not). */
  changed: string[];
  /** The child's commits since the seed's HEAD, oldest first. */
  commits: string[];
}

/** The outcome of a land. */
export type LandOutcome =
  | { status: "landed"; paths: string[]; removed: boolean }
  | { status: "conflict"; paths: string[] }
  | { status: "refused"; reason: "outside" | "ignored"; paths: string[] }
  | { status: "nothing"; paths: []; removed: boolean };

const FIXED = {
  GIT_NO_REPLACE_OBJECTS: "1",
  GIT_AUTHOR_NAME: "tether",
  GIT_AUTHOR_EMAIL: "tether@localhost",
  GIT_AUTHOR_DATE: "@0 +0000",
  GIT_COMMITTER_NAME: "tether",
  GIT_COMMITTER_EMAIL: "tether@localhost",
  GIT_COMMITTER_DATE: "@0 +0000",
};

/**
 * Config of the land's index and checkout calls: files are written as the merged tree's
 * raw bytes (no line-ending rewrite from the configuration), and no hook runs.
 */
const LAND_CONFIG: readonly string[] = [
  "-c",
  "core.autocrlf=false",
  "-c",
  "core.eol=lf",
  "-c",
  "core.hooksPath=/dev/null",
];

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

/**
 * Read what a child spawned by `handshake --worktree` changed since its seed.
 *
 * @param dir The child's worktree, as the parent names it.
 * @returns The child's work.
 * @throws {GitError} when `dir` is not a worktree spawned from the current repository.
 */
export async function readChildWork(dir: string): Promise<ChildWork> {
  const here = await gitText(["rev-parse", "--path-format=absolute", "--git-common-dir"]);
  const probe = await runGit(
    [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-common-dir",
      "--abbrev-ref",
      "HEAD",
    ],
    { cwd: dir, parse: true, allowFailure: true },
  );
  const [top, common, branch] = lines(new TextDecoder().decode(probe.stdout));
  if (probe.code !== 0 || !top || !branch) {
    throw new GitError("failed", `"${dir}" is not a git worktree`);
  }
  if (common !== here) {
    throw new GitError("failed", `"${dir}" is a worktree of another repository`);
  }
  if (!branch.startsWith(BRANCH_PREFIX)) {
    throw new GitError(
      "failed",
      `"${dir}" is on "${branch}", not a branch handshake --worktree made (tether/…)`,
    );
  }
  const seedRef = `${SPAWN_REF_PREFIX}${branch.slice(BRANCH_PREFIX.length)}`;
  const recorded = await runGit(["rev-parse", "--verify", "-q", seedRef], {
    parse: true,
    allowFailure: true,
  });
  const seed = new TextDecoder().decode(recorded.stdout).trim();
  if (recorded.code !== 0 || !seed) {
    throw new GitError("failed", `No seed is recorded for branch "${branch}" (${seedRef})`);
  }
  const format = await objectFormat();
  const files = new Map<string, RawEntry>();
  const [seedState, state] = await Promise.all([
    readSeed(top, seed, format),
    // The child is judged, not trusted: a fresh private index hashes every file's raw
    // bytes, and nothing the child configured (filters, hooks) runs.
    captureState(top, { files }),
  ]);
  const [changed, log] = await Promise.all([
    changedPaths(top, seedState.worktree, state.worktree),
    gitText(["rev-list", "--reverse", `${seedState.head}..${state.head}`], { cwd: top }),
  ]);
  return { top, branch, seed, seedState, state, files, changed, commits: lines(log) };
}

/**
 * What file evidence paths hold in a child's raw capture, as gate's evidence check reads
 * them: a regular file with its raw blob id, a link, a path inside a nested repository,
 * or missing (absent, or ignored, so never landed).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const files = new Map([["a.txt", { mode: "100644", oid: "ab" }], ["sub", { mode: "160000", oid: "cd" }]]);
 * assertEquals(inspectCaptured(files, ["a.txt", "sub/x", "b"]), new Map<string, unknown>([
 *   ["a.txt", { kind: "regular", oid: "ab" }],
 *   ["sub/x", { kind: "nested", repo: "sub" }],
 *   ["b", { kind: "missing" }],
 * ]));
 * ```
 * @param files The capture's entries.
 * @param paths The evidence paths.
 * @returns Path → what it holds.
 */
export function inspectCaptured(
  files: ReadonlyMap<string, RawEntry>,
  paths: readonly string[],
): Map<string, WorktreeFile> {
  const out = new Map<string, WorktreeFile>();
  for (const path of paths) {
    const entry = files.get(path);
    let nested: string | undefined;
    for (let i = path.indexOf("/"); i > 0 && nested === undefined; i = path.indexOf("/", i + 1)) {
      if (files.get(path.slice(0, i))?.mode === "160000") nested = path.slice(0, i);
    }
    if (nested !== undefined) out.set(path, { kind: "nested", repo: nested });
    else if (entry === undefined) out.set(path, { kind: "missing" });
    else if (entry.mode === "120000") out.set(path, { kind: "symlink" });
    else if (entry.mode === "160000") out.set(path, { kind: "special" });
    else out.set(path, { kind: "regular", oid: entry.oid });
  }
  return out;
}

async function commitTree(tree: string, parents: string[]): Promise<string> {
  const args = ["commit-tree", ...parents.flatMap((p) => ["-p", p]), "-m", "tether land"];
  return await gitText([...args, "--end-of-options", tree], { env: FIXED });
}

/**
 * Remove a landed child's worktree, branch and spawn ref.
 *
 * @param child The child.
 */
export async function removeChild(child: ChildWork): Promise<void> {
  await runGit(["worktree", "remove", "--force", "--force", "--end-of-options", child.top]);
  await runGit(["update-ref", "-d", `refs/heads/${child.branch}`]);
  await runGit([
    "update-ref",
    "-d",
    `${SPAWN_REF_PREFIX}${child.branch.slice(BRANCH_PREFIX.length)}`,
  ]);
}

/**
 * Apply the child's changes to the parent's working tree: three-way merge of the
 * parent's live working tree and the child's against the seed's working tree.
 *
 * @param child What the child changed.
 * @param parentTop The parent's top level.
 * @param keep Keep the worktree and branch after a land.
 * @returns Landed (with the paths), conflict (with the paths; nothing changed), or nothing.
 * @throws {GitError} when git fails or the parent changed under the land (nothing written).
 */
export async function land(
  child: ChildWork,
  parentTop: string,
  keep: boolean,
): Promise<LandOutcome> {
  if (child.changed.length === 0) {
    if (!keep) await removeChild(child);
    return { status: "nothing", paths: [], removed: !keep };
  }
  // A scratch index inside the child's git dir: no other land shares it.
  const gitDir = await gitText(["rev-parse", "--path-format=absolute", "--git-dir"], {
    cwd: child.top,
  });
  const scratch = `${gitDir}/tether-land-index`;
  const parent = await captureState(parentTop, { indexFile: scratch });
  const base = await commitTree(child.seedState.worktree, []); // tether:guard wt-merge-base
  const [ours, theirs] = await Promise.all([
    commitTree(parent.worktree, [base]),
    commitTree(child.state.worktree, [base]),
  ]);
  const merged = await runGit(
    ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs],
    { parse: true, allowFailure: true },
  );
  const [tree = "", ...rest] = new TextDecoder().decode(merged.stdout).split("\0");
  if (merged.code === 1) {
    return { status: "conflict", paths: [...new Set(rest.filter((p) => p !== ""))] };
  }
  if (merged.code !== 0 || !tree) {
    throw new GitError("failed", `git merge-tree exited with ${merged.code}: ${merged.stderr}`);
  }
  const paths = await changedPaths(parentTop, parent.worktree, tree);
  const outside = outsideChanged(paths, child.changed);
  if (outside.length > 0) return { status: "refused", reason: "outside", paths: outside };
  await verifyPaths(
    parentTop,
    await objectFormat(parentTop),
    [child.seedState.worktree, parent.worktree, child.state.worktree, tree],
    [...new Set([...child.changed, ...paths])],
  );
  const ignored = await ignoredInTheWay(parentTop, paths);
  if (ignored.length > 0) return { status: "refused", reason: "ignored", paths: ignored };
  const index = { GIT_INDEX_FILE: scratch, GIT_NO_REPLACE_OBJECTS: "1" };
  // The capture's entries carry no stat data; git compares each file's content with its
  // raw blob, so read-tree can tell a file that changed after the parent was read.
  await runGit([...LAND_CONFIG, "update-index", "-q", "--refresh"], {
    cwd: parentTop,
    env: index,
    allowFailure: true,
  });
  await runGit(
    [...LAND_CONFIG, "read-tree", "-m", "-u", "--end-of-options", parent.worktree, tree],
    { cwd: parentTop, env: index },
  );
  if (!keep) await removeChild(child);
  return { status: "landed", paths, removed: !keep };
}
