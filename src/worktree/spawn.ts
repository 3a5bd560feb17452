/**
 * Spawn: make linked worktrees whose HEAD is the parent's HEAD, on new branches, holding
 * the parent's exact uncommitted work (staged, unstaged, deletions, untracked files that
 * are not ignored), recorded as one seed. All through git; the parent's index, working
 * tree and stash are never written.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, parse, resolve } from "node:path";
import { GitError, gitText, objectFormat, runGit } from "../git.ts";
import { pinned, readDrivers } from "./land_config.ts";
import { pinHere } from "../repo_pin.ts";

import { captureLive, type LiveTree, STATUS_ARGS, STATUS_ENV } from "../handshake/capture.ts";
import { carriedFingerprint } from "./carried_status.ts";
import {
  captureState,
  changedPaths,
  checkoutByteDiffers,
  checkoutModeDiffers,
  rawTree,
  seedIndexPath,
  type TreeState,
} from "../seed/state.ts";
import { mapBounded } from "../context/bounded.ts";
import { spawnRefusal } from "../seed/refusal.ts";
import { SEED_REF_PREFIX, seedId, writeSeed } from "../seed/commit.ts";
import { decodePath, decodePaths } from "../paths.ts";
import { refuseLeftOut } from "../seed/excludes.ts";
import { BRANCH_PREFIX, branchName, SPAWN_REF_PREFIX } from "./plan.ts";
import { listPaths } from "../show.ts";
import { type RawEntry } from "../context/raw_tree.ts";

/**
 * The child's checkout writes the seed's raw bytes back: no line-ending rewrite from the
 * configuration (attributes can still ask for one; the byte check below then refuses), no
 * hook, and an index that says what was written: no assume-unchanged or fsmonitor marking
 * and no sparse-checkout skipping, so `checkoutDiffers` sees every file.
 */
/** How many children are filled (or added) at once: one per core, at least two. */
const FILL_CONCURRENCY = Math.max(2, navigator.hardwareConcurrency ?? 2);

/** The parent's captures feed its blocks: branch and directory spelled as in a v1 block. */
const FOR_BLOCK = { seedSpelling: true } as const;

/** One child worktree. */
export interface SpawnedChild {
  /** Absolute top level. */
  path: string;
  /** The branch checked out in it (short name). */
  branch: string;
  /** The directory in it that corresponds to the parent's working directory. */
  cwd: string;
}

/** What a spawn made. */
export interface Spawn {
  /**
   * Undo the whole spawn when the caller cannot hand the children over after all: the
   * worktrees, branches and spawn refs, the directories git created for them and the seed
   * ref when this spawn wrote it (see {@linkcode spawnWorktrees}). Only set by it.
   */
  rollback?: () => Promise<void>;
  /** The parent's live capture (the v1 fields). */
  live: LiveTree;
  /** The parent's exact state. */
  state: TreeState;
  /** The seed commit recording it. */
  seed: string;
  /** The children, in the order of the directories asked for. */
  children: SpawnedChild[];
}

/**
 * Where the parent stands: its top level and the prefix of its working directory.
 *
 * @param cwd The parent's directory (default: the current directory).
 * @returns Top level and prefix (no trailing slash, empty at the top).
 * @throws {GitError} when git fails or a path holds a newline.
 */
export async function parentLocation(cwd?: string): Promise<{ top: string; prefix: string }> {
  const text = await gitText(
    ["rev-parse", "--show-toplevel", "--show-prefix"],
    cwd === undefined ? {} : { cwd },
  );
  const lines = text.split("\n");
  if (lines.length !== 2 || !lines[0]) {
    throw new GitError("failed", "Cannot read the parent's top level (a newline in a path?)");
  }
  return { top: lines[0], prefix: lines[1]!.replace(/\/$/, "") };
}

/**
 * Remove worktrees a spawn made, their branches and spawn refs (never a seed ref, which
 * another spawn of the same state may share).
 *
 * @param made The worktrees (absolute paths) and their branches.
 */
export async function undo(made: { path: string; branch?: string }[]): Promise<void> {
  for (const child of made) {
    await runGit(["worktree", "remove", "--force", "--force", "--end-of-options", child.path], {
      allowFailure: true,
    });
    if (child.branch) {
      await runGit(["update-ref", "-d", `refs/heads/${child.branch}`], { allowFailure: true });
      await runGit([
        "update-ref",
        "-d",
        `${SPAWN_REF_PREFIX}${child.branch.slice(BRANCH_PREFIX.length)}`,
      ], {
        allowFailure: true,
      });
    }
  }
  await runGit(["worktree", "prune"], { allowFailure: true });
}

/** NUL-separated path bytes from git (`-z`), each kept raw. */
function rawPaths(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0) {
      if (i > start) out.push(bytes.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** Paths joined as git reads them from `-z`/`--pathspec-file-nul` input. */
function nulJoined(paths: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(paths.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const p of paths) {
    out.set(p, at);
    at += p.length + 1;
  }
  return out;
}

/** The parent's intent-to-add entries (`git add -N`), as raw path bytes. */
interface IntentToAdd {
  /** Entries whose file exists: carried as intent-to-add entries of the child's index. */
  carried: Uint8Array[];
  /** Entries whose file is deleted: refused (git cannot make one without the file). */
  deleted: string[];
}

/**
 * Find the index's intent-to-add entries: `diff-index --cached` shows them as added
 * unless told they are invisible, so the difference of the two lists is exactly them;
 * `diff-files` shows as added exactly those whose file exists.
 */
async function intentToAdd(top: string): Promise<IntentToAdd> {
  const added = ["diff-index", "--cached", "-z", "--name-only", "--no-renames", "--diff-filter=A"];
  const opts = { cwd: top, parse: true };
  const [visible, invisible] = await Promise.all([
    runGit([...added, "--ita-visible-in-index", "HEAD", "--"], opts),
    runGit([...added, "--ita-invisible-in-index", "HEAD", "--"], opts),
  ]);
  const staged = new Set(rawPaths(invisible.stdout).map(decodePath));
  const ita = rawPaths(visible.stdout).filter((p) => !staged.has(decodePath(p)));
  if (ita.length === 0) return { carried: [], deleted: [] };
  const files = await runGit(["diff-files", "-z", "--name-only", "--diff-filter=A", "--"], opts);
  const present = new Set(rawPaths(files.stdout).map(decodePath));
  return {
    carried: ita.filter((p) => present.has(decodePath(p))),
    deleted: ita.map(decodePath).filter((p) => !present.has(p)),
  };
}

/**
 * The parent's skip-worktree entries whose file is absent (a sparse checkout's paths outside
 * its patterns), as raw path bytes. The seed's working tree lacks them, as the parent's
 * does, while its index tree holds them; the child's entries get the same bit, so that git
 * judges them by the index there too and the child's status is the parent's.
 *
 * @param top The parent's top level.
 * @param files The seed's working-tree entries.
 * @returns The paths.
 */
async function skippedAbsent(
  top: string,
  files: ReadonlyMap<string, RawEntry>,
): Promise<Uint8Array[]> {
  const listing = await runGit(["ls-files", "-z", "-v"], { cwd: top, parse: true });
  return rawPaths(listing.stdout).filter((record) =>
    (record[0] === 0x53 || record[0] === 0x73) && record[1] === 0x20 && // `S ` or `s `
    !files.has(decodePath(record.subarray(2)))
  ).map((record) => record.slice(2));
}

/** The paths of the gitlinks (submodules) among a tree's entries. */
function gitlinksOf(files: ReadonlyMap<string, RawEntry>): string[] {
  return [...files].filter(([, entry]) => entry.mode === "160000").map(([path]) => path);
}

/**
 * The submodules checked out at another commit than the parent's index records (`git status`
 * shows ` M sm`). The seed's working tree holds the checked-out commit and its index tree
 * the recorded one; a child's gitlink checks out as an empty directory, which git reads as
 * the index's commit, so no worktree can hold both.
 *
 * @param top The parent's top level.
 * @param index The seed's index tree.
 * @param files The seed's working-tree entries.
 * @returns The paths, in order.
 */
async function movedSubmodules(
  top: string,
  index: string,
  files: ReadonlyMap<string, RawEntry>,
): Promise<string[]> {
  const gitlinks = gitlinksOf(files);
  if (gitlinks.length === 0) return [];
  const listing = await runGit(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", index], {
    cwd: top,
    parse: true,
  });
  const recorded = new Map<string, string>();
  for (const record of decodePaths(listing.stdout)) {
    const m = /^160000 commit ([0-9a-f]+)\t([\s\S]*)$/.exec(record);
    if (m) recorded.set(m[2]!, m[1]!);
  }
  return gitlinks.filter((path) => recorded.get(path) !== files.get(path)!.oid);
}

/** Whether a directory exists, asked of git (tether has no file access). */
async function dirExists(dir: string): Promise<boolean> {
  const r = await runGit(["rev-parse", "--is-inside-work-tree"], {
    cwd: dir,
    parse: true,
    allowFailure: true,
    neutralStart: true,
  });
  return !/cannot change to/.test(r.stderr);
}

/**
 * The directories `git worktree add` will create for `dirs` (real paths: each missing
 * directory and its missing ancestors), deepest first, so a failed spawn can remove them
 * again.
 */
async function missingDirs(dirs: readonly string[]): Promise<string[]> {
  // Every directory walks up at once; each one above them is asked about once.
  const asked = new Map<string, Promise<boolean>>();
  const exists = (dir: string) => {
    let probe = asked.get(dir);
    if (probe === undefined) asked.set(dir, probe = dirExists(dir));
    return probe;
  };
  const missing = new Set<string>();
  await Promise.all(dirs.map(async (dir) => {
    for (let d = dir; d !== dirname(d); d = dirname(d)) {
      if (await exists(d)) break;
      missing.add(d);
    }
  }));
  return [...missing].sort((a, b) => b.length - a.length);
}

/**
 * Remove empty directories with git alone: each becomes, for a moment, a linked worktree
 * of an empty commit (no checkout, so no hook runs), and `git worktree remove` without
 * `--force` deletes it only when nothing is in it. A directory that holds anything stays.
 */
export async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  if (dirs.length === 0) return;
  const fixed = {
    GIT_AUTHOR_NAME: "tether",
    GIT_AUTHOR_EMAIL: "tether@localhost",
    GIT_AUTHOR_DATE: "@0 +0000",
    GIT_COMMITTER_NAME: "tether",
    GIT_COMMITTER_EMAIL: "tether@localhost",
    GIT_COMMITTER_DATE: "@0 +0000",
  };
  const empty = await gitText(["mktree", "-z"], { stdin: "" });
  const commit = await gitText(["commit-tree", "-m", "tether: remove", "--end-of-options", empty], {
    env: fixed,
  });
  for (const dir of dirs) {
    if (!await dirExists(dir)) continue;
    const add = await runGit(
      ["worktree", "add", "--no-checkout", "--detach", "--end-of-options", dir, commit],
      { allowFailure: true },
    );
    if (add.code !== 0) break; // not empty: it and every directory above it stay
    const removed = await runGit(["worktree", "remove", "--end-of-options", dir], {
      allowFailure: true,
    });
    if (removed.code !== 0) break;
  }
  await runGit(["worktree", "prune"], { allowFailure: true });
}

/**
 * How `git worktree add` fails when another one is being made at the same moment: it reads
 * every linked worktree's admin files, and one still being written is empty (git 2.39 dies
 * with `failed to read …/worktrees/<id>/commondir`, having made nothing).
 */
const ADD_RACE = /failed to read .*worktrees\/[^\n]*\/(?:commondir|gitdir)/;

/**
 * `git worktree add --no-checkout --detach DIR HEAD`, tried again (a few times, after a
 * short pause) when it lost the race above to a concurrent spawn; one at a time within a
 * spawn, which is why a spawn's own adds never race.
 */
async function addWorktree(dir: string, head: string): Promise<void> {
  const args = ["worktree", "add", "--no-checkout", "--detach", "--end-of-options", dir, head];
  for (let attempt = 1;; attempt++) {
    try {
      return void await runGit(args);
    } catch (error) {
      const raced = error instanceof GitError && ADD_RACE.test(error.stderrTail);
      if (!raced || attempt >= 5) throw error;
    }
    await new Promise((done) => setTimeout(done, 20 * attempt + Math.random() * 30));
  }
}

/**
 * Claim the first free name `tether/<seed>-<n>` from `from` on: the branch at `head` and
 * its spawn ref at the seed, created together in one transaction that fails when either
 * exists, so concurrent spawns never share a name.
 */
async function claimBranch(seed: string, head: string, from: number) {
  for (let n = from; n < from + 1000; n++) {
    const name = branchName(seed, n);
    if (await createRefs([name], seed, head)) return { name, n };
  }
  throw new GitError("failed", "No free branch name for the worktree");
}

/**
 * Create the branches `names` at `head` and their spawn refs at the seed in one
 * transaction of `create` commands: all or none, none when any of them exists.
 */
async function createRefs(names: readonly string[], seed: string, head: string) {
  const stdin = names.map((name) =>
    `create refs/heads/${name} ${head}\n` + // tether:guard wt-create-only
    `create ${SPAWN_REF_PREFIX}${name.slice(BRANCH_PREFIX.length)} ${seed}\n`
  ).join("");
  const r = await runGit(["update-ref", "-m", "tether: spawn", "--stdin"], {
    stdin,
    allowFailure: true,
  });
  return r.code === 0;
}

/**
 * Claim a branch per child: `tether/<seed>-1` … `-<count>` in one transaction when all are
 * free (the usual case), else the first free names one at a time.
 */
async function claimBranches(seed: string, head: string, count: number): Promise<string[]> {
  const first = Array.from({ length: count }, (_, i) => branchName(seed, i + 1));
  if (await createRefs(first, seed, head)) return first;
  const names: string[] = [];
  for (let n = 1; names.length < count;) {
    const claimed = await claimBranch(seed, head, n);
    names.push(claimed.name);
    n = claimed.n + 1;
  }
  return names;
}

/** What every child is filled with once the parent's state is confirmed and recorded. */
interface Filling {
  /** The parent's state. */
  state: TreeState;
  /** The seed's working-tree entries (path → mode and raw id). */
  tracked: ReadonlyMap<string, RawEntry>;
  /** The parent's dirty fingerprint, as worktree mode takes it (src/worktree/carried_status.ts). */
  fp: string;
  /** The seed's gitlinks (submodules), whose own working tree no child gets. */
  gitlinks: readonly string[];
  /** The intent-to-add entries to carry. */
  ita: readonly Uint8Array[];
  /** The skip-worktree entries whose file the parent lacks, marked so in the child too. */
  skipped: readonly Uint8Array[];
  /** The branches claimed, one per child in order. */
  branches: readonly string[];
}

/** A promise settled from outside; a rejection nobody awaits is not an unhandled one. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Fill one child: check out the seed's working tree, then check that the files are exactly
 * its bytes (hashed raw, as the parent's were: {@linkcode checkoutModeDiffers} and
 * {@linkcode checkoutByteDiffers}, or for a tree with links or submodules the whole raw tree
 * written again and compared) while the index is set to the seed's index tree keeping stat
 * data and HEAD is attached to the branch; then check that the child's status has the
 * parent's fingerprint and the parent's directory exists in it.
 *
 * The files are first written from `early`, the working-tree tree of the parent's first
 * reading, while the parent is read again; once `final` has the confirmed state they are
 * written again from its tree when it is another one, so every check below is of the
 * confirmed state's checkout.
 */
async function fill(
  dir: string,
  index: number,
  early: Promise<string>,
  final: Promise<Filling>,
  prefix: string,
): Promise<SpawnedChild> {
  // The checkout and index calls obey nothing the shared .git says about filters, sparse
  // checkout, line ends or attribute files (land_config.ts): every filter it names is
  // pinned to none, as they are when the parent's files were hashed raw.
  const [pins, opts] = pinned(await readDrivers(dir), { cwd: dir }); // tether:guard wt-spawn-pins
  const checkout = (tree: string) =>
    runGit([...pins, "read-tree", "--reset", "-u", "--end-of-options", tree], opts);
  const first = await early;
  await checkout(first);
  const { state, tracked, fp, gitlinks, ita, skipped, branches } = await final;
  const branch = branches[index]!;
  if (state.worktree !== first) await checkout(state.worktree); // tether:guard wt-spawn-recheckout
  const modes = await checkoutModeDiffers(dir, tracked); // before the index changes
  const bytes = async () => {
    if (modes !== undefined) return await checkoutByteDiffers(dir, tracked, modes);
    const written = await rawTree(dir, tracked);
    return written === state.worktree ? [] : await changedPaths(dir, state.worktree, written);
  };
  const stage = async () => {
    // Index only (`-i`): the files were just written from the seed and are checked raw
    // above. git's own check would hash them with the attributes' conversions (a CRLF file
    // under `text eol=crlf` cleans to another blob than its raw bytes) and refuse them as
    // "not uptodate", though git itself considers the file clean.
    await runGit([...pins, "read-tree", "-m", "-i", "--end-of-options", state.index], opts); // tether:guard wt-spawn-stage-index-only
    if (skipped.length > 0) { // tether:guard wt-spawn-skip-worktree
      await runGit([...pins, "update-index", "-z", "--skip-worktree", "--stdin"], {
        ...opts,
        stdin: nulJoined(skipped),
      });
    }
    if (ita.length > 0) { // tether:guard wt-spawn-ita
      // The index tree holds each intent-to-add entry as an empty file (as `ls-files -s`
      // shows it); make it git's own intent-to-add entry again, the file left as it is.
      const paths = nulJoined(ita);
      await runGit([...pins, "update-index", "-z", "--force-remove", "--stdin"], {
        ...opts,
        stdin: paths,
      });
      await runGit(
        [...pins, "add", "-N", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"],
        { ...opts, stdin: paths, env: { ...opts.env, GIT_LITERAL_PATHSPECS: "1" } },
      );
    }
  };
  // Every call settles before the fill returns or throws: nothing runs in a worktree that a
  // failed spawn is removing.
  const [checked, staged, attached, where] = await Promise.allSettled([
    bytes(),
    stage(),
    runGit(["symbolic-ref", "HEAD", `refs/heads/${branch}`], { cwd: dir }),
    runGit(["rev-parse", "--show-toplevel"], {
      cwd: prefix === "" ? dir : `${dir}/${prefix}`,
      parse: true,
      allowFailure: true,
    }),
  ]);
  for (const step of [checked, staged, attached, where]) {
    if (step.status === "rejected") throw step.reason;
  }
  const paths = (checked as PromiseFulfilledResult<string[]>).value;
  if (paths.length > 0) { // tether:guard wt-spawn-bytes
    throw new GitError(
      "failed",
      `The worktree ${dir} does not hold the parent's files byte for byte at: ${
        listPaths(paths)
      } (line-ending, encoding or filter attributes rewrote them on checkout)`,
    );
  }
  // As the parent's fingerprint was read.
  const status = await runGit(STATUS_ARGS, { cwd: dir, env: STATUS_ENV, keepReplaceObjects: true });
  if (await carriedFingerprint(status.stdout, gitlinks) !== fp) {
    throw new GitError(
      "failed",
      `git status in ${dir} differs from the parent's (a clean filter or a setting of the repository's config shows the same files differently there): compare git status in both, then spawn again`,
    );
  }
  const found = (where as PromiseFulfilledResult<{ code: number; stdout: Uint8Array }>).value;
  const top = new TextDecoder().decode(found.stdout).replace(/\n$/, "");
  if (found.code !== 0 || !top) {
    throw new GitError(
      "failed",
      `The parent's directory "${prefix}" holds nothing git carries (only ignored or no files), so the worktree has no such directory`,
    );
  }
  return { path: top, branch, cwd: prefix === "" ? top : `${top}/${prefix}` };
}

/**
 * What git said of each directory it was started in, by path as spelled: its real path, or
 * `undefined` when git could not start there (it does not exist). Kept for one spawn, so
 * the children of one `--count` (`DIR/1` … `DIR/N`) ask about `DIR` and above once.
 */
type Probes = Map<string, Promise<string | undefined>>;

/**
 * A path's nearest existing directory, real (links followed), asked of git: tether has no
 * file access. Each directory from `absolute` up is tried with git started in it (a work
 * tree of `.` is made absolute and real); the missing rest is returned as spelled.
 */
async function realPrefix(
  absolute: string,
  gitDir: string,
  probes: Probes,
): Promise<[string, string[]]> {
  const rest: string[] = [];
  for (let d = absolute;; d = dirname(d)) {
    let probe = probes.get(d);
    if (probe === undefined) {
      probe = runGit(
        [`--git-dir=${gitDir}`, "--work-tree=.", "rev-parse", "--show-toplevel"],
        { cwd: d, parse: true, allowFailure: true },
      ).then((r) => {
        const real = new TextDecoder().decode(r.stdout).replace(/\n$/, "");
        return r.code === 0 && isAbsolute(real) ? real : undefined;
      });
      probes.set(d, probe);
    }
    const real = await probe;
    if (real !== undefined) return [real, rest];
    if (d === dirname(d)) return [d, rest];
    rest.unshift(basename(d));
  }
}

/** Separators of a path as written. */
const SEPARATORS = Deno.build.os === "windows" ? /[\\/]/ : /\//;

/**
 * A directory's real path as the kernel will reach it, with nothing folded lexically: the
 * path is walked as written, and a `..` goes up from the real path of what precedes it
 * (`elsewhere/link/../kids` is beside the link's target), or drops a component that does
 * not exist yet (which has no link to follow). The result is real up to its first missing
 * component, holds no `..`, and is what spawn checks, creates and gives to git.
 *
 * @param dir The directory as given (relative to the current directory or absolute).
 * @param gitDir The parent's git directory (git is started with it, never the child's).
 * @returns The real path, with the missing rest appended as spelled.
 */
async function realPath(dir: string, gitDir: string, probes: Probes): Promise<string> {
  const root = isAbsolute(dir) ? parse(dir).root : "";
  let spelled = root === "" ? Deno.cwd() : root;
  for (const part of dir.slice(root.length).split(SEPARATORS)) {
    if (part === "" || part === ".") continue;
    if (part !== "..") {
      spelled = join(spelled, part);
      continue;
    }
    const [real, rest] = await realPrefix(spelled, gitDir, probes);
    spelled = rest.length > 0 ? join(real, ...rest.slice(0, -1)) : dirname(real); // tether:guard wt-spawn-dotdot
  }
  const [real, rest] = await realPrefix(spelled, gitDir, probes);
  return join(real, ...rest);
}

/**
 * Refuse a worktree directory inside the parent's working tree that git does not ignore:
 * it would show in the parent's status and be recorded (as an embedded repository) in
 * the seed of every child. Each directory is compared by its real path, so a link to the
 * parent's tree (`plink/kids/c1`, `elsewhere/plink/../kids/c1`) is inside it too.
 *
 * @returns Each directory's real path ({@linkcode realPath}), in order.
 */
async function refuseInsideParent(dirs: readonly string[], top: string): Promise<string[]> {
  const gitDir = await gitText(["rev-parse", "--absolute-git-dir"], { cwd: top });
  const probes: Probes = new Map();
  const paths = await Promise.all(
    dirs.map((dir) => realPath(dir, gitDir, probes)), // tether:guard wt-spawn-real-dir
  );
  for (const [i, dir] of dirs.entries()) {
    const absolute = paths[i]!;
    if (!absolute.startsWith(`${top}/`)) continue;
    const relative = absolute.slice(top.length + 1);
    const ignored = await runGit(["check-ignore", "-q", "--", `${relative}/`], {
      cwd: top,
      allowFailure: true,
    });
    if (ignored.code !== 0) {
      const real = absolute === resolve(dir) ? "" : ` (its real path is "${absolute}")`;
      throw new GitError(
        "failed",
        `The worktree directory "${dir}" is inside the parent's working tree${real} and not ignored; put it outside, or in an ignored directory`,
      );
    }
  }
  return paths;
}

/**
 * Refuse a parent tree no worktree can carry: unmerged paths (no tree to record) or a
 * nested repository (a gitlink checks out as an empty directory), in one line naming the
 * paths. One `git status` whatever the tree holds.
 */
async function refuseUncarried(top: string): Promise<void> {
  const status = await runGit(
    ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"],
    { cwd: top, parse: true },
  );
  const refusal = spawnRefusal(status.stdout);
  if (refusal !== undefined) throw new GitError("failed", refusal); // GUARD:spawn-uncarried
}

/**
 * Make one linked worktree per directory, each holding the parent's exact state.
 *
 * @param dirs The directories (relative to the current directory or absolute); git
 * creates them and refuses one that exists and is not empty.
 * @param cwd The parent's directory (default: the current directory): a harness hook runs
 *   where the harness started it and is told the parent's directory in its payload.
 * @returns The parent's capture, its state, the seed and the children.
 * @throws {GitError} when git fails, the parent has unmerged paths or a nested repository
 * (refused before anything is made), HEAD moved, or a child's state is not the seed's; in
 * every case nothing made is left behind.
 */
export async function spawnWorktrees(dirs: readonly string[], cwd?: string): Promise<Spawn> {
  // The parent's repository, resolved once: every later call on the parent's side names it
  // (src/repo_pin.ts), whatever a running child writes into the shared .git meanwhile.
  await pinHere(cwd); // tether:guard wt-pin-spawn
  const parent = await parentLocation(cwd);
  const where = cwd === undefined ? FOR_BLOCK : { ...FOR_BLOCK, cwd };
  const made: { path: string; branch?: string }[] = [];
  let created: string[] = [];
  let seedRef: { ref: string; seed: string } | undefined;
  const rollback = async () => {
    await undo(made);
    await removeEmptyDirs(created); // tether:guard wt-spawn-remove-dirs
    if (seedRef) await dropSeedRef(seedRef.ref, seedRef.seed);
  };
  try {
    // Every directory is checked, created and given to git as its real path: what git makes
    // is what was checked, and a failed spawn removes exactly what it created.
    const paths = await refuseInsideParent(dirs, parent.top);
    const [first, , missing] = await Promise.all([
      captureLive(where),
      refuseUncarried(parent.top),
      missingDirs(paths),
    ]);
    created = missing;
    const targets: readonly string[] = paths; // tether:guard wt-spawn-real-add
    // The worktrees are added (one at a time) while the parent is captured: the capture's
    // scratch index is a fresh file of the object directory, which no other process uses.
    const adding = (async () => {
      for (const dir of targets) {
        await addWorktree(dir, first.parent_head);
        made.push({ path: dir });
      }
    })();
    // The children's files are written from the first reading of the parent's tree while
    // the parent is read again (`early`); every check of a child waits for the confirmed,
    // recorded state and its branches (`final`).
    const early = deferred<string>();
    const final = deferred<Filling>();
    const preparing = (async (): Promise<{ live: LiveTree; state: TreeState; seed: string }> => {
      const scratch = await seedIndexPath(parent.top);
      let live = first;
      let state: TreeState | undefined;
      let ita: IntentToAdd = { carried: [], deleted: [] };
      let skipped: Uint8Array[] = [];
      const files = new Map<string, RawEntry>();
      const left = new Set<string>(); // ignored by the user's ignore file, not by the repository
      for (let attempt = 1; state === undefined; attempt++) {
        files.clear();
        left.clear();
        const candidate = await captureState(parent.top, {
          indexFile: scratch,
          files,
          left,
          early: early.resolve,
        });
        const [entries, after, absent] = await Promise.all([
          intentToAdd(parent.top),
          captureLive(where),
          skippedAbsent(parent.top, files),
        ]);
        if (
          candidate.head === live.parent_head && after.parent_head === live.parent_head &&
          after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
        ) {
          state = candidate;
          ita = entries;
          skipped = absent;
        } else if (attempt >= 3) {
          throw new GitError("failed", "The parent's tree kept changing while it was captured");
        } else {
          live = after;
        }
      }
      await refuseLeftOut(left, parent.top); // tether:guard wt-spawn-left-out
      const moved = await movedSubmodules(parent.top, state.index, files);
      if (moved.length > 0) { // tether:guard wt-spawn-moved-submodule
        throw new GitError(
          "failed",
          `A submodule is checked out at another commit than the parent's index records, at ${
            listPaths(moved)
          }; a worktree cannot carry that (its submodules are not checked out): stage the move (git add -- PATH) or check the recorded commit out again (git submodule update -- PATH), then spawn again`,
        );
      }
      if (state.head !== first.parent_head) {
        throw new GitError("failed", "The parent's HEAD moved while the worktrees were made");
      }
      if (ita.deleted.length > 0) { // tether:guard wt-spawn-ita-deleted
        throw new GitError(
          "failed",
          `Intent-to-add entries (git add -N) whose file is deleted cannot be carried into a worktree: ${
            listPaths(ita.deleted)
          }; restore the file, or drop the entry with git rm --cached -- PATH, and spawn again`,
        );
      }
      // The seed ref is this spawn's to remove on failure only when it did not exist before.
      const expected = await seedId(state, await objectFormat());
      const before = await runGit(
        ["rev-parse", "--verify", "-q", `${SEED_REF_PREFIX}${expected}`],
        { allowFailure: true },
      );
      const seed = await writeSeed(parent.top, state);
      if (before.code !== 0 && seed === expected) { // tether:guard wt-spawn-own-seed
        seedRef = { ref: `${SEED_REF_PREFIX}${seed}`, seed };
      }
      await adding;
      const branches = await claimBranches(seed, state.head, made.length);
      made.forEach((child, i) => child.branch = branches[i]!);
      const gitlinks = gitlinksOf(files);
      live = { ...live, parent_dirty_fingerprint: await carriedFingerprint(live.status, gitlinks) };
      final.resolve({
        state,
        tracked: files,
        fp: live.parent_dirty_fingerprint,
        gitlinks,
        ita: ita.carried,
        skipped,
        branches,
      });
      return { live, state, seed };
    })();
    // At most one fill per core at a time; after a failure no new one starts, and every
    // started one settles (as do the adds and the capture) before any undo, so nothing is
    // written into a worktree being removed.
    let failed: { reason: unknown } | undefined;
    preparing.catch((reason) => {
      failed ??= { reason };
      early.reject(reason);
      final.reject(reason);
    });
    const [added] = await Promise.allSettled([adding]);
    const children = added.status === "rejected" ? [] : await mapBounded(
      made,
      FILL_CONCURRENCY,
      async (child, i) => {
        if (failed) return undefined;
        try {
          return await fill(child.path, i, early.promise, final.promise, parent.prefix);
        } catch (reason) {
          failed ??= { reason };
          return undefined;
        }
      },
    );
    const [prepared] = await Promise.allSettled([preparing]);
    if (added.status === "rejected") throw added.reason;
    if (prepared.status === "rejected") throw prepared.reason;
    if (failed) throw failed.reason;
    const { live, state, seed } = prepared.value;
    return { live, state, seed, children: children as SpawnedChild[], rollback };
  } catch (error) {
    await rollback();
    throw error;
  }
}

/**
 * Delete a seed ref a failed spawn wrote, unless a spawn ref now points at the seed
 * (another spawn of the same state handed it to a child).
 */
export async function dropSeedRef(ref: string, seed: string): Promise<void> {
  const users = await runGit(
    ["for-each-ref", "--format=%(refname)", `--points-at=${seed}`, SPAWN_REF_PREFIX],
    { allowFailure: true },
  );
  if (users.code !== 0 || users.stdout.length > 0) return;
  await runGit(["update-ref", "-d", ref, seed], { allowFailure: true }); // tether:guard wt-spawn-drop-seed
}

/**
 * Record the parent's exact state as a seed, for a worktree a harness makes itself.
 *
 * @param cwd The parent's directory (default: the current directory).
 * @returns The parent's capture, its state and the seed.
 * @throws {GitError} when git fails or the tree kept changing.
 */
export async function seedParent(cwd?: string): Promise<Omit<Spawn, "children">> {
  const parent = await parentLocation(cwd);
  const where = cwd === undefined ? FOR_BLOCK : { ...FOR_BLOCK, cwd };
  for (let attempt = 1;; attempt++) {
    const live = await captureLive(where);
    const left = new Set<string>();
    const files = new Map<string, RawEntry>();
    const state = await captureState(parent.top, { left, files });
    await refuseLeftOut(left, parent.top); // tether:guard wt-seed-left-out
    const after = await captureLive(where);
    if (
      state.head === live.parent_head && after.parent_head === live.parent_head &&
      after.parent_dirty_fingerprint === live.parent_dirty_fingerprint
    ) {
      // The block carries worktree mode's fingerprint, as a spawned child's does.
      const fp = await carriedFingerprint(live.status, gitlinksOf(files));
      return {
        live: { ...live, parent_dirty_fingerprint: fp },
        state,
        seed: await writeSeed(parent.top, state),
      };
    }
    if (attempt >= 3) {
      throw new GitError("failed", "The parent's tree kept changing while it was captured");
    }
  }
}
