/**
 * A child's work as the parent reads it: which worktree is the child (found from the
 * parent's side), what its own git must agree to, and what it changed since its seed (its
 * commits and its uncommitted changes alike, as one tree) or since the land record the
 * parent gave. Everything of the child's is read with its git directory and work tree given
 * explicitly, so nothing the child wrote can point the reading elsewhere.
 *
 * @module
 */

import type { WorktreeFile } from "../gate/repo.ts";
import { runGit } from "../git.ts";
import { decodePath, decodeRecords, fitsArgv } from "../paths.ts";
import { pinHere } from "../repo_pin.ts";
import { readSeed, seedIndexCommit } from "../seed/commit.ts";
import { captureState, changedPaths, type TreeState } from "../seed/state.ts";
import { quoteLine } from "../show.ts";
import {
  type ChildIdentity,
  identifyChild,
  parseWorktreeList,
  type WorktreeEntry,
} from "./identity.ts";
import { readOwnCommits } from "./own_commits.ts";
import { alreadyLanded, readRecord, recordRef } from "./record.ts";
import { type RawEntry } from "../context/raw_tree.ts";
import { isFullOid, type ObjectFormat, objectFormat } from "../git_objects.ts";
import { repositoryPin } from "../git_pin.ts";
import { GitError } from "../git_error.ts";

/** A land record the parent gave with `--landed`, read back (see `record.ts`). */
export interface LandRecord {
  /** The record's id. */
  id: string;
  /** The child's tree it records. */
  tree: string;
}

/** A child's worktree as the parent sees it. */
export interface ChildWork {
  /** The child's top level: the parent's worktree-list entry for the directory named. */
  top: string;
  /** Its git directory (`<common>/worktrees/<id>`), passed explicitly to every child-side call. */
  gitDir: string;
  /** Its branch (short name). */
  branch: string;
  /** Its spawn ref (full name), pointing at the seed. */
  spawnRef: string;
  /** The spawn ref did not exist (deleted after the spawn): the child was found without it. */
  spawnRefMissing: boolean;
  /** The seed it was spawned from, as the parent gave it. */
  seed: string;
  /** The seed's state. */
  seedState: TreeState;
  /** The child's live state. */
  state: TreeState;
  /** The entries of the child's working-tree tree (path → mode and raw id). */
  files: ReadonlyMap<string, RawEntry>;
  /** Paths the child changed since the seed (committed or not). */
  changed: string[];
  /** The land record the parent gave (`--landed`), read back; none without it. */
  record?: LandRecord;
  /**
   * The paths of this round, which claims and file evidence are judged against and the land
   * may change: since the record with one (where the child's tree differs from the
   * record's: an undo or a rename since included), else since the seed (`changed`).
   */
  round: string[];
  /** With a record: the paths changed since the seed and not since the record (already landed). */
  already: string[];
  /** The paths a land looks at: `changed` and `round`, in order. */
  landing: string[];
  /**
   * The child's own commits, oldest first: on its first-parent line since the seed's HEAD
   * and reachable from no ref but its own (src/worktree/own_commits.ts).
   */
  commits: string[];
  /** Those that count as evidence: their own change touches only paths in `round`. */
  counted: ReadonlySet<string>;
}

/** What the child's tree holds and what it changed: the part of its work read from its files. */
type Round = Pick<
  ChildWork,
  | "seedState"
  | "state"
  | "files"
  | "changed"
  | "round"
  | "already"
  | "landing"
  | "commits"
  | "counted"
>;

/** The non-empty lines of a text. */
function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

/**
 * The parent's worktree list, each path decoded exactly.
 *
 * @returns The entries in git's order (the main worktree first).
 * @throws {GitError} when git fails.
 */
export async function worktreeList(): Promise<WorktreeEntry[]> {
  const { stdout } = await runGit(["worktree", "list", "--porcelain", "-z"], { parse: true });
  return parseWorktreeList(decodeRecords(stdout)); // each path decoded exactly
}

/**
 * What a spawn ref holds: its id, `""` when it exists but names no object (a broken or
 * dangling ref), or undefined when there is no such ref at all.
 */
async function spawnRefValue(ref: string): Promise<string | undefined> {
  const read = await runGit(["rev-parse", "--verify", "-q", ref], {
    parse: true,
    allowFailure: true,
  });
  if (read.code === 0) return new TextDecoder().decode(read.stdout).trim();
  // Exit 1 without a value: no such ref, not even a symbolic one or a broken file (128).
  const symbolic = await runGit(["symbolic-ref", "-q", ref], { parse: true, allowFailure: true });
  return symbolic.code === 1 ? undefined : ""; // tether:guard wt-spawn-ref-broken
}

/**
 * Read what a child spawned by `handshake --worktree` changed since its seed. The child is
 * found from the parent's side: the entry of the parent's `git worktree list` at `dir`
 * (made absolute and real by the parent's git), on the branch spawn made for `seed`, whose
 * spawn ref points at `seed` or is missing (a sibling can delete it; it is never taken as
 * the seed). Its files are then read with the git directory and work tree given
 * explicitly and a fresh scratch index, so what the child wrote in its configuration or
 * `.git` file cannot point the reading elsewhere.
 *
 * @param dir The child's worktree, as the parent names it.
 * @param seed The seed the parent holds for it (full id).
 * @param landed The land record the parent gave (`--landed`), if any: read back as this
 *   child's exact record on the seed.
 * @returns The child's work.
 * @throws {GitError} when `dir` is not the worktree spawned for `seed` from this repository.
 */
export async function readChildWork(
  dir: string,
  seed: string,
  landed?: string,
): Promise<ChildWork> {
  // The parent's repository as the run resolved and pinned it at its start (src/repo_pin.ts).
  const pin = repositoryPin() ?? await pinHere();
  const format = await objectFormat();
  if (!isFullOid(seed, format)) {
    throw new GitError("failed", `--seed "${seed}" is not a full ${format} object id`);
  }
  const top = await childTop(dir, pin.gitDir);
  const who = identifyChild(await worktreeList(), top, seed, pin.top);
  if (typeof who === "string") throw new GitError("failed", who);
  const recorded = await spawnRefChecked(who.spawnRef, seed);
  const gitDir = await childGitDir(top, pin.commonDir, who.branch);
  // The record is the one the parent names, read back as a seed is: checked against its id
  // and against the exact record of this child's branch on this seed.
  const record: LandRecord | undefined = landed === undefined
    ? undefined
    : { id: landed, tree: await readRecord(pin.top, landed, seed, who.branch, format) };
  const read = await readRound(pin.top, { top, gitDir, seed, who, format, record });
  return {
    top,
    gitDir,
    branch: who.branch,
    spawnRef: who.spawnRef,
    spawnRefMissing: recorded === undefined,
    seed,
    seedState: read.seedState,
    state: read.state,
    files: read.files,
    changed: read.changed,
    ...(record === undefined ? {} : { record }),
    round: read.round,
    already: read.already,
    landing: read.landing,
    commits: read.commits,
    counted: read.counted,
  };
}

/**
 * The child's top level: `dir` made absolute and real by git, with the parent's git
 * directory, so nothing of the child's is read.
 *
 * @throws {GitError} when `dir` is not a directory or its path is not UTF-8.
 */
async function childTop(dir: string, parentGitDir: string): Promise<string> {
  const real = await runGit(
    [`--git-dir=${parentGitDir}`, "--work-tree=.", "rev-parse", "--show-toplevel"],
    { cwd: dir, parse: true, allowFailure: true },
  );
  const top = decodePath(real.stdout).replace(/\n$/, "");
  if (real.code !== 0 || !top) throw new GitError("failed", `${quoteLine(dir)} is not a directory`);
  if (!fitsArgv(top)) { // every later call runs in it
    throw new GitError("failed", `The worktree's path ${quoteLine(top)} is not UTF-8`);
  }
  return top;
}

/**
 * The spawn ref's value when it points at the seed, or undefined when it is missing.
 *
 * The seed compared is always the parent's --seed (its first 12 hex are in the branch the
 * parent's worktree list names). Refs are shared, so a sibling can delete the spawn ref: a
 * missing one is not a forged one, and the child is still found. One that names anything
 * else (another commit, a broken or dangling ref) is refused.
 *
 * @throws {GitError} when the spawn ref names anything but the seed.
 */
async function spawnRefChecked(spawnRef: string, seed: string): Promise<string | undefined> {
  const recorded = await spawnRefValue(spawnRef);
  if (recorded !== undefined && recorded !== seed) { // tether:guard wt-spawn-ref
    throw new GitError(
      "failed",
      `The spawn ref ${spawnRef} does not point at the seed ${seed}: not the child spawned from it`,
    );
  }
  return recorded;
}

/**
 * The child's git directory, once what the child's own git says agrees with the parent's
 * view, so that nothing judged in the child's directory (evidence) is redirected: a
 * core.worktree or a .git file naming another worktree is refused.
 *
 * @param top The child's top level, as the parent found it.
 * @param here The parent's common git directory.
 * @param branch The child's branch (short name).
 * @returns Its git directory (`<common>/worktrees/<id>`).
 * @throws {GitError} when the child's git reports another top level, git dir or HEAD.
 */
async function childGitDir(top: string, here: string, branch: string): Promise<string> {
  const probe = await runGit(
    [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-dir",
      "--git-common-dir",
      "--symbolic-full-name",
      "HEAD",
    ],
    { cwd: top, parse: true, allowFailure: true },
  );
  const [shown = "", gitDir = "", common = "", head = ""] = lines(
    new TextDecoder().decode(probe.stdout),
  );
  const id = gitDir.slice(`${here}/worktrees/`.length);
  if (
    probe.code !== 0 || shown !== top || common !== here || // tether:guard wt-own-top
    !gitDir.startsWith(`${here}/worktrees/`) || id === "" || id.includes("/") ||
    head !== `refs/heads/${branch}`
  ) {
    throw new GitError(
      "failed",
      `git in ${quoteLine(top)} reports top level ${quoteLine(shown)}, git dir ${
        quoteLine(gitDir)
      } and HEAD ${
        quoteLine(head)
      }: not the worktree handshake --worktree made there (core.worktree or a rewritten .git?)`,
    );
  }
  return gitDir;
}

/**
 * Read the child's files and what it changed: since the seed, since the record (the round),
 * and its own commits.
 *
 * @param parentTop The parent's top level.
 * @param child The child as found: its top level, git dir, seed, identity and record.
 * @returns Its states, files, changed paths and commits.
 */
async function readRound(
  parentTop: string,
  child: {
    top: string;
    gitDir: string;
    seed: string;
    who: ChildIdentity;
    format: ObjectFormat;
    record: LandRecord | undefined;
  },
): Promise<Round> {
  const { top, gitDir, seed, who, format, record } = child;
  const files = new Map<string, RawEntry>();
  const [seedState, state] = await Promise.all([
    readSeed(parentTop, seed, format),
    // The child is judged, not trusted: a fresh private index hashes every file's raw
    // bytes (nothing the child configured, filters or hooks, runs), and its git dir and
    // work tree are given, never found.
    captureState(top, { repo: { gitDir, workTree: top }, files }),
  ]);
  const [changed, sinceRecord] = await Promise.all([
    changedPaths(parentTop, seedState.worktree, state.worktree),
    record === undefined
      ? Promise.resolve(undefined)
      : changedPaths(parentTop, record.tree, state.worktree),
  ]);
  const round = sinceRecord ?? changed; // tether:guard wt-round-since-record
  const already = sinceRecord === undefined ? [] : alreadyLanded(changed, sinceRecord);
  const landing = [...new Set([...changed, ...round])];
  // The child's own commits: on its first-parent line since the seed and on no other ref.
  const own = await readOwnCommits({
    head: state.head,
    seed,
    seedIndex: await seedIndexCommit(seedState, format),
    seedHead: seedState.head,
    own: [`refs/heads/${who.branch}`, who.spawnRef, recordRef(who.branch)],
    changed: new Set(round),
  });
  return {
    seedState,
    state,
    files,
    changed,
    round,
    already,
    landing,
    commits: own.commits,
    counted: own.counted,
  };
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
