/**
 * The exact content state of a worktree, recorded as git objects in a bounded number of
 * git processes, whatever the tree holds: the HEAD commit, the tree of the index, and a
 * tree of the working tree's raw bytes, the files `git add -A` would choose (untracked
 * files included, ignored files excluded, and those the user's ignore file ignores whatever
 * the repository's settings say (src/seed/excludes.ts), symlinks as links, special files
 * skipped, each submodule at the commit its HEAD names) hashed as they are on disk: no clean filter, no
 * line-ending or encoding rewrite, nothing the worktree configures runs
 * ({@linkcode writeRawTree}). Two states are the same content exactly when their ids are
 * equal, so comparing states never reads a file twice.
 * An index with unmerged entries (a merge stopped on conflicts) has no tree: the capture
 * refuses it before writing anything.
 *
 * The working-tree tree is built in a fresh private index of each capture (in the object
 * directory, see {@linkcode SEED_INDEX_PREFIX}), and the index tree in a private copy of
 * the index's entries, so the user's index is never locked or changed, and two captures
 * never share a file; git does every read and write, so callers need no file permission
 * (but git needs write access to the object directory).
 *
 * @module
 */

import { REGULAR_MODES } from "../context/porcelain.ts";
import { gitText, runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { excludesFileAt, trustedIgnored } from "./excludes.ts";
import { unmergedMessage, unmergedPaths } from "./refusal.ts";
import { sameBytes } from "../encoding.ts";
import { hashRegularFiles } from "../context/lstat.ts";
import { RAW_CONFIG, type RawEntry, writeRawTree } from "../context/raw_tree.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** A worktree's content at one consistent moment. */
export interface TreeState {
  /** Full id of the HEAD commit. */
  head: string;
  /** Tree id of the index (what is staged). */
  index: string;
  /** Tree id of the working tree (what the files hold). */
  worktree: string;
}

/** Options for {@linkcode captureState}. */
export interface CaptureStateOptions {
  /** How often the capture is tried when HEAD, the index or the files moved while it ran. */
  attempts?: number;
  /**
   * The scratch index to build the working-tree tree in (absolute; the staged tree goes to
   * `<indexFile>-staged`), instead of a fresh one in the object directory. A spawn passes
   * one no other process uses (inside the new child's git directory).
   */
  indexFile?: string;
  /** Filled with the working-tree tree's entries (path → mode and raw id), when given. */
  files?: Map<string, RawEntry>;
  /**
   * The git directory and work tree to read, given explicitly (`GIT_DIR`, `GIT_WORK_TREE`)
   * instead of found from `dir`: a worktree's own configuration (`core.worktree` in its
   * `config.worktree`, a rewritten `.git` file) then cannot point the capture elsewhere.
   */
  repo?: { gitDir: string; workTree: string };
  /**
   * Filled with the untracked paths left out because the user's ignore file ignores them
   * though the repository's settings do not (src/seed/excludes.ts), when given.
   */
  left?: Set<string>;
  /**
   * Called with the working-tree tree of each attempt's first record, as soon as it is
   * written and before anything confirms it: a spawn starts writing its children's files
   * with it while the capture reads the tree again (and writes them again, from the tree
   * returned, when it differs).
   */
  early?: (worktree: string) => void;
}

/**
 * The name prefix of a capture's private indexes, inside the object directory of the
 * repository's common git directory: `tmp_tether_seed_<uuid>` (the working tree) and
 * `tmp_tether_seed_<uuid>-staged` (the index). Each capture takes a fresh unpredictable
 * name, so captures never share a file, never wait for one another, and never reuse stat
 * data another process could have forged: every file is hashed. tether cannot delete
 * files (git is its only access); `git prune`, which `git gc` runs, removes `tmp_*` files
 * at the top of the object directory once they are older than its expiry (checked:
 * `git prune --expire=now` removes `objects/tmp_tether_seed_<uuid>` and its `-staged`).
 */
export const SEED_INDEX_PREFIX = "tmp_tether_seed_";

/** No replace object stands in for another: a capture reads the objects as they are. */
export const NO_REPLACE = { GIT_NO_REPLACE_OBJECTS: "1" };
/**
 * Configuration from the caller's environment is dropped for the private-index calls
 * (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`: a `-c` given to an outer git or exported
 * by an agent), so only the repository's files and the pins below decide what they see.
 */
export const NO_CALLER_CONFIG = { GIT_CONFIG_COUNT: "0", GIT_CONFIG_PARAMETERS: "" }; // GUARD:seed-no-caller-config
/**
 * Configuration for the private-index calls that changes what they see to the plain
 * truth: no assume-unchanged marking of added files, no sparse-checkout filtering (a file
 * missing from the working tree is missing), no untracked cache; names compared case by
 * case (a new `readme.md` beside `README.md` is a file of its own), no stat shortcut, no
 * line-ending rewrite, no hook (an index write runs `post-index-change`), and (except on Windows, where git cannot see them) the executable
 * bit and symlinks as they are.
 */
export const PLAIN_CONFIG: readonly string[] = [
  "-c",
  "core.ignoreStat=false",
  "-c",
  "core.sparseCheckout=false",
  "-c",
  "index.sparse=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "core.ignoreCase=false", // defence in depth (raw reading does not depend on it)
  "-c",
  "core.trustctime=true",
  "-c",
  "core.checkStat=default",
  "-c",
  "core.autocrlf=false", // defence in depth (raw reading does not depend on it)
  "-c",
  "core.hooksPath=/dev/null", // GUARD:seed-no-hooks
  ...(Deno.build.os === "windows" ? [] : ["-c", "core.fileMode=true", "-c", "core.symlinks=true"]), // defence in depth
];

/** Where a worktree's top level and object directory are. */
interface Places {
  top: string;
  objects: string;
  format: ObjectFormat;
}

async function places(dir: string, env: Record<string, string> = {}): Promise<Places> {
  const text = await gitText(
    [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-path",
      "objects",
      "--show-object-format",
    ],
    { cwd: dir, env },
  );
  const lines = text.split("\n");
  if (lines.length !== 3 || !lines[0] || !lines[1]) {
    throw new GitError("failed", "Cannot read the top level and the object directory");
  }
  return { top: lines[0], objects: lines[1], format: lines[2] === "sha256" ? "sha256" : "sha1" };
}

/**
 * HEAD and the index's entries (`ls-files -s`), read together without locking the index.
 *
 * @param top The worktree's top level.
 * @param where `GIT_DIR` and `GIT_WORK_TREE`, when given explicitly.
 * @returns HEAD's id and the entries as git printed them.
 */
export async function headAndEntries(
  top: string,
  where: Record<string, string>,
): Promise<[string, Uint8Array]> {
  const env = { ...NO_REPLACE, ...where };
  const [head, entries] = await Promise.all([
    gitText(["rev-parse", "--verify", "--end-of-options", "HEAD^{commit}"], { cwd: top, env }),
    runGit(["ls-files", "--stage", "-z", "--full-name", "--", ":/"], { cwd: top, env }),
  ]);
  return [head, entries.stdout];
}

/**
 * The absolute path of a fresh private index for the worktree at `top`, in its object
 * directory (see {@linkcode SEED_INDEX_PREFIX}).
 *
 * @param top The worktree's top level.
 * @returns `<objects>/tmp_tether_seed_<uuid>`.
 * @throws {GitError} when `top` is not in a git worktree.
 */
export async function seedIndexPath(top: string): Promise<string> {
  const { objects } = await places(top);
  return `${objects}/${SEED_INDEX_PREFIX}${crypto.randomUUID()}`;
}

/**
 * The tracked paths of `ls-files -s -z` records, and the submodules' recorded commits.
 *
 * @param entries What `ls-files -s -z` printed.
 * @returns The paths and the submodules.
 */
export function trackedPaths(
  entries: Uint8Array,
): { tracked: string[]; gitlinks: Map<string, string> } {
  const tracked = new Set<string>();
  const gitlinks = new Map<string, string>();
  for (const record of decodePaths(entries)) { // tether:guard pb-tracked-exact
    const match = /^(\d{6}) ([0-9a-f]+) (\d)\t(.*)$/s.exec(record);
    if (!match) continue;
    tracked.add(match[4]!);
    if (match[1] === "160000" && match[3] === "0") gitlinks.set(match[4]!, match[2]!);
  }
  return { tracked: [...tracked], gitlinks };
}

/**
 * Record the content state of the worktree at `dir` (its top level or any directory in
 * it). The index tree is written from a private copy of the index's entries, so the
 * user's index is neither locked nor rewritten. HEAD and the index are read, the working
 * tree recorded, HEAD and the index read again and the working tree recorded again: when
 * either reading or either record differs, something moved (even away and back), the
 * capture is tried again, and after the last attempt it fails rather than pair values
 * from different moments.
 *
 * @param dir The worktree's top level, or a directory in it.
 * @param options Attempts and scratch index.
 * @returns HEAD, index tree and working-tree tree ids.
 * @throws {GitError} when git fails, HEAD is unborn, the index has unmerged paths (before
 * anything is written), or the tree kept moving.
 */
export async function captureState(
  dir: string,
  options: CaptureStateOptions = {},
): Promise<TreeState> {
  const where: Record<string, string> = options.repo
    ? { GIT_DIR: options.repo.gitDir, GIT_WORK_TREE: options.repo.workTree }
    : {};
  const { top, objects, format } = await places(dir, where);
  // The user's ignore file, read alone: what a child can write (the shared config's
  // core.excludesFile, info/exclude) cannot bring an ignored file into the capture.
  const ignoreFile = await excludesFileAt(top);
  const scratch = options.indexFile ??
    `${objects}/${SEED_INDEX_PREFIX}${crypto.randomUUID()}`; // GUARD:seed-fresh-index
  const base = { ...NO_REPLACE, ...NO_CALLER_CONFIG, ...where };
  const staged = { ...base, GIT_INDEX_FILE: `${scratch}-staged` };
  const attempts = options.attempts ?? 3;
  for (let attempt = 1;; attempt++) {
    const [head, entries] = await headAndEntries(top, where);
    const unmerged = unmergedPaths(entries);
    if (unmerged.length > 0) throw new GitError("failed", unmergedMessage(unmerged)); // GUARD:seed-unmerged
    const raw = {
      index: scratch,
      ...trackedPaths(entries),
      format,
      config: PLAIN_CONFIG,
      env: base,
      ...(ignoreFile === undefined ? {} : {
        leaveOut: (index: Record<string, string>) =>
          trustedIgnored(top, ignoreFile, [...RAW_CONFIG, ...PLAIN_CONFIG], index),
      }),
    };
    // The index tree and the working-tree tree are built at once, each in its own index.
    const [index, worktree] = await Promise.all([
      (async () => {
        await runGit([...PLAIN_CONFIG, "read-tree", "--empty"], { cwd: top, env: staged });
        await runGit([...PLAIN_CONFIG, "update-index", "-z", "--index-info"], {
          cwd: top,
          env: staged,
          stdin: entries,
        });
        return await gitText([...PLAIN_CONFIG, "write-tree"], { cwd: top, env: staged });
      })(),
      writeRawTree(top, raw).then((first) => {
        options.early?.(first.tree);
        return first;
      }),
    ]);
    const [headAfter, entriesAfter] = await headAndEntries(top, where);
    const again = await writeRawTree(top, raw);
    const still = head === headAfter && sameBytes(entries, entriesAfter) &&
      worktree.tree === again.tree; // GUARD:seed-twice
    if (still) {
      for (const [path, entry] of worktree.files) options.files?.set(path, entry);
      for (const path of worktree.left) options.left?.add(path);
      return { head, index, worktree: worktree.tree };
    }
    if (attempt >= attempts) {
      throw new GitError(
        "failed",
        "The tree kept moving: HEAD, the index or the files changed while the state was read",
      );
    }
  }
}

/**
 * Write the tree of a worktree's files as raw bytes (see {@linkcode writeRawTree}) in a
 * fresh private index, with only `tracked` counted as tracked (a submodule among them that
 * is not checked out keeps its recorded commit).
 *
 * @param dir The worktree's top level, or a directory in it.
 * @param tracked The entries that count as tracked (ignored or not), as a capture's `files`.
 * @returns The tree id.
 * @throws {GitError} when git fails.
 */
export async function rawTree(
  dir: string,
  tracked: ReadonlyMap<string, RawEntry>,
): Promise<string> {
  const { top, objects, format } = await places(dir);
  const index = `${objects}/${SEED_INDEX_PREFIX}${crypto.randomUUID()}`;
  const base = { ...NO_REPLACE, ...NO_CALLER_CONFIG };
  const gitlinks = new Map(
    [...tracked].filter(([, e]) => e.mode === "160000").map(([p, e]) => [p, e.oid]),
  );
  return (await writeRawTree(top, {
    index,
    tracked: [...tracked.keys()],
    gitlinks,
    format,
    config: PLAIN_CONFIG,
    env: base,
  })).tree;
}

/**
 * The first half of checking a fresh checkout against the tree it wrote, cheaply: the paths
 * whose file is gone or has another type or mode than `expected` says, in one git process
 * whatever the number of files; or `undefined` when `expected` holds anything but regular
 * files (a link or submodule: compare with {@linkcode rawTree} then). Call it right after
 * `git read-tree --reset -u` of the tree whose entries `expected` lists, with
 * `core.ignoreStat`, fsmonitor and sparse checkout off, so the worktree's index holds
 * exactly those entries with the stat data of the files just written: `diff-files --raw`
 * with types from `lstat` (`core.fileMode` and `core.symlinks` on) reports every entry
 * whose file is gone or whose type or executable bit is not the entry's (and any whose
 * stat data moved since), with the mode `lstat` found; an entry it does not report has a
 * file of the entry's type and mode. The index may change once this returns.
 *
 * @param dir The worktree's top level.
 * @param expected Path → mode and raw blob id, for every path of the checked-out tree.
 * @returns The paths whose mode differs, or `undefined`.
 * @throws {GitError} when git fails.
 */
export async function checkoutModeDiffers(
  dir: string,
  expected: ReadonlyMap<string, RawEntry>,
): Promise<Set<string> | undefined> {
  if ([...expected.values()].some((e) => !REGULAR_MODES.has(e.mode))) return undefined;
  const diff = decodePaths(
    (await runGit([...RAW_CONFIG, "diff-files", "--raw", "-z", "--no-renames"], {
      cwd: dir,
      env: { ...NO_REPLACE, ...NO_CALLER_CONFIG },
      parse: true,
    })).stdout,
  );
  const differs = new Set<string>();
  for (let i = 0; i + 1 < diff.length; i += 2) {
    const mode = /^:\d{6} (\d{6}) /.exec(diff[i]!)?.[1];
    const path = diff[i + 1]!;
    if (mode !== expected.get(path)?.mode) differs.add(path); // tether:guard wt-spawn-modes
  }
  return differs;
}

/**
 * The second half ({@linkcode checkoutModeDiffers} first): the paths of the checkout whose
 * raw bytes are not `expected`'s, hashed with `hash-object --no-filters` in one batch (a
 * file that is missing or not a regular file gives no id, or another), with the paths
 * whose mode differs. Reads no index.
 *
 * @param dir The worktree's top level.
 * @param expected Path → mode and raw blob id, for every path of the checked-out tree.
 * @param modes What {@linkcode checkoutModeDiffers} returned (not hashed again).
 * @returns Every differing path, in `expected`'s order (empty when the checkout is exact).
 * @throws {GitError} when git fails.
 */
export async function checkoutByteDiffers(
  dir: string,
  expected: ReadonlyMap<string, RawEntry>,
  modes: ReadonlySet<string>,
): Promise<string[]> {
  const differs = new Set(modes);
  const hashed = [...expected.keys()].filter((path) => !differs.has(path));
  const ids = await hashRegularFiles(dir, hashed, ["--no-filters"], Number.POSITIVE_INFINITY);
  for (const path of hashed) {
    if (ids.get(path) !== expected.get(path)!.oid) differs.add(path); // tether:guard wt-spawn-hash
  }
  return [...expected.keys()].filter((path) => differs.has(path));
}

/**
 * Paths whose content differs between two trees (added, deleted, modified, type or
 * mode changed), without rename detection, NUL-safe.
 *
 * @param top A directory in the repository.
 * @param from The earlier tree id.
 * @param to The later tree id.
 * @returns The differing paths, in git's order, decoded exactly ({@linkcode decodePaths}).
 * @throws {GitError} when git fails.
 */
export async function changedPaths(top: string, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  const { stdout } = await runGit(
    ["diff-tree", "-r", "-z", "--no-renames", "--name-only", "--end-of-options", from, to],
    { cwd: top, parse: true, env: NO_REPLACE },
  );
  return decodePaths(stdout); // tether:guard wt-exact-paths (two names never one string)
}
