/**
 * Exact mode at git's pace. The content state of a shared worktree (src/seed/state.ts) is
 * recorded through two private indexes that persist per worktree, in its git directory:
 * `tether-exact-index` holds the working tree's files as raw blobs with git's stat data,
 * `tether-exact-staged` a copy of the index's entries. `git add -A` refreshes the first as
 * `git status` refreshes the index: a file whose stat data (size, mtime, ctime, inode,
 * mode) is unchanged since it was hashed is not read again, a racily clean one (changed in
 * the same clock tick as the private index was written) and every other one is hashed as
 * it is on disk; the second gets only the entries that changed. So a capture costs about
 * what `git status` costs, plus the files that changed.
 *
 * What is trusted: that a file whose content changed also changed its stat data, as git
 * status trusts it (an honest tool cannot set ctime; a process that forges file times and
 * sizes is outside the threat model). Content is compared exactly: nothing converts it on
 * the way in, since the capture pins `core.autocrlf` off, reads no system or global
 * attributes, and takes this path only when no `.gitattributes` is in the tree or the
 * index and `info/attributes` does not exist (an ignored, untracked `.gitattributes` is
 * the one source it does not see). Where it cannot be sure (attributes, a submodule in the
 * index, a file `git add` refuses, a private index another capture holds for too long), it
 * takes the full capture, which hashes every file into a fresh private index.
 *
 * @module
 */
import { type GitOptions, gitText, runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { excludesFileAt } from "./excludes.ts";
import { unmergedMessage, unmergedPaths } from "./refusal.ts";
import { sameBytes } from "../encoding.ts";
import {
  captureState,
  headAndEntries,
  NO_CALLER_CONFIG,
  NO_REPLACE,
  PLAIN_CONFIG,
  trackedPaths,
  type TreeState,
} from "./state.ts";
import { RAW_CONFIG } from "../context/raw_tree.ts";
import { GitError, type GitResult } from "../git_error.ts";

/** The private index of the working tree's files, in the worktree's git directory. */
export const CACHE_INDEX = "tether-exact-index";
/** The private copy of the index's entries, beside it. */
export const STAGED_INDEX = "tether-exact-staged";

/**
 * What the private-index calls pin besides {@linkcode PLAIN_CONFIG}: no conversion on the
 * way in (no line-ending rewrite, no attributes from the user's file), no split index
 * (its shared files would land in the git directory), no embedded-repository advice.
 */
const CACHE_CONFIG: readonly string[] = [
  ...RAW_CONFIG,
  ...PLAIN_CONFIG,
  "-c",
  "core.attributesFile=/dev/null",
  "-c",
  "core.safecrlf=false",
  "-c",
  "core.splitIndex=false",
  "-c",
  "add.ignoreErrors=false",
  "-c",
  "advice.addEmbeddedRepo=false",
];

/** How long a capture waits for a private index another capture holds. */
const LOCK_WAIT_MS = 5000;

/** Where a worktree's private indexes are. */
interface Cache {
  top: string;
  /** {@linkcode CACHE_INDEX}, absolute. */
  files: string;
  /** {@linkcode STAGED_INDEX}, absolute. */
  staged: string;
  /** `info/attributes` of the common directory, absolute. */
  attributes: string;
}

async function cacheOf(dir: string): Promise<Cache> {
  const text = await gitText(
    [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-path",
      CACHE_INDEX,
      "--git-path",
      STAGED_INDEX,
      "--git-path",
      "info/attributes",
    ],
    { cwd: dir },
  );
  const [top, files, staged, attributes, ...rest] = text.split("\n");
  if (!top || !files || !staged || !attributes || rest.length > 0) {
    throw new GitError("failed", "Cannot read where the private indexes are");
  }
  return { top, files, staged, attributes };
}

/** A file's blob id, or undefined when git cannot read it (a missing one). */
async function fileId(file: string): Promise<string | undefined> {
  const r = await runGit(["hash-object", "--no-filters", "--", file], { allowFailure: true });
  return r.code === 0 ? new TextDecoder().decode(r.stdout).trim() : undefined;
}

/** A call on a private index, waiting while another capture holds its lock. */
async function locked(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const r = await runGit(args, { ...options, allowFailure: true });
    if (r.code === 0 || !/\.lock'?: File exists/.test(r.stderr) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the capture needs to know of the index's entries, read from their bytes at once. */
export interface EntryFacts {
  /** An entry at stage 1, 2 or 3 (a merge stopped on conflicts). */
  unmerged: boolean;
  /** A submodule. */
  gitlink: boolean;
  /** A `.gitattributes` file. */
  attributes: boolean;
}

const ATTRIBUTES = new TextEncoder().encode(".gitattributes");

/**
 * Scan `ls-files -s -z` records (`mode oid stage TAB path NUL`) without decoding them: a
 * hundred thousand entries take a few milliseconds.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const e = (s: string) => new TextEncoder().encode(s);
 * const oid = "a".repeat(40);
 * assertEquals(entryFacts(e(`100644 ${oid} 0\ta.txt\0`)), { unmerged: false, gitlink: false, attributes: false });
 * assertEquals(entryFacts(e(`160000 ${oid} 0\tsub\x00100644 ${oid} 2\td/.gitattributes\0`)), { unmerged: true, gitlink: true, attributes: true });
 * assertEquals(entryFacts(e(`100644 ${oid} 0\tx.gitattributes\0`)).attributes, false);
 * ```
 * @param entries What `ls-files -s -z` printed.
 * @returns What they hold.
 */
export function entryFacts(entries: Uint8Array): EntryFacts {
  const facts = { unmerged: false, gitlink: false, attributes: false };
  for (let start = 0; start < entries.length;) {
    let end = entries.indexOf(0, start);
    if (end < 0) end = entries.length;
    const tab = entries.indexOf(9, start); // the first TAB ends the fields; the path may hold more
    if (tab > start && tab < end) {
      if (entries[tab - 1] !== 0x30) facts.unmerged = true;
      if (entries[start] === 0x31 && entries[start + 1] === 0x36) facts.gitlink = true; // 160000
      const at = end - ATTRIBUTES.length;
      if (
        at > tab && (at === tab + 1 || entries[at - 1] === 0x2f) &&
        ATTRIBUTES.every((b, i) => entries[at + i] === b)
      ) facts.attributes = true;
    }
    start = end + 1;
  }
  return facts;
}

/** The working tree read once into the private index. */
interface Reading {
  /** The pathspec the next look repeats. */
  spec: string;
  /** Whether the record found every file as the last one left it. */
  unchanged: boolean;
}

/** NUL-terminated paths for a `-z --stdin` call. */
function nul(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}

/**
 * Read the working tree into the private index: leave out the untracked paths the user's
 * ignore file ignores before anything is read, `git add -A` the rest, drop the untracked
 * entries the ignore rules (or the user's ignore file) now ignore, and carry the tracked
 * paths the ignore rules hide all the same.
 *
 * @param tracked The paths the index tracks (built on demand: rarely needed).
 * @returns The record, or undefined when this path cannot be sure (the full one then runs).
 */
async function read(
  cache: Cache,
  tracked: () => ReadonlySet<string>,
  ignoreFile: string | undefined,
): Promise<Reading | undefined> {
  const base = { ...NO_REPLACE, ...NO_CALLER_CONFIG, GIT_ATTR_NOSYSTEM: "1" };
  const at = { cwd: cache.top, parse: true, env: { ...base, GIT_INDEX_FILE: cache.files } };
  const git = (args: string[], stdin?: string) =>
    locked([...CACHE_CONFIG, ...args], stdin === undefined ? at : { ...at, stdin });
  const listed = async (args: string[], options: GitOptions = at) =>
    decodePaths((await runGit([...CACHE_CONFIG, "ls-files", "-z", ...args], options)).stdout);
  const untracked = (paths: string[]) =>
    paths.length === 0 ? paths : paths.filter((p) => !tracked().has(p.replace(/\/$/, "")));
  const ignoredBy = ["--ignored", "--exclude-standard"];
  const userFile = ignoreFile === undefined
    ? undefined
    : ["--ignored", `--exclude-from=${ignoreFile}`, "--exclude-per-directory=.gitignore"];
  // Left out before any file is read or hashed: a dropped file's bytes never reach the
  // object store.
  const left = userFile ? untracked(await listed(["--others", "--directory", ...userFile])) : [];
  const spec = nul([":/", ...left.map((p) => `:(top,literal,exclude)${p}`)]); // tether:guard cache-left
  const add = ["add", "-A", "-v", "--pathspec-from-file=-", "--pathspec-file-nul"];
  // Beside it: the entries the ignore rules now ignore (what `add -A` adds never is), and
  // the tracked paths they hide, from the user's index.
  const [added, ignored, userIgnored, hidden] = await Promise.all([
    git(add, spec),
    listed(["--cached", ...ignoredBy]),
    userFile ? listed(["--cached", ...userFile]) : [],
    listed(["--cached", ...ignoredBy], { ...at, env: base }),
  ]);
  if (added.code !== 0) return undefined;
  const drop = untracked([...ignored, ...userIgnored]); // tether:guard cache-drop
  const remove = ["update-index", "-z", "--force-remove", "--stdin"];
  if (drop.length > 0 && (await git(remove, nul(drop))).code !== 0) return undefined;
  // Tracked paths count even where the ignore rules hide them: read as they are.
  const carried = hidden; // tether:guard cache-carry
  const update = ["update-index", "-z", "--add", "--remove", "--stdin"];
  if (carried.length > 0 && (await git(update, nul(carried))).code !== 0) return undefined;
  // `add -v` names every path whose blob or mode it changed, or that it removed.
  const unchanged = added.stdout.length === 0 && drop.length === 0 && carried.length === 0;
  return { spec, unchanged }; // tether:guard cache-unchanged
}

/**
 * The tree of what {@linkcode read} recorded, unless an attributes file `git add -A` took
 * in may have converted what it read (then the private index is emptied, so nothing
 * converted is kept for the next capture).
 *
 * @returns The tree, or undefined (the full capture then runs).
 */
async function writeTree(cache: Cache): Promise<string | undefined> {
  const env = { ...NO_REPLACE, ...NO_CALLER_CONFIG, GIT_INDEX_FILE: cache.files };
  const at = { cwd: cache.top, parse: true, env };
  const [attributes, written] = await Promise.all([
    runGit(["ls-files", "-z", "--cached", "--", ":(top,glob)**/.gitattributes"], at),
    locked([...CACHE_CONFIG, "write-tree"], at),
  ]);
  if (attributes.stdout.length > 0) { // tether:guard cache-attributes
    await locked([...CACHE_CONFIG, "read-tree", "--empty"], at);
    return undefined;
  }
  return written.code === 0 ? new TextDecoder().decode(written.stdout).trim() : undefined;
}

/**
 * Whether anything changed since {@linkcode read}: `git add -A -v` again, which reads
 * only what changed and names every path it adds or removes.
 *
 * @returns True when it named any, undefined when it failed.
 */
async function changedSince(cache: Cache, spec: string): Promise<boolean | undefined> {
  const env = {
    ...NO_REPLACE,
    ...NO_CALLER_CONFIG,
    GIT_ATTR_NOSYSTEM: "1",
    GIT_INDEX_FILE: cache.files,
  };
  const again = await locked(
    [...CACHE_CONFIG, "add", "-A", "-v", "--pathspec-from-file=-", "--pathspec-file-nul"],
    { cwd: cache.top, parse: true, env, stdin: spec },
  );
  return again.code === 0 ? again.stdout.length > 0 : undefined;
}

/**
 * The lines `update-index -z --index-info` takes to turn one `ls-files -s -z` listing into
 * another: each entry that is new or differs, and each path that is gone (mode 0).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const e = (s: string) => new TextEncoder().encode(s);
 * const a = "100644 " + "a".repeat(40) + " 0\ta\x00100644 " + "b".repeat(40) + " 0\tb\0";
 * const b = "100644 " + "a".repeat(40) + " 0\ta\x00100644 " + "c".repeat(40) + " 0\tc\0";
 * assertEquals(entryChanges(e(a), e(b)), [
 *   "100644 " + "c".repeat(40) + " 0\tc",
 *   "0 " + "0".repeat(40) + "\tb",
 * ]);
 * ```
 * @param from The listing now.
 * @param to The listing wanted.
 * @returns The records, without their NUL.
 */
export function entryChanges(from: Uint8Array, to: Uint8Array): string[] {
  const byPath = (listing: Uint8Array) =>
    new Map(decodePaths(listing).map((r) => [r.slice(r.indexOf("\t") + 1), r] as const));
  const before = byPath(from);
  const after = byPath(to);
  const out: string[] = [];
  for (const [path, entry] of after) if (before.get(path) !== entry) out.push(entry);
  for (const [path, entry] of before) {
    if (after.has(path)) continue;
    const oid = entry.split(" ")[1] ?? "";
    out.push(`0 ${"0".repeat(oid.length)}\t${path}`);
  }
  return out;
}

/**
 * The tree of the index's entries: HEAD's when nothing is staged, else written from the
 * private copy brought in line with them (only the entries that changed are written; its
 * cache of trees does the rest).
 *
 * @returns The tree, or undefined when the private copy could not be written.
 */
async function stagedTree(
  cache: Cache,
  head: string,
  entries: Uint8Array,
): Promise<string | undefined> {
  // Nothing staged (an intent-to-add entry shown as the new file it is): the index's tree
  // is HEAD's.
  const plain = { cwd: cache.top, parse: true, env: { ...NO_REPLACE, ...NO_CALLER_CONFIG } };
  const [diff, headTree] = await Promise.all([
    runGit([
      "diff-index",
      "--cached",
      "--raw",
      "-z",
      "--no-renames",
      "--ignore-submodules=none",
      "--ita-visible-in-index",
      head,
      "--",
    ], { ...plain, allowFailure: true }),
    runGit(["rev-parse", "--verify", "--end-of-options", `${head}^{tree}`], {
      ...plain,
      allowFailure: true,
    }),
  ]);
  if (diff.code === 0 && diff.stdout.length === 0 && headTree.code === 0) { // tether:guard cache-head-tree
    return new TextDecoder().decode(headTree.stdout).trim();
  }
  const env = { ...NO_REPLACE, ...NO_CALLER_CONFIG, GIT_INDEX_FILE: cache.staged };
  const at = { cwd: cache.top, parse: true, env };
  const copy = await runGit(["ls-files", "--stage", "-z", "--full-name", "--", ":/"], at);
  if (!sameBytes(copy.stdout, entries)) { // tether:guard cache-staged
    const changes = entryChanges(copy.stdout, entries);
    const written = await locked([...PLAIN_CONFIG, "update-index", "-z", "--index-info"], {
      ...at,
      stdin: changes.map((r) => `${r}\0`).join(""),
    });
    if (written.code !== 0) return undefined;
  }
  const tree = await locked([...PLAIN_CONFIG, "write-tree"], at);
  return tree.code === 0 ? new TextDecoder().decode(tree.stdout).trim() : undefined;
}

/** Both results, once both have settled: a failure of one never leaves the other's git running. */
async function settledBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === "rejected") throw x.reason;
  if (y.status === "rejected") throw y.reason;
  return [x.value, y.value];
}

/**
 * Record the content state of the shared worktree at `dir` as {@linkcode captureState}
 * does, through the private indexes (see the module documentation): HEAD and the index
 * are read, the working tree recorded, HEAD and the index read again and the working tree
 * looked at again; when anything moved, the capture is tried again.
 *
 * @param dir The worktree's top level, or a directory in it.
 * @param attempts How often it is tried when something moved.
 * @returns HEAD, index tree and working-tree tree ids, equal to the full capture's.
 * @throws {GitError} as {@linkcode captureState}.
 */
export async function captureCachedState(dir: string, attempts = 3): Promise<TreeState> {
  return (await captureCachedStateWith(dir, () => Promise.resolve(undefined), attempts)).state;
}

/**
 * {@linkcode captureCachedState}, with another reading of the tree (`beside`) taken inside
 * the same window: started once HEAD and the index are read, and done before they are read
 * again, so a movement that sends the capture round again (HEAD or the index moved, or a
 * file changed after it was read) has it read again too. An edit the capture does not see
 * as movement (a file changed after `beside` read it and before the capture did, or any
 * edit where the full capture runs instead, beside which `beside` runs once) can still
 * leave the two of different moments: a child's Step 0 then halts, never matches.
 *
 * @param dir The worktree's top level, or a directory in it.
 * @param beside The other reading (run once an attempt, the last one's result is kept).
 * @param attempts How often it is tried when something moved.
 * @returns The state, and what `beside` read.
 * @throws {GitError} as {@linkcode captureState}, or what `beside` throws.
 */
export async function captureCachedStateWith<T>(
  dir: string,
  beside: () => Promise<T>,
  attempts = 3,
): Promise<{ state: TreeState; beside: T }> {
  const cache = await cacheOf(dir);
  const settings = Promise.all([fileId(cache.attributes), excludesFileAt(cache.top)]);
  settings.catch(() => {});
  const full = async () => {
    const [state, read] = await settledBoth(captureState(dir, { attempts }), beside());
    return { state, beside: read };
  };
  for (let attempt = 1;; attempt++) {
    const [[head, entries], [converting, ignoreFile]] = await Promise.all([
      headAndEntries(cache.top, {}),
      settings,
    ]);
    if (converting !== undefined) return await full(); // tether:guard cache-info-attributes
    const facts = entryFacts(entries);
    if (facts.unmerged) throw new GitError("failed", unmergedMessage(unmergedPaths(entries))); // tether:guard cache-unmerged
    // A submodule not checked out keeps its recorded commit in the full capture only.
    if (facts.gitlink) return await full(); // tether:guard cache-gitlinks
    if (facts.attributes) return await full(); // at once, before any read
    let paths: Set<string> | undefined;
    const tracked = () => paths ??= new Set(trackedPaths(entries).tracked);
    // `beside` runs within the window: it has ended before HEAD and the index are read again.
    const [[index, first], besideRead] = await settledBoth(
      settledBoth(stagedTree(cache, head, entries), read(cache, tracked, ignoreFile)),
      beside(),
    );
    if (index === undefined || first === undefined) return await full();
    // The files are read: HEAD and the index are read again while the tree is written.
    const after = headAndEntries(cache.top, {});
    after.catch(() => {});
    const worktree = await writeTree(cache);
    if (worktree === undefined) {
      await after.catch(() => {});
      return await full();
    }
    // Looked at again only when the reading read anything anew: one that changed nothing
    // found every file as the last capture left it, at the moment it began.
    const moved = first.unchanged ? false : await changedSince(cache, first.spec);
    const [headAfter, entriesAfter] = await after;
    if (moved === undefined) return await full();
    const still = head === headAfter && sameBytes(entries, entriesAfter) && !moved; // tether:guard cache-twice
    if (still) return { state: { head, index, worktree }, beside: besideRead };
    if (attempt >= attempts) {
      throw new GitError(
        "failed",
        "The tree kept moving: HEAD, the index or the files changed while the state was read",
      );
    }
  }
}
