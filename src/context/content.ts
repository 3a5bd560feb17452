/**
 * What worktree paths hold, read directly and as raw bytes: the content both the spawn
 * capture and `gate` compare. Nothing depends on conversion state the child controls
 * (attributes, `core.autocrlf`, `core.fileMode`, `core.symlinks`, an index flag): a regular
 * file is identified by the blob id of its bytes as they are on disk (`--no-filters`), a
 * symbolic link by its link text, a nested repository or submodule by the commit its HEAD
 * names, and the type comes from git's own `lstat` with `core.fileMode` and
 * `core.symlinks` forced on.
 *
 * The reading goes through a private index that is fresh for every run: a file named
 * `tmp_tether_index_<random uuid>` in the repository's object directory (never the user's
 * index, never a name a child can predict, lock or replace beforehand). Tether runs without
 * file access and cannot delete it; `git prune` (run by `git gc`) deletes every file
 * named `tmp_*` in the object directory once it is older than the prune expiry
 * (`gc.pruneExpire`, two weeks by default), so leftovers go with git's own housekeeping.
 *
 * A bounded number of git calls, whatever the number of paths, and every file read once:
 *
 * 1. a walk (`ls-files --others --exclude-standard` against an empty index, limited to the
 *    paths or, when they do not fit one command line, to their directories) lists the
 *    paths that are regular files, links or nested repositories and not ignored: git's
 *    directory walk never lists a FIFO, socket or device and never enters a linked
 *    directory;
 * 2. at the same time `diff-files --raw` against a placeholder entry per path gives each
 *    path's `lstat` mode without reading it (a special file shows as a regular one here,
 *    which is why step 1 is needed) and says which paths are gone;
 * 3. the paths both steps call regular files are hashed as raw bytes, in batches.
 *
 * Everything else (links, nested repositories, ignored tracked files, special files, and
 * paths that lie under another of the same paths: a file replaced by a directory, a claim
 * beyond a link) is read apart, in a private index of its own, with `git add -A -f` and the
 * paths as pathspecs; only the rare paths git refused to add (special files) are looked at
 * one by one.
 *
 * @module
 */
import { decodePaths, fitsArgv } from "../paths.ts";
import { runGit } from "../git.ts";
import { REGULAR_MODES, SYMLINK_MODE } from "./porcelain.ts";
import {
  HASH_TIMEOUT_MS,
  hashRegularFiles,
  LSTAT_CONFIG,
  pathKinds,
  placeholder,
  privateIndexPath,
  symlinkBlobIds,
} from "./lstat.ts";
import { filterPins, readDrivers } from "./filters.ts";
import { type ObjectFormat } from "../git_objects.ts";

/** What a path holds now. */
export type PathContent =
  | {
    /** A regular file, a symbolic link, or a nested repository / submodule. */
    kind: "file" | "symlink" | "gitlink";
    /** The `lstat` mode: `100644`, `100755`, `120000`, `160000`. */
    mode: string;
    /** Blob id of the raw bytes (file), of the link text (link), or the commit (gitlink). */
    raw: string;
    /**
     * The id `git add` would store with every filter the config names pinned to none (so
     * only line-end normalization makes it differ from `raw`), where known: set for links
     * and repositories (it equals `raw`), for regular files only when asked for
     * ({@linkcode addFilteredIds}).
     */
    filtered?: string;
  }
  | { kind: "special"; mode: string }
  | { kind: "absent" };

/**
 * What a directory holding a git repository with no commit holds: there is no commit to
 * name, and it is not nothing (a child can put anything in it).
 */
export const UNBORN_REPOSITORY: PathContent = { kind: "special", mode: "unborn-repository" };

/** A repository under a name no index can hold (`.GIT/`): present, not looked into. */
export const UNINDEXABLE_REPOSITORY: PathContent = { kind: "special", mode: "repository" };

/** A link to a directory under a name no index can hold: present, its text unread. */
export const UNINDEXABLE_LINK: PathContent = { kind: "special", mode: "link-to-directory" };

/** How many times paths git refuses as pathspecs (beyond a link, inside a submodule) are dropped. */
const MAX_REFUSED = 16;

/** A path `git add` refused as a pathspec: beyond a symbolic link or inside a submodule. */
function refusedPath(stderr: string): string | undefined {
  const m = /fatal: pathspec '(.*)' is beyond a symbolic link/.exec(stderr) ??
    /fatal: Pathspec '(.*)' is in submodule/.exec(stderr) ??
    // Neither in the private index (a path below it took its place: a directory replaced by
    // a file) nor on disk.
    /fatal: pathspec '(.*)' did not match any files/.exec(stderr);
  return m?.[1];
}

/** What `git add` recorded in a private index for some paths. */
interface Added {
  /** Path → mode and id of the wanted paths the index holds afterwards. */
  indexed: Map<string, { mode: string; oid: string }>;
  /** Paths git refused as pathspecs (beyond a link, inside a submodule). */
  refused: Set<string>;
  /** The paths read (without the refused ones). */
  wanted: string[];
}

/**
 * A fresh private index with a placeholder entry per path, so every path is tracked there.
 * A path that lies under another (a file replaced by a directory) may displace the other's
 * entry: what is not in the index is not reported by `diff-files` and is read apart.
 *
 * @returns The environment that selects the index.
 */
async function seedIndex(
  top: string,
  commonDir: string,
  format: ObjectFormat,
  paths: readonly string[],
): Promise<Record<string, string>> {
  const env = { GIT_INDEX_FILE: privateIndexPath(commonDir) };
  const dummy = placeholder(format);
  // LSTAT_CONFIG: with `core.ignoreStat`, every seeded entry would be marked assume-unchanged.
  const seeded = await runGit([...LSTAT_CONFIG, "update-index", "-z", "--index-info"], {
    cwd: top,
    env,
    allowFailure: true,
    stdin: paths.map((p) => `100644 ${dummy}\t${p}\0`).join(""),
  });
  if (seeded.code !== 0) {
    throw new Error(`cannot prepare a private index: ${seeded.stderr.trim().split("\n")[0]}`);
  }
  return env;
}

/**
 * Let `git add -A -f` re-read some paths of a seeded index, the paths as literal pathspecs
 * (links are read as links, nested repositories at their HEAD, special files refused and
 * left as placeholders), and list what it recorded.
 */
async function addApart(
  top: string,
  env: Record<string, string>,
  paths: readonly string[],
): Promise<Added> {
  let wanted = [...paths];
  const refused = new Set<string>();
  const indexed = new Map<string, { mode: string; oid: string }>();
  if (wanted.length === 0) return { indexed, refused, wanted };
  // No filter the config names runs here (its id is not kept for a regular file anyway).
  const pins = filterPins((await readDrivers(top)).filters);
  for (let attempt = 0;; attempt++) {
    const added = await runGit([
      ...LSTAT_CONFIG,
      ...pins,
      "--literal-pathspecs",
      "add",
      "-A",
      "-f",
      "--ignore-errors",
      "--pathspec-from-file=-",
      "--pathspec-file-nul",
    ], {
      cwd: top,
      env,
      allowFailure: true,
      stdin: wanted.join("\0") + "\0",
      timeoutMs: HASH_TIMEOUT_MS,
    });
    // Exit 1: some paths could not be added (special files); they keep the placeholder.
    if (added.code === 0 || added.code === 1) break;
    const path = refusedPath(added.stderr);
    if (path === undefined || !wanted.includes(path) || attempt >= MAX_REFUSED) {
      throw new Error(`cannot read the worktree: ${added.stderr.trim().split("\n").at(-1)}`);
    }
    // Not a path of this worktree (behind a link, inside a submodule): nothing is there.
    refused.add(path);
    wanted = wanted.filter((p) => p !== path);
    if (wanted.length === 0) break;
  }
  const want = new Set(wanted);
  const listed = await runGit(["ls-files", "-s", "-z"], { cwd: top, env, parse: true });
  for (const record of decodePaths(listed.stdout)) {
    const match = /^(\d{6}) ([0-9a-f]+) 0\t(.*)$/s.exec(record);
    if (match && want.has(match[3]!)) indexed.set(match[3]!, { mode: match[1]!, oid: match[2]! });
  }
  return { indexed, refused, wanted };
}

/** Most bytes of pathspecs one walk takes (one command line; Windows allows 32 KiB). */
const WALK_ARGV_BYTES = 16_000;

/** Whether a path can be given to git as an argument (no byte that is not UTF-8). */
function arguable(path: string): boolean {
  return !/\p{Cs}/u.test(path); // decodePath keeps an undecodable byte as a lone surrogate
}

/**
 * Pathspecs that cover every path and fit one command line: the paths themselves or, while
 * they do not fit, their directories one level up at a time; none (the whole tree) when
 * not even the top-level names fit. A pathspec under another one is dropped.
 *
 * @example Many files in a few directories
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(walkPathspecs(["a/x", "a/y/z", "b"], 100), ["a/x", "a/y/z", "b"]);
 * assertEquals(walkPathspecs(["a/x", "a/y/z", "b"], 8), ["a", "b"]);
 * assertEquals(walkPathspecs(["a/x", "a/y/z", "b"], 2), []);
 * ```
 * @param paths Paths relative to the top level, without a trailing `/`.
 * @param limit Most bytes (each pathspec counts its length plus one).
 * @returns Literal pathspecs, sorted.
 */
export function walkPathspecs(paths: readonly string[], limit = WALK_ARGV_BYTES): string[] {
  let specs = [...new Set(paths)].sort();
  for (;;) {
    // Sorted, a directory comes right before what lies under it.
    specs = specs.filter((s, i) => i === 0 || !s.startsWith(`${specs[i - 1]}/`));
    if (specs.reduce((n, s) => n + utf8Length(s) + 1, 0) <= limit) return specs;
    if (specs.every((s) => !s.includes("/"))) return [];
    specs = [...new Set(specs.map((s) => s.includes("/") ? s.slice(0, s.lastIndexOf("/")) : s))]
      .sort();
  }
}

/** The UTF-8 length of a string without encoding it (a surrogate pair is 4 bytes). */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    n += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;
  }
  return n;
}

/**
 * The paths among `paths` that git's directory walk lists as regular files, links or
 * nested repositories that are not ignored: `ls-files --others --exclude-standard` against
 * an empty index (so tracked files are listed too), limited by {@linkcode walkPathspecs}.
 * Reads no file, never lists a FIFO, socket or device, never enters a linked directory.
 */
async function walked(top: string, commonDir: string, paths: readonly string[]) {
  const specs = walkPathspecs(paths);
  const listed = await runGit([
    ...LSTAT_CONFIG,
    "--literal-pathspecs",
    "ls-files",
    "-z",
    "--others",
    "--exclude-standard",
    ...(specs.length > 0 ? ["--", ...specs] : []),
  ], {
    cwd: top,
    env: { GIT_INDEX_FILE: privateIndexPath(commonDir) }, // never written: an empty index
    parse: true,
    timeoutMs: HASH_TIMEOUT_MS,
  });
  return new Set(decodePaths(listed.stdout));
}

/**
 * Each path's `lstat` mode, read without opening it: `diff-files --raw` against the
 * placeholders of a seeded index (they have no stat data, so every path that exists is
 * reported with its mode; one that is gone, or lies beyond a link, as `000000`). A FIFO or
 * device is reported as a regular file here.
 */
async function lstatModes(top: string, env: Record<string, string>): Promise<Map<string, string>> {
  // No preload: placeholders never match their stat data, so a preload pass would only
  // `lstat` every path a second time.
  const diff = decodePaths(
    (await runGit([
      ...LSTAT_CONFIG,
      "-c",
      "core.preloadIndex=false",
      "diff-files",
      "--raw",
      "-z",
      "--no-renames",
    ], {
      cwd: top,
      env,
      parse: true,
      timeoutMs: HASH_TIMEOUT_MS,
    })).stdout,
  );
  const modes = new Map<string, string>();
  for (let i = 0; i + 1 < diff.length; i += 2) {
    const m = /^:\d{6} (\d{6}) /.exec(diff[i]!);
    if (m) modes.set(diff[i + 1]!, m[1]!);
  }
  return modes;
}

/**
 * Read what each path holds now (see the module documentation).
 *
 * @param top The worktree's top level.
 * @param commonDir The repository's common git directory (absolute).
 * @param format The object format.
 * @param paths Paths relative to the top level, without a trailing `/`.
 * @returns Path → content.
 * @throws {Error} (a `GitError` or a plain one) when a path's content cannot be read:
 *   never a guess.
 */
export async function readContents(
  top: string,
  commonDir: string,
  format: ObjectFormat,
  paths: readonly string[],
): Promise<Map<string, PathContent>> {
  const all = [...new Set(paths.map((p) => p.replace(/\/$/, "")))].filter((p) => p !== "");
  const out = new Map<string, PathContent>();
  if (all.length === 0) return out;
  // One index cannot hold a path and another below it (a directory replaced by a file, or
  // the reverse): each level of such nesting is read on an index of its own, all at once.
  const levels = nestingLevels(all);
  if (levels.length > MAX_NESTING) {
    throw new Error(
      `cannot read ${levels.length} levels of paths that lie below one another (at most ${MAX_NESTING})`,
    );
  }
  if (levels.length > 1) {
    const parts = await Promise.all(
      levels.map((level) => readLevel(top, commonDir, format, level)),
    );
    return new Map(parts.flatMap((part) => [...part]));
  }
  return await readLevel(top, commonDir, format, all);
}

/** Most levels of asked paths lying below one another (honest states make two or three). */
const MAX_NESTING = 8;

/**
 * Group paths by how many of the others lie above them (`lib` 0, `lib/c.ts` 1): no path in a
 * group lies below another of it. One pass over the paths sorted with `/` first, so a
 * path's descendants follow it directly.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(nestingLevels(["a/b", "a", "a-b", "a/b/c", "c"]), [["a", "a-b", "c"], ["a/b"], ["a/b/c"]]);
 * ```
 * @param paths Distinct paths without a trailing `/`.
 * @returns The groups, level 0 first.
 */
export function nestingLevels(paths: readonly string[]): string[][] {
  const key = (p: string) => p.replaceAll("/", "\0");
  const sorted = [...paths].map((p) => [key(p), p] as const).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  const levels: string[][] = [];
  const above: string[] = []; // keys of the asked paths above the current one
  for (const [k, p] of sorted) {
    while (above.length > 0 && !k.startsWith(`${above[above.length - 1]}\0`)) above.pop();
    (levels[above.length] ??= []).push(p);
    above.push(k);
  }
  return levels;
}

/**
 * {@linkcode readContents} for paths none of which lies below another.
 *
 * Kept whole: its three readings (the walk, the `lstat` modes, the hashes) run at once and
 * their results are joined path by path; the join is the function.
 */
async function readLevel(
  top: string,
  commonDir: string,
  format: ObjectFormat,
  all: readonly string[],
): Promise<Map<string, PathContent>> {
  const out = new Map<string, PathContent>();
  const env = await seedIndex(top, commonDir, format, all);
  const [listed, modes] = await Promise.all([
    walked(top, commonDir, all.filter(arguable)),
    lstatModes(top, env),
  ]);
  const regular: string[] = [];
  const apart: string[] = [];
  // A name no index can hold (a `.git` component in any case, `.GIT` or `src/.Git/x`, and
  // what `core.protectNTFS` or `core.protectHFS` take for one): not seeded, so `diff-files`
  // says nothing of it, and `git add` would refuse it. Typed by `lstat` alone, one by one
  // (only a child makes such names), and read as the other paths are.
  const unindexed: string[] = [];
  for (const path of all) {
    const mode = modes.get(path);
    // A nested repository without a commit: git takes it for a directory (no gitlink: no
    // commit to name), so `lstat` against a file entry says gone, yet the walk lists it.
    if (mode === "000000" && listed.has(`${path}/`)) out.set(path, UNBORN_REPOSITORY); // tether:guard unborn-nested
    else if (mode === "000000") out.set(path, { kind: "absent" });
    else if (REGULAR_MODES.has(mode ?? "") && listed.has(path)) { // guard: only walked files are read
      out.set(path, { kind: "file", mode: mode!, raw: "" });
      regular.push(path);
    } else if (mode === undefined) unindexed.push(path); // tether:guard unindexable-name
    else apart.push(path); // a link, a repository, ignored, special, displaced, unlisted
  }
  const [raw, part, unindexedKinds] = await Promise.all([
    hashRegularFiles(top, regular, ["--no-filters"], Number.POSITIVE_INFINITY), // guard: raw bytes
    addApart(top, env, apart),
    pathKinds(top, unindexed),
  ]);
  const dummy = placeholder(format);
  const added: string[] = [];
  const left: string[] = [];
  for (const path of part.wanted) {
    const found = part.refused.has(path) ? undefined : part.indexed.get(path);
    if (found === undefined) out.set(path, { kind: "absent" });
    else if (found.oid === dummy) left.push(path); // guard: unread is no content
    else if (found.mode === "120000") {
      out.set(path, { kind: "symlink", mode: found.mode, raw: found.oid, filtered: found.oid });
    } else if (found.mode === "160000") {
      out.set(path, { kind: "gitlink", mode: found.mode, raw: found.oid, filtered: found.oid });
    } else {
      // What `git add` stored is not kept as the filtered id: a filter it ran could have
      // printed anything ({@linkcode addFilteredIds} reads it with every filter pinned).
      out.set(path, { kind: "file", mode: found.mode, raw: "" });
      added.push(path);
    }
  }
  for (const path of part.refused) out.set(path, { kind: "absent" });
  const unindexedLinks: string[] = [];
  for (const path of unindexed) {
    const kind = unindexedKinds.get(path);
    if (kind?.kind === "regular") {
      out.set(path, { kind: "file", mode: kind.mode, raw: "" });
      added.push(path);
    } else if (kind?.kind === "symlink") unindexedLinks.push(path);
    else if (kind?.kind === "special") out.set(path, { kind: "special", mode: kind.mode });
    // `lstat` through git says nothing of a directory: the walk tells a repository (`x/`)
    // and a link to a directory (`x`, which git lists as a file) from nothing.
    else if (listed.has(`${path}/`)) out.set(path, UNINDEXABLE_REPOSITORY); // tether:guard unindexable-dir
    else if (listed.has(path)) out.set(path, UNINDEXABLE_LINK);
    else out.set(path, { kind: "absent" });
  }
  const [rawAdded, kinds, links] = await Promise.all([
    hashRegularFiles(top, added, ["--no-filters"]),
    pathKinds(top, left),
    symlinkBlobIds(top, unindexedLinks.filter(fitsArgv)),
  ]);
  for (const path of unindexedLinks) {
    const id = links.get(path);
    if (!id) throw new Error(`cannot read ${JSON.stringify(path)}: git could not read the link`);
    out.set(path, { kind: "symlink", mode: SYMLINK_MODE, raw: id, filtered: id });
  }
  for (const [paths, ids] of [[regular, raw], [added, rawAdded]] as const) {
    for (const path of paths) {
      const id = ids.get(path);
      if (!id) throw new Error(`cannot read ${JSON.stringify(path)} (changed while it was read?)`);
      const entry = out.get(path);
      if (entry?.kind === "file") entry.raw = id;
    }
  }
  for (const path of left) {
    const kind = kinds.get(path);
    if (kind?.kind === "special") out.set(path, { kind: "special", mode: kind.mode });
    else if (kind?.kind === "none") out.set(path, { kind: "absent" });
    else throw new Error(`cannot read ${JSON.stringify(path)}: git could not add it`);
  }
  return out;
}

/**
 * A comparable description of what a path holds: type and raw id, the special file's
 * mode, or `absent`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(contentKey({ kind: "file", mode: "100755", raw: "ab", filtered: "cd" }), "100755:ab");
 * assertEquals(contentKey({ kind: "absent" }), "absent");
 * ```
 * @param content What was read.
 * @returns The key.
 */
export function contentKey(content: PathContent): string {
  if (content.kind === "absent") return "absent";
  if (content.kind === "special") return `special:${content.mode}`;
  return `${content.mode}:${content.raw}`;
}
