/**
 * What a `gate --since` run reads of the live repository before it judges anything: the
 * status, the whole index, the spawn HEAD's and the live HEAD's trees compared (and the
 * snapshot's branch, when HEAD left it), and what every path of interest holds now. The
 * reads run side by side; whatever fails first, all have ended before gate does (no git
 * left running).
 *
 * @module
 */
import { type PathContent, readContents } from "../context/content.ts";
import { type ConversionSettings, readConversionSettings } from "../context/conversions.ts";
import type { StatusEntry } from "../context/porcelain.ts";
import type { GitSnapshot } from "../context/snapshot.ts";
import { readStatus } from "../context/status.ts";
import { runGit } from "../git.ts";
import { fitsArgv } from "../paths.ts";
import { plainPath } from "./changes.ts";
import type { EarlyReads } from "./early.ts";
import { identPaths } from "./ident.ts";
import { type CommitRead, GateError, type LiveRepo, readCommits } from "./repo.ts";
import { type IndexEntry, readIndex, stagedPaths, uncheckedEntries } from "./staged.ts";
import { compareTrees, type TreePair } from "./trees.ts";
import { type RepoDirs, repoDirs } from "../context/lstat.ts";

/** The live repository as observe judges it against the snapshot. */
export interface LiveState {
  /** The live status entries. */
  live: StatusEntry[];
  /** The repository's directories. */
  dirs: RepoDirs;
  /** The whole index. */
  index: IndexEntry[];
  /** Paths where the index differs from the live HEAD. */
  staged: string[];
  /** Index entries status does not compare, staged paths and paths under `ident`. */
  unchecked: string[];
  /** What status lists and `unchecked`: the paths read like listed ones. */
  livePaths: string[];
  /** The paths the snapshot records. */
  recorded: Set<string>;
  /** The paths read first: those the snapshot records and the child claims. */
  known: string[];
  /** What the `known` paths hold now (awaited by {@linkcode readNow}). */
  first: Promise<Map<string, PathContent>>;
  /** The conversion settings no file shows, to compare with the spawn's (awaited later). */
  conversions: Promise<ConversionSettings>;
  /** The spawn HEAD's tree and the live HEAD's (null on an unborn branch). */
  pair: [string | null, string | null];
  /** The two trees compared, with the snapshot branch's leaves where HEAD left it. */
  trees: TreePair;
  /** The spawn tree compared with the snapshot's branch, when HEAD is elsewhere. */
  onBranch: TreePair | undefined;
}

/** The reads observe starts at once, and a wrapper that ends them all before a failure. */
interface Started {
  first: Promise<Map<string, PathContent>>;
  commits: Promise<Map<string, CommitRead>>;
  dirs: Promise<RepoDirs>;
  index: Promise<IndexEntry[]>;
  ident: Promise<string[]>;
  conversions: Promise<ConversionSettings>;
  trees: Promise<{ pair: [string | null, string | null]; trees: TreePair }>;
  staged: Promise<string[]>;
  /** `p`, or once every read above has settled, its failure. */
  settled: <T>(p: Promise<T>) => Promise<T>;
}

/**
 * Read the live repository against the snapshot's git part.
 *
 * @param repo The live repository.
 * @param git The snapshot's git part.
 * @param claimed The child's claims, canonical.
 * @param evidencePaths The paths file evidence cites.
 * @param early The reads `gate --since` started early, when it did.
 * @returns The live state.
 * @throws {GateError} when a HEAD is forged or gone, or HEAD moved while gate read.
 */
export async function readLive(
  repo: LiveRepo,
  git: GitSnapshot,
  claimed: readonly string[],
  evidencePaths: readonly string[],
  early: EarlyReads | undefined,
): Promise<LiveState> {
  const spawnPaths = git.entries.map((e) => plainPath(e.path));
  // What the paths the snapshot records and the child claims hold now is read while the
  // live status and the trees are: nothing about them depends on either. The other paths
  // (listed now, or differing between the trees) are read once those are known.
  const known = [...new Set([...spawnPaths, ...claimed])];
  // The trees are compared while status runs too. A path the snapshot records is judged by
  // its record alone; the trees' leaves are wanted for the others: the claims and the
  // evidence now, the live paths the snapshot does not record once status has listed them
  // (the paths that differ between the trees come anyway).
  const wantedFirst = new Set([...claimed, ...evidencePaths]);
  const reads = startReads(repo, git, known, wantedFirst, early);
  const { settled } = reads;
  const [live, , dirs, index, staged, ident] = await settled(Promise.all([
    early?.status.then((s) => s ?? readStatus(repo.top)) ?? readStatus(repo.top),
    reads.commits,
    reads.dirs,
    reads.index,
    reads.staged,
    reads.ident,
  ]));
  // Entries status does not compare with the worktree, or with HEAD, as they are, and paths
  // under `ident`: read like listed ones.
  const unchecked = [...new Set([...uncheckedEntries(index), ...staged, ...ident])]; // tether:guard gate-ident-read
  await headStill(repo, settled);
  const livePaths = [...new Set([...live.map((e) => plainPath(e.path)), ...unchecked])];
  const recorded = new Set(spawnPaths);
  const trees = await settled(withLeaves(repo, reads.trees, livePaths, recorded, wantedFirst));
  const onBranch = await branchTrees(repo, git, reads.trees, settled);
  for (const [path, leaf] of onBranch?.before ?? []) trees.before.set(path, leaf);
  const { pair } = await reads.trees;
  return {
    live,
    dirs,
    index,
    staged,
    unchecked,
    livePaths,
    recorded,
    known,
    first: reads.first,
    conversions: reads.conversions,
    pair,
    trees,
    onBranch,
  };
}

/** Start the reads that depend on nothing gate decides (each awaited after what may fail first). */
function startReads(
  repo: LiveRepo,
  git: GitSnapshot,
  known: readonly string[],
  wantedFirst: ReadonlySet<string>,
  early: EarlyReads | undefined,
): Started {
  const heads = [git.head, repo.head].filter((h): h is string => h !== null);
  const dirs = early?.dirs.then((d) => d ?? repoDirs(repo.top)) ?? repoDirs(repo.top);
  const first = dirs.then((d) => readContents(repo.top, d.commonDir, d.format, known));
  first.catch(() => {}); // awaited below, after what may fail first
  const commits = readCommits(repo.top, heads, repo.format);
  // The whole index, for the entries status does not compare with the worktree and for
  // what it holds that HEAD does not (status trusts caches a child can rewrite for that).
  const index = readIndex(repo.top);
  index.catch(() => {}); // awaited below
  // Paths under `ident`: git's view of them collapses what a child writes inside `$Id: … $`.
  const ident = index.then((ix) =>
    identPaths(repo.top, [...new Set(ix.filter((e) => e.stage === 0).map((e) => e.path))])
  );
  ident.catch(() => {}); // awaited below
  // The conversion settings no file shows, to compare with the spawn's.
  const conversions = dirs.then((d) => readConversionSettings(repo.top, d.commonDir));
  conversions.catch(() => {}); // awaited below
  const trees = commits.then((read) => {
    const pair: [string | null, string | null] = [
      treeOf(read, git.head, "the snapshot's"),
      treeOf(read, repo.head, "the live"),
    ];
    return compareTrees(repo.top, repo.format, ...pair, wantedFirst).then((t) => ({
      pair,
      trees: t,
    }));
  });
  trees.catch(() => {}); // awaited below, after what may fail first
  // Whatever fails first, the early reads have ended before gate does (no git left running).
  // Paths where the index differs from the live HEAD, found without the cache-tree or
  // unchecked tree objects status uses, which a child can rewrite to hide what it staged:
  // read like listed ones.
  const staged = Promise.all([trees, index]).then(([{ pair }, entries]) =>
    stagedPaths(repo.top, repo.format, pair[1], entries)
  );
  staged.catch(() => {}); // awaited below
  const settled = <T>(p: Promise<T>): Promise<T> =>
    p.catch(async (error) => {
      await Promise.allSettled([first, trees, index, staged, ident, conversions]);
      throw error;
    });
  return { first, commits, dirs, index, ident, conversions, trees, staged, settled };
}

/** A HEAD's tree, from its commit as read; null for no HEAD. */
function treeOf(
  commits: Map<string, CommitRead>,
  head: string | null,
  whose: string,
): string | null {
  if (head === null) return null;
  const read = commits.get(head);
  if (read?.kind === "commit") return read.tree;
  throw new GateError(
    read?.kind === "forged"
      ? `Cannot evaluate: ${whose} HEAD "${head}" does not hash to its id (the object store was altered)`
      : `Cannot evaluate: ${whose} HEAD "${head}" is no longer in this repository`,
  );
}

/** Refuse to go on when HEAD is no longer where it was when gate opened the repository. */
async function headStill(repo: LiveRepo, settled: Started["settled"]): Promise<void> {
  // HEAD read again once status has ended: a commit between the two readings (a sibling's,
  // or a job the child left running) would pair the old HEAD's tree with a status taken
  // after the commit, and what it committed would be seen nowhere.
  const headAfter = await settled(readHead(repo.top));
  if (headAfter !== repo.head) { // tether:guard gate-head-still
    throw new GateError(
      `Cannot evaluate: HEAD moved while gate read the tree (from ${repo.head ?? "no commit"} to ${
        headAfter ?? "no commit"
      }): run gate again once nothing commits in this worktree`,
    );
  }
}

/** HEAD's commit id now, or null on an unborn branch. */
async function readHead(top: string): Promise<string | null> {
  const head = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
    cwd: top,
    parse: true,
    allowFailure: true,
  });
  return head.code === 0 ? new TextDecoder().decode(head.stdout).trim() : null;
}

/**
 * The trees compared, with the leaves of the live paths that neither the snapshot records
 * nor the first comparison asked for.
 */
async function withLeaves(
  repo: LiveRepo,
  treesFirst: Started["trees"],
  livePaths: readonly string[],
  recorded: ReadonlySet<string>,
  wantedFirst: ReadonlySet<string>,
): Promise<TreePair> {
  const { pair, trees } = await treesFirst;
  const more = livePaths.filter((p) => !recorded.has(p) && !wantedFirst.has(p));
  if (more.length === 0) return trees;
  const leaves = await compareTrees(repo.top, repo.format, ...pair, more, false);
  for (const [path, leaf] of leaves.before) trees.before.set(path, leaf);
  for (const [path, leaf] of leaves.after) trees.after.set(path, leaf);
  return trees;
}

/** The spawn tree compared with the tip of the snapshot's branch, when HEAD is no longer there. */
async function branchTrees(
  repo: LiveRepo,
  git: GitSnapshot,
  treesFirst: Started["trees"],
  settled: Started["settled"],
): Promise<TreePair | undefined> {
  // What the branch holds is what a parent that goes back to it gets: a commit left on it
  // while HEAD is detached at the spawn must be seen.
  const branchTip = await settled(
    readBranchTip(repo.top, git.ref === undefined ? git.branch : git.ref, git.head, repo.head),
  );
  return branchTip === null ? undefined : await settled((async () => {
    const commits = await readCommits(repo.top, [branchTip], repo.format);
    const spawnTree = (await treesFirst).pair[0];
    return await compareTrees(
      repo.top,
      repo.format,
      spawnTree,
      treeOf(commits, branchTip, `the branch ${JSON.stringify(git.branch)}'s`),
      [],
    );
  })());
}

/**
 * The commit the snapshot's branch names now, when it is neither the live HEAD nor the
 * spawn's (nothing to compare otherwise), else null. A branch that is gone, or a detached
 * spawn, is null: nothing a parent would go back to.
 */
async function readBranchTip(
  top: string,
  branch: string | null,
  spawnHead: string | null,
  liveHead: string | null,
): Promise<string | null> {
  // A full ref (newer snapshots), or the abbreviated name older ones recorded.
  const ref = branch === null || branch === "HEAD" || branch === ""
    ? null
    : branch.startsWith("refs/")
    ? branch
    : `refs/heads/${branch}`;
  if (ref === null || !fitsArgv(ref)) return null;
  const r = await runGit(
    ["rev-parse", "--verify", "-q", "--end-of-options", `${ref}^{commit}`],
    { cwd: top, parse: true, allowFailure: true },
  );
  const tip = r.code === 0 ? new TextDecoder().decode(r.stdout).trim() : null;
  return tip === null || tip === liveHead || tip === spawnHead ? null : tip;
}

/**
 * What every path of interest holds now: those read first, and the rest status or the
 * trees named (listed now, or differing between the trees or on the branch).
 *
 * @param repo The live repository.
 * @param state The live state.
 * @returns Each path → what it holds, read directly.
 */
export async function readNow(
  repo: LiveRepo,
  state: LiveState,
): Promise<Map<string, PathContent>> {
  const read = new Set(state.known);
  const differ = [...state.trees.differ, ...state.onBranch?.differ ?? []];
  const others = [...new Set([...state.livePaths, ...differ])].filter((p) => !read.has(p));
  const reads = await Promise.allSettled([
    state.first,
    others.length === 0
      ? new Map<string, PathContent>()
      : readContents(repo.top, state.dirs.commonDir, state.dirs.format, others),
  ]);
  for (const r of reads) if (r.status === "rejected") throw r.reason;
  return new Map(reads.flatMap((r) => r.status === "fulfilled" ? [...r.value] : []));
}
