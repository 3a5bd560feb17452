/**
 * The evidence gate (seed 001 with seed 004's observed changes): from the child's
 * `SubagentResult` text and, optionally, the spawn snapshot, reach a verdict.
 *
 * @module
 */
import { ownWords } from "../git_failure.ts";
import type { SubagentResult } from "../contract/schemas.ts";
import type { WorkingContextSnapshot } from "../context/snapshot.ts";
import { readStatus, repoDirs } from "../context/status.ts";
import {
  contentKey,
  type PathContent,
  readContents,
  readConversionAttributes,
  readFilteredIds,
} from "../context/content.ts";
import { type ConversionSettings, readConversionSettings } from "../context/conversions.ts";
import { readDrivers } from "../context/filters.ts";
import { isFullOid, runGit } from "../git.ts";
import { releaseObject } from "../anchor.ts";
import { SNAPSHOT_ANCHOR, SNAPSHOT_HEAD_ANCHOR } from "../context/capture.ts";
import {
  canonicalClaim,
  type ChangeReport,
  classifyChanges,
  observedChanges,
  plainPath,
} from "./changes.ts";
import {
  type CheckedEvidence,
  checkEvidence,
  type EvidenceFinding,
  evidencePath,
  type FileInspector,
  isCheckable,
  type SpawnState,
  UNKNOWN_WHY,
} from "./evidence.ts";
import {
  type CommitRead,
  GateError,
  inspectWorktreeFiles,
  type LiveRepo,
  openRepo,
  readBlob,
  readCommits,
} from "./repo.ts";
import { readResult } from "./result.ts";
import { attributeFilesSame } from "./attribute_files.ts";
import { conversionOf } from "./conversion_rules.ts";
import { compareTrees, type TreePair } from "./trees.ts";
import { readObjects } from "./objects.ts";
import { fitsArgv } from "../paths.ts";
import {
  autoConverts,
  type CheckoutForms,
  checkoutForms,
  checkoutIds,
  identPaths,
} from "./ident.ts";
import { readIndex, stagedPaths, uncheckedEntries } from "./staged.ts";
import { REGULAR_MODES } from "../context/porcelain.ts";
import { pathSetDigest, skipWorktreePaths } from "../context/sparse.ts";
import { explained, type Held, spawnIndexVersion, spawnWorktreeVersion } from "./versions.ts";
import { parseSnapshot } from "./snapshot_schema.ts";
import { type EarlyReads, takeEarly } from "./early.ts";

/** The verdict document `gate --json` prints (SPEC §5). */
export interface GateReport {
  /** `accept` only when nothing below is wrong. */
  verdict: "accept" | "reject";
  /** Why it was rejected, or notes; one sentence each. */
  reasons: string[];
  /** Each evidence item with its status. */
  evidence: CheckedEvidence[];
  /** Observed-vs-claimed changes, only with `--since`. */
  changes?: ChangeReport;
  /** What the parent should merge into its recent files: confirmed changes, then its own. */
  recent_files: string[];
  /** Problems after the verdict (a failed `--done` release); printed on stderr, not in JSON. */
  warnings?: string[];
}

/** How to evaluate. */
export interface GateOptions {
  /** The spawn snapshot id (`--since`), syntax-checked by the caller. */
  since?: string;
  /** Accept `ok: true` whose evidence is all of kinds gate cannot check. */
  acceptUnverified?: boolean;
  /** The parent is done with the snapshot: remove its anchor once the verdict is reached. */
  done?: boolean;
  /** Where to evaluate; defaults to the current directory (the library's callers). */
  cwd?: string;
  /** How file evidence is looked at, instead of git in the worktree. */
  inspect?: FileInspector;
  /**
   * What was true at spawn when the caller knows it without a snapshot (`gate --worktree`:
   * the child's seed, changes and commits since); ignored with `since`.
   */
  spawn?: SpawnState;
}

/** A message as the tail of a reason: its first letter in lower case ("Path is …" → "path is …"). */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}

/**
 * For paths whose bytes differ from the spawn HEAD's blob: when they are what a checkout of
 * that blob writes under the conversions `forms` allows ({@linkcode checkoutIds}), record
 * the blob as their filtered id, which proves them unchanged. The blobs come through one
 * `git cat-file --batch`, each checked against its id.
 */
async function proveCheckouts(
  repo: LiveRepo,
  now: Map<string, PathContent>,
  paths: readonly string[],
  trees: TreePair,
  forms: (path: string) => CheckoutForms,
): Promise<void> {
  const wanted = paths.filter((p) => {
    const content = now.get(p);
    const leaf = trees.before.get(p);
    const { ident, crlf } = forms(p);
    return (ident || crlf) && content?.kind === "file" && leaf !== undefined &&
      REGULAR_MODES.has(leaf.mode) && content.raw !== leaf.oid && content.filtered !== leaf.oid;
  });
  if (wanted.length === 0) return;
  const blobs = await readObjects(
    repo.top,
    wanted.map((p) => trees.before.get(p)!.oid),
    repo.format,
  );
  for (const path of wanted) {
    const oid = trees.before.get(path)!.oid;
    const blob = blobs.get(oid);
    const content = now.get(path);
    if (blob?.kind !== "ok" || blob.type !== "blob" || content?.kind !== "file") continue;
    if ((await checkoutIds(blob.content, oid, repo.format, forms(path))).includes(content.raw)) {
      content.filtered = oid;
    }
  }
}

/**
 * The paths among `paths` whose bytes are what some checkout of the spawn HEAD's blob
 * writes (`checkoutForms`: CRLF, `$Id$` expanded, UTF-16), read through one
 * `git cat-file --batch`, each blob checked against its id.
 */
async function checkoutLike(
  repo: LiveRepo,
  now: Map<string, PathContent>,
  paths: readonly string[],
  trees: TreePair,
): Promise<string[]> {
  if (paths.length === 0) return [];
  const blobs = await readObjects(
    repo.top,
    paths.map((p) => trees.before.get(p)!.oid),
    repo.format,
  );
  const out: string[] = [];
  for (const path of paths) {
    const oid = trees.before.get(path)!.oid;
    const blob = blobs.get(oid);
    const content = now.get(path);
    if (blob?.kind !== "ok" || blob.type !== "blob" || content?.kind !== "file") continue;
    if ((await checkoutForms(blob.content, oid, repo.format)).includes(content.raw)) out.push(path);
  }
  return out;
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

/** The snapshot and what changed since it. */
async function observe(
  repo: LiveRepo,
  since: string,
  claimed: readonly string[],
  evidencePaths: readonly string[],
  early: EarlyReads | undefined,
): Promise<
  {
    snapshot: WorkingContextSnapshot;
    observed: string[];
    held: string[];
    unknown: string[];
    spawn: SpawnState;
  }
> {
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
  const heads = [git.head, repo.head].filter((h): h is string => h !== null);
  const spawnPaths = git.entries.map((e) => plainPath(e.path));
  const dirsRead = early?.dirs.then((d) => d ?? repoDirs(repo.top)) ?? repoDirs(repo.top);
  // What the paths the snapshot records and the child claims hold now is read while the
  // live status and the trees are: nothing about them depends on either. The other paths
  // (listed now, or differing between the trees) are read once those are known.
  const known = [...new Set([...spawnPaths, ...claimed])];
  const first = dirsRead.then((d) => readContents(repo.top, d.commonDir, d.format, known));
  first.catch(() => {}); // awaited below, after what may fail first
  const commitsRead = readCommits(repo.top, heads, repo.format);
  // The whole index, for the entries status does not compare with the worktree and for
  // what it holds that HEAD does not (status trusts caches a child can rewrite for that).
  const indexRead = readIndex(repo.top);
  indexRead.catch(() => {}); // awaited below
  // Paths under `ident`: git's view of them collapses what a child writes inside `$Id: … $`.
  const identRead = indexRead.then((ix) =>
    identPaths(repo.top, [...new Set(ix.filter((e) => e.stage === 0).map((e) => e.path))])
  );
  identRead.catch(() => {}); // awaited below
  // The conversion settings no file shows, to compare with the spawn's.
  const conversionsRead = dirsRead.then((d) => readConversionSettings(repo.top, d.commonDir));
  conversionsRead.catch(() => {}); // awaited below
  const tree = (
    commits: Map<string, CommitRead>,
    head: string | null,
    whose: string,
  ): string | null => {
    if (head === null) return null;
    const read = commits.get(head);
    if (read?.kind === "commit") return read.tree;
    throw new GateError(
      read?.kind === "forged"
        ? `Cannot evaluate: ${whose} HEAD "${head}" does not hash to its id (the object store was altered)`
        : `Cannot evaluate: ${whose} HEAD "${head}" is no longer in this repository`,
    );
  };
  // The trees are compared while status runs too. A path the snapshot records is judged by
  // its record alone; the trees' leaves are wanted for the others: the claims and the
  // evidence now, the live paths the snapshot does not record once status has listed them
  // (the paths that differ between the trees come anyway).
  const wantedFirst = new Set([...claimed, ...evidencePaths]);
  const treesFirst = commitsRead.then((commits) => {
    const pair: [string | null, string | null] = [
      tree(commits, git.head, "the snapshot's"),
      tree(commits, repo.head, "the live"),
    ];
    return compareTrees(repo.top, repo.format, ...pair, wantedFirst).then((t) => ({
      pair,
      trees: t,
    }));
  });
  treesFirst.catch(() => {}); // awaited below, after what may fail first
  // Whatever fails first, the early reads have ended before gate does (no git left running).
  // Paths where the index differs from the live HEAD, found without the cache-tree or
  // unchecked tree objects status uses (review gate-5, findings 1 and 2): read like listed ones.
  const stagedRead = Promise.all([treesFirst, indexRead]).then(([{ pair }, index]) =>
    stagedPaths(repo.top, repo.format, pair[1], index)
  );
  stagedRead.catch(() => {}); // awaited below
  const settled = <T>(p: Promise<T>): Promise<T> =>
    p.catch(async (error) => {
      await Promise.allSettled([
        first,
        treesFirst,
        indexRead,
        stagedRead,
        identRead,
        conversionsRead,
      ]);
      throw error;
    });
  const [live, , dirs, index, staged, ident] = await settled(Promise.all([
    early?.status.then((s) => s ?? readStatus(repo.top)) ?? readStatus(repo.top),
    commitsRead,
    dirsRead,
    indexRead,
    stagedRead,
    identRead,
  ]));
  // Entries status does not compare with the worktree, or with HEAD, as they are, and paths
  // under `ident`: read like listed ones.
  const unchecked = [...new Set([...uncheckedEntries(index), ...staged, ...ident])]; // tether:guard gate-ident-read
  // HEAD read again once status has ended: a commit between the two readings (a sibling's,
  // or a job the child left running) would pair the old HEAD's tree with a status taken
  // after the commit, and what it committed would be seen nowhere (review verify-2, F3).
  const headAfter = await settled(readHead(repo.top));
  if (headAfter !== repo.head) { // tether:guard gate-head-still
    throw new GateError(
      `Cannot evaluate: HEAD moved while gate read the tree (from ${repo.head ?? "no commit"} to ${
        headAfter ?? "no commit"
      }): run gate again once nothing commits in this worktree`,
    );
  }
  const livePaths = [...new Set([...live.map((e) => plainPath(e.path)), ...unchecked])];
  const recorded = new Set(spawnPaths);
  const trees = await settled((async () => {
    const { pair, trees } = await treesFirst;
    const more = livePaths.filter((p) => !recorded.has(p) && !wantedFirst.has(p));
    if (more.length === 0) return trees;
    const leaves = await compareTrees(repo.top, repo.format, ...pair, more, false);
    for (const [path, leaf] of leaves.before) trees.before.set(path, leaf);
    for (const [path, leaf] of leaves.after) trees.after.set(path, leaf);
    return trees;
  })());
  // The branch the snapshot names, when it no longer is where HEAD is: what it holds is
  // what a parent that goes back to it gets (a commit on it, then HEAD detached at the
  // spawn; review gate-8, finding 5). Its tree is compared with the spawn's too.
  const branchTip = await settled(
    readBranchTip(repo.top, git.ref === undefined ? git.branch : git.ref, git.head, repo.head),
  );
  const onBranch = branchTip === null ? undefined : await settled((async () => {
    const commits = await readCommits(repo.top, [branchTip], repo.format);
    const spawnTree = (await treesFirst).pair[0];
    return await compareTrees(
      repo.top,
      repo.format,
      spawnTree,
      tree(commits, branchTip, `the branch ${JSON.stringify(git.branch)}'s`),
      [],
    );
  })());
  for (const [path, leaf] of onBranch?.before ?? []) trees.before.set(path, leaf);
  const indexByPath = new Map(index.filter((e) => e.stage === 0).map((e) => [e.path, e]));
  const spawnEntry = new Map(git.entries.map((e) => [plainPath(e.path), e]));
  // What a path held at spawn, in the spawn HEAD and in the index.
  const spawnVersions = (path: string): (Held | undefined)[] => [
    trees.before.get(path) ?? "absent",
    spawnIndexVersion(spawnEntry.get(path), repo.format),
    spawnWorktreeVersion(spawnEntry.get(path)),
  ];
  // Whether the worktree holds the bytes it held at spawn (only then does what it holds
  // now explain an index entry or a HEAD leaf).
  const unchanged = (path: string): boolean => {
    const content = now?.get(path);
    if (content === undefined) return false;
    const record = spawnEntry.get(path)?.content;
    if (record !== undefined) return record === contentKey(content);
    const leaf = trees.before.get(path);
    if (leaf === undefined) return content.kind === "absent";
    return content.kind !== "absent" && content.kind !== "special" && content.raw === leaf.oid;
  };
  let staging = new Map<string, Held>();
  let committed = new Map<string, Held>();
  const unknown = new Set<string>();
  let now: Map<string, PathContent> | undefined;
  try {
    const read = new Set(known);
    const others = [...new Set([...livePaths, ...trees.differ, ...onBranch?.differ ?? []])]
      .filter((p) => !read.has(p));
    const reads = await Promise.allSettled([
      first,
      others.length === 0
        ? new Map<string, PathContent>()
        : readContents(repo.top, dirs.commonDir, dirs.format, others),
    ]);
    for (const r of reads) if (r.status === "rejected") throw r.reason;
    now = new Map(reads.flatMap((r) => r.status === "fulfilled" ? [...r.value] : []));
    // An index entry that differs from the live HEAD and holds neither what the index held
    // at spawn nor what the worktree holds now is content the next commit would take that
    // no file shows (`git update-index --cacheinfo` with the worktree put back): a change.
    staging = new Map();
    for (const path of staged) {
      const entry = indexByPath.get(path);
      if (entry === undefined || !now.has(path)) continue;
      if (!explained(entry, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-index-content
        staging.set(path, entry);
      }
    }
    // Likewise a HEAD leaf (or a deletion) that changed since spawn and that neither the
    // spawn nor an unchanged worktree explains: the child's commit has content no file
    // shows (commit, then put the file back; commit a deletion, keep the file). Moving HEAD
    // to other commits lists what they hold, but confirms no claim (review gate-1, F3).
    committed = new Map();
    for (const path of trees.differ) {
      if (!now.has(path)) continue;
      const leaf = trees.after.get(path) ?? "absent";
      if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-commit-content
        committed.set(path, leaf);
      }
    }
    for (const path of onBranch?.differ ?? []) {
      if (!now.has(path) || committed.has(path)) continue;
      const leaf = onBranch!.after.get(path) ?? "absent";
      if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-branch-content
        committed.set(path, leaf);
      }
    }
    // A path that held the spawn HEAD's content (no status entry at spawn) and whose bytes
    // differ from its blob may hold what `git add` stores as it: a checkout wrote it with
    // CRLF, in an encoding, through a filter. git's reading (the filtered id) tells only
    // under the spawn's conversion settings: those no file shows are as recorded, and every
    // `.gitattributes` that applies is as it was (review gate-9). So may a path whose index
    // entry or HEAD leaf is unexplained (`git add` of a CRLF file).
    const judged = [...now].filter(([path, content]) => {
      const leaf = trees.before.get(path);
      return !recorded.has(path) && content.kind === "file" && leaf !== undefined &&
        REGULAR_MODES.has(leaf.mode) && leaf.oid !== content.raw;
    }).map(([path]) => path);
    const toFilter = [
      ...new Set([
        ...[...now].filter(([path, content]) =>
          !recorded.has(path) && content.kind === "file" &&
          trees.before.get(path)?.oid !== undefined &&
          trees.before.get(path)?.oid !== content.raw
        ).map(([path]) => path),
        ...staging.keys(),
        ...committed.keys(),
      ]),
    ].filter((p) => now!.get(p)?.kind === "file");
    // Paths whose bytes are the blob's own, where a checkout under the spawn's settings
    // re-encodes or filters them: the file may be what a checkout wrote before the attribute
    // came, or the child may have written the blob's bytes over the checkout's (review
    // gate-12, F2). Nothing tells.
    const blobBytes = [...now].filter(([path, content]) => {
      const leaf = trees.before.get(path);
      return !recorded.has(path) && content.kind === "file" && leaf !== undefined &&
        REGULAR_MODES.has(leaf.mode) && leaf.oid === content.raw;
    }).map(([path]) => path);
    // With the filter drivers the config defines: an attribute naming another runs nothing.
    const [settingsRead, defined] = await Promise.all([conversionsRead, readDrivers(repo.top)]);
    const settings: ConversionSettings = { ...settingsRead, drivers: new Set(defined.filters) };
    const filters = (a: { filter: boolean; driver?: string } | undefined) =>
      a?.filter === true && a.driver !== undefined && settings.drivers!.has(a.driver);
    const settingsSame = git.conversions !== undefined &&
      git.conversions === settings.key; // tether:guard gate-conversions-same
    // The attributes, and git's reading of every such file, are read while the attributes
    // files are compared; which ids count is decided once all three are known.
    const attributesRead = readConversionAttributes(
      repo.top,
      [...toFilter, ...blobBytes],
      dirs.commonDir,
    );
    // Under the settings read (a child still at work cannot flip them in between).
    const filteredRead = readFilteredIds(repo.top, toFilter, settings.pins);
    const comparing = settingsSame
      ? attributeFilesSame(repo, [...toFilter, ...judged], settings, {
        now,
        trees,
        pair: (await treesFirst).pair,
        spawnEntry,
        indexByPath,
        dirs,
      })
      : Promise.resolve(() => "changed" as const);
    // All end before any failure is thrown: no git is left running.
    await Promise.allSettled([comparing, attributesRead, filteredRead]);
    const [reading, attributes, filtered] = [
      await comparing,
      await attributesRead,
      await filteredRead,
    ];
    const asAtSpawn = (path: string) => settingsSame && reading(path) === "same"; // tether:guard gate-attributes-same
    for (const path of toFilter) {
      const content = now.get(path);
      const id = filtered?.get(path);
      // Not under `ident`: git collapses `$Id: … $`, so an edit inside one reads as the blob.
      if (content?.kind !== "file" || id === undefined || !asAtSpawn(path)) continue;
      if (!attributes.get(path)?.ident) content.filtered = id; // tether:guard gate-filtered-ident
    }
    // What the spawn's settings write for the `ident` files among them.
    const identFiles = judged.filter((p) => asAtSpawn(p) && attributes.get(p)?.ident);
    const lineEnds = await readConversionAttributes(repo.top, identFiles, dirs.commonDir, true);
    // Under `ident`, what a checkout writes is computed from the blob (git's reading
    // collapses `$Id: … $`), with CRLF where the spawn's settings write it; otherwise an
    // expanded keyword is the only form taken, whatever the attributes say now (line ends a
    // child may have rewritten are not: such a file cannot be told, review gate-8).
    await proveCheckouts(repo, now, judged, trees, (path) => {
      if (!asAtSpawn(path)) return { ident: true, crlf: false };
      const a = lineEnds.get(path);
      const ident = a?.ident ?? false;
      const crlf = a === undefined ? false : conversionOf(
        { ...a, filter: "unspecified", encoding: "unspecified", ident: "unspecified" },
        settings,
      ).crlf;
      return { ident, crlf: ident && crlf };
    });
    // What a path not shown unchanged holds may still be what a checkout of the blob wrote
    // under other settings (CRLF, `$Id$` expanded, UTF-16): the settings may have changed
    // before the spawn (`core.autocrlf` turned off after a CRLF checkout, an upstream commit
    // that drops `eol=crlf`), and git takes such a file for clean by its stat data, so the
    // snapshot has no record of it. Nothing then tells whether it changed (review gate-10,
    // F3, and gate-11, N1: a touch or an index-only step is no change).
    // Where the spawn's checkout was `text=auto` alone, a blob git takes for binary was written
    // as it is: its raw bytes tell (review gate-13, P2: `*.png binary` added while editing).
    const autoPaths = settingsSame
      ? judged.filter((p) =>
        reading(p) === "auto" && now!.get(p)?.kind === "file" &&
        (now!.get(p) as { filtered?: string }).filtered !== trees.before.get(p)!.oid
      )
      : [];
    const binaryBlobs = autoPaths.length === 0
      ? new Map()
      : await readObjects(repo.top, autoPaths.map((p) => trees.before.get(p)!.oid), repo.format);
    const rawTells = new Set(autoPaths.filter((p) => {
      const blob = binaryBlobs.get(trees.before.get(p)!.oid);
      return blob?.kind === "ok" && blob.type === "blob" && !autoConverts(blob.content);
    }));
    const suspects = judged.filter((path) => {
      const content = now!.get(path);
      if (content?.kind !== "file" || content.filtered === trees.before.get(path)!.oid) {
        return false;
      }
      const a = attributes.get(path);
      const told = settingsSame && (reading(path) === "identity" || rawTells.has(path)) ||
        asAtSpawn(path) && !filters(a) && (content.filtered !== undefined || a?.ident);
      if (!told) unknown.add(path); // tether:guard gate-unknown
      // git's own reading of an `ident` file collapses `$Id: … $`: the same as the blob, the
      // file differs from it inside such a keyword alone (the id a commit left stale, or an
      // edit hidden there), or in line ends, and nothing tells which.
      else if (a?.ident && filtered?.get(path) === trees.before.get(path)!.oid) { // tether:guard gate-ident-collapsed
        unknown.add(path);
        return false;
      }
      return told;
    });
    // Only where it decides something: a claim or file evidence. Any other such path is
    // listed as changed or as unknown alike (observed_unclaimed), and reading every blob of a
    // large change would cost what the rest of gate does.
    const decides = new Set([...claimed, ...evidencePaths]);
    const weighed = suspects.filter((p) => decides.has(p));
    for (const path of await checkoutLike(repo, now, weighed, trees)) { // tether:guard gate-checkout-like
      unknown.add(path);
    }
    for (const path of blobBytes) {
      const a = attributes.get(path);
      if (asAtSpawn(path) && (a?.encoding || filters(a))) unknown.add(path); // tether:guard gate-blob-bytes
    }
    for (const [path, entry] of staging) {
      if (explained(entry, spawnVersions(path), now.get(path), unchanged(path))) {
        staging.delete(path);
      }
    }
    for (const [path, leaf] of committed) {
      if (explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) {
        committed.delete(path);
      }
    }
  } catch (error) {
    if (error instanceof GateError) throw error;
    throw new GateError(`Cannot evaluate: ${ownWords(error).replace(/\s+/g, " ")}`);
  }
  // A skip-worktree entry that was one at spawn too and is absent is the sparse checkout's
  // normal state: git judges it by its index entry, and so does gate. When the set of such
  // entries changed since spawn, each is read as it is (review gate-6, finding 7).
  const skipped = skipWorktreePaths(index);
  if (git.skip_worktree !== undefined && git.skip_worktree === await pathSetDigest(skipped)) { // tether:guard gate-sparse-same
    for (const path of skipped) {
      const entry = indexByPath.get(path);
      // A path the snapshot records is judged by its record (absent then, absent now).
      if (entry === undefined || recorded.has(path) || now.get(path)?.kind !== "absent") continue;
      const kind = entry.mode === "120000"
        ? "symlink"
        : entry.mode === "160000"
        ? "gitlink"
        : "file";
      now.set(path, { kind, mode: entry.mode, raw: entry.oid, filtered: entry.oid });
    }
  }
  // A path gate cannot tell about is not observed: it confirms nothing and proves no work.
  const held = observedChanges(git.entries, live, now, trees, claimed, unchecked)
    .filter((p) => !unknown.has(p)); // tether:guard gate-unknown-held
  const observed = [...new Set([...held, ...staging.keys(), ...committed.keys()])].sort();
  // What existed at spawn: an entry's recorded content, else the spawn HEAD's leaf.
  const existed = new Set<string>(trees.before.keys());
  for (const e of git.entries) {
    if (e.content === "absent") existed.delete(plainPath(e.path));
    else existed.add(plainPath(e.path));
  }
  return {
    snapshot,
    observed,
    held,
    unknown: [...unknown].sort(),
    spawn: {
      head: git.head,
      time: Math.floor(captured / 1000),
      // File evidence is about what a file holds: content only the index or a commit has
      // does not make an unchanged file new work (a HEAD moved onto another branch would).
      changed: new Set(held), // tether:guard gate-evidence-held
      existed,
      unknown,
    },
  };
}

/**
 * Evaluate a child's return.
 *
 * @param text The child's `SubagentResult` JSON text.
 * @param options `since` snapshot id, `acceptUnverified`.
 * @returns The verdict document.
 * @throws {GateError} when the verdict cannot be reached (no repository where one is
 *   needed, a missing or foreign snapshot, git failing).
 */
export async function evaluate(text: string, options: GateOptions = {}): Promise<GateReport> {
  const read = readResult(text);
  const reasons = read.reasons;
  const result = read.result;

  const needsRepo = options.since !== undefined ||
    (result?.evidence.some((e) => isCheckable(e.kind)) ?? false) ||
    result?.working_context?.head !== undefined;
  // `gate --since` in the current directory started its reads before it loaded (early.ts).
  const early = options.cwd === undefined ? takeEarly(options.since) : undefined;
  const repo = needsRepo ? await (early?.repo ?? openRepo(options.cwd)) : undefined;
  // With --since every claim is read: one that is not a path inside the tree (outside it,
  // inside .git, a NUL) is a reason of its own and is never handed to git.
  const claimChecks = (result?.files_changed ?? []).map((c) =>
    [c, options.since === undefined ? canonicalClaim(c) : evidencePath(c)] as const
  );
  const badClaims = claimChecks.filter(([, p]) => p instanceof Error); // tether:guard pb-claim-checked
  reasons.push(
    ...badClaims.map(([, e]) => `Claimed path refused: ${lowerFirst((e as Error).message)}`),
  );
  const claimed = claimChecks.flatMap(([, p]) => typeof p === "string" ? [canonicalClaim(p)] : []);
  const evidencePaths = (result?.evidence ?? []).filter((e) => e.kind === "file").map((e) =>
    evidencePath(e.ref)
  ).filter((p): p is string => typeof p === "string");
  // With --since, the evidence files are looked at while the changes are observed (what
  // they hold now does not depend on it; only the judging does).
  const looked = result && repo && options.since !== undefined && !options.inspect &&
      evidencePaths.length > 0
    ? inspectWorktreeFiles(repo.top, evidencePaths)
    : undefined;
  looked?.catch(() => {}); // awaited by checkEvidence, or below when observing fails
  let observation;
  try {
    observation = repo && options.since !== undefined
      ? await observe(repo, options.since, claimed, evidencePaths, early)
      : undefined;
  } catch (error) {
    await looked?.catch(() => {});
    throw error;
  }
  const lookedAt = new Set(evidencePaths);
  const inspect: FileInspector | undefined = looked
    ? (top, paths) =>
      paths.every((p) => lookedAt.has(p)) ? looked : inspectWorktreeFiles(top, paths)
    : options.inspect;

  let findings: EvidenceFinding[] = [];
  if (result && repo) {
    findings = await checkEvidence(
      result.evidence,
      repo,
      observation?.spawn ?? options.spawn,
      inspect,
    );
  } else if (result) {
    findings = result.evidence.map((e) => ({ kind: e.kind, ref: e.ref, status: "unverified" }));
  }

  // A claim is confirmed by what files hold; what only the index or HEAD holds is listed
  // when unclaimed, and leaves a claim of it unobserved (review gate-8).
  const changes = observation ? classifyChanges(observation.held, claimed) : undefined; // tether:guard gate-confirm-held
  if (changes && observation) {
    const claims = new Set(claimed);
    const held = new Set(observation.held);
    changes.observed_unclaimed = [
      ...new Set([
        ...changes.observed_unclaimed,
        ...observation.observed.filter((p) => !held.has(p) && !claims.has(p)),
        // What gate cannot tell about is shown, never attributed or counted as work.
        ...observation.unknown.filter((p) => !claims.has(p)),
      ]),
    ].sort();
  }
  const unknown = new Set(observation?.unknown ?? []);
  if (result) reasons.push(...await judge(result, findings, changes, repo, options, unknown));

  const recent = changes && reasons.length === 0
    ? [...new Set([...changes.confirmed, ...(observation?.snapshot.recent_files ?? [])])]
    : [...(observation?.snapshot.recent_files ?? [])];
  const report: GateReport = {
    verdict: reasons.length === 0 ? "accept" : "reject",
    reasons,
    evidence: findings.map(({ kind, ref, status }) => ({ kind, ref, status })),
    recent_files: recent,
  };
  if (changes) report.changes = changes;
  if (options.done && repo && options.since !== undefined) {
    // The verdict stands whatever happens to the anchor: a failed release is a warning.
    try {
      await releaseObject(repo.top, SNAPSHOT_ANCHOR, options.since, [SNAPSHOT_HEAD_ANCHOR]);
    } catch (error) {
      const detail = ownWords(error);
      report.warnings = [`Cannot release the snapshot's anchor: ${detail.replace(/\s+/g, " ")}`]; // guard: verdict survives release
    }
  }
  return report;
}

/** The reasons a schema-valid result is rejected. */
async function judge(
  result: SubagentResult,
  findings: readonly EvidenceFinding[],
  changes: ChangeReport | undefined,
  repo: LiveRepo | undefined,
  options: GateOptions,
  unknown: ReadonlySet<string>,
): Promise<string[]> {
  const reasons: string[] = [];
  if (!result.ok) {
    const first = result.errors[0] ? `: ${JSON.stringify(result.errors[0])}` : "";
    reasons.push(`Child reported failure (ok is false)${first}`);
  } else {
    if (result.errors.length > 0) {
      reasons.push(`Child reported ok with ${result.errors.length} errors`);
    }
    // Preexisting evidence proves no work; a read-only report (no files_changed) may still
    // cite files that exist.
    const readOnly = result.files_changed.length === 0;
    const proves = (f: EvidenceFinding) =>
      f.status === "verified" ||
      (readOnly && f.status === "preexisting" && f.kind === "file"); // guard: old evidence proves no work
    if (result.evidence.length === 0) reasons.push("Child reported ok with no evidence");
    else if (!options.acceptUnverified && !findings.some(proves)) {
      reasons.push(
        findings.some((f) => f.status === "preexisting")
          ? "No evidence item shows work done since spawn (preexisting evidence does not count)"
          : "No evidence item could be verified (kinds commit and file can be checked)",
      );
    }
    result.evidence.forEach((e, i) => {
      if (!e.ok) {
        reasons.push(
          `Evidence [${i}] ${JSON.stringify(e.kind)} ${JSON.stringify(e.ref)} reports failure`,
        );
      }
    });
  }
  for (const f of findings) if (f.status === "refuted") reasons.push(`Evidence refuted: ${f.why}`);
  const head = result.working_context?.head;
  if (head !== undefined && repo) {
    if (
      !isFullOid(head, repo.format) ||
      (await readCommits(repo.top, [head], repo.format)).get(head)?.kind !== "commit"
    ) {
      reasons.push(`Working context head "${head}" is not a commit in this repository`);
    }
  }
  const listed = (paths: readonly string[]) =>
    paths.slice(0, 10).map((p) => JSON.stringify(p)).join(", ") +
    (paths.length > 10 ? ` and ${paths.length - 10} more` : "");
  const unobserved = changes?.claimed_unobserved.filter((p) => !unknown.has(p)) ?? [];
  const untold = changes?.claimed_unobserved.filter((p) => unknown.has(p)) ?? [];
  if (unobserved.length > 0) {
    reasons.push(`Claimed changes were not observed: ${listed(unobserved)}`);
  }
  if (untold.length > 0) {
    reasons.push(
      `Cannot tell whether claimed files changed since spawn: ${
        listed(untold)
      } (for each, ${UNKNOWN_WHY})`,
    );
  }
  return reasons;
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
