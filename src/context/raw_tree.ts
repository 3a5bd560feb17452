/**
 * A tree of a worktree's paths as raw bytes, written through a private index: what the
 * seed and a land record hold, with no filter, line-ending or encoding rewrite.
 *
 * @module
 */
import { gitText, runGit } from "../git.ts";
import { decodePaths, fitsArgv, globPathspec, PATHSPEC_MAGIC_ENV } from "../paths.ts";
import { HASH_TIMEOUT_MS, hashRegularFiles, LSTAT_CONFIG, placeholder } from "./lstat.ts";
import { REGULAR_MODES } from "./porcelain.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** A path as a raw tree records it: its `lstat` mode and the id of its raw content. */
export interface RawEntry {
  /** `100644`, `100755`, `120000` or `160000`. */
  mode: string;
  /** Blob id of the raw bytes or link text, or the nested repository's HEAD commit. */
  oid: string;
}

/** A tree of a worktree's files written from their raw bytes, and its entries. */
export interface RawTree {
  /** The tree id. */
  tree: string;
  /** Path → entry, for every path in the tree. */
  files: Map<string, RawEntry>;
  /** The untracked paths `leaveOut` dropped. */
  left: string[];
}

/** Options for {@linkcode writeRawTree}. */
export interface RawTreeOptions {
  /** A private index the caller chose (absolute; `<index>-none` is read as an empty index). */
  index: string;
  /** The paths the worktree tracks (they count even when ignored). */
  tracked: readonly string[];
  /**
   * The tracked submodules (path → the commit recorded for them). One that is not checked
   * out (an empty directory) keeps its recorded commit, as `git add -A` keeps it.
   */
  gitlinks?: ReadonlyMap<string, string>;
  /** The object format. */
  format: ObjectFormat;
  /** Extra `-c` settings placed before every call. */
  config?: readonly string[];
  /** Extra environment for every call. */
  env?: Record<string, string>;
  /**
   * Untracked paths to leave out besides the ignored ones: given the private index holding
   * every candidate path (before any file is read), the paths to drop; a tracked path or
   * submodule is never dropped. The capture's user ignore file (src/seed/excludes.ts).
   */
  leaveOut?: (index: Record<string, string>) => Promise<ReadonlySet<string>>;
}

/**
 * Config for every call that reads an untrusted worktree: types from `lstat`, no fsmonitor,
 * and no hook (an index write runs `post-index-change` from `core.hooksPath`).
 */
export const RAW_CONFIG: readonly string[] = [
  ...LSTAT_CONFIG,
  "-c",
  "core.hooksPath=/dev/null", // GUARD:raw-no-hooks
  "-c",
  "core.ignoreStat=false",
  "-c",
  "core.trustctime=true",
  "-c",
  "core.checkStat=default",
];

/** git's NUL-separated output, each name decoded without loss (two names never one string). */
function nulList(bytes: Uint8Array): string[] {
  return decodePaths(bytes);
}

/** Path chunks whose argument bytes stay under the limit of one command line. */
function byBytes(paths: readonly string[], limit = 16_000): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    if (current.length > 0 && bytes + path.length > limit) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(path);
    bytes += path.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Write the tree of a worktree's files as their raw bytes, as `git add -A` would choose
 * them (tracked paths, and untracked ones that are not ignored; symbolic links as links,
 * nested repositories at their HEAD commit, special files skipped) but without running
 * anything the worktree configures: no clean filter, no line-ending or encoding rewrite,
 * no hook, no fsmonitor, and no symbolic link is followed. Regular files are hashed with
 * `hash-object --no-filters`; a link's text and a nested repository's HEAD are read by
 * `update-index --add`, which converts neither. A bounded number of git calls:
 *
 * 1. `ls-files -o --exclude-standard` with an empty index lists every regular file, link
 *    and nested repository that is not ignored (git never enters a linked directory, and
 *    lists no FIFO, socket or device); the tracked paths it did not list (ignored ones)
 *    are looked up by name;
 * 2. `diff-files --raw` against placeholder entries gives each path's `lstat` mode
 *    without reading it;
 * 3. the regular files are hashed, the links and repositories added, the tree written.
 *
 * @param top The worktree's top level.
 * @param options The private index, the tracked paths and the format.
 * @returns The tree and its entries.
 * @throws {GitError} when git fails.
 *
 * Kept whole: the three steps above share one private index and its placeholder entries;
 * each must see exactly what the one before wrote.
 */
export async function writeRawTree(top: string, options: RawTreeOptions): Promise<RawTree> {
  const config = [...RAW_CONFIG, ...(options.config ?? [])];
  const env = { ...options.env, GIT_INDEX_FILE: options.index };
  const none = { ...options.env, GIT_INDEX_FILE: `${options.index}-none` };
  const at = { cwd: top, parse: true, timeoutMs: HASH_TIMEOUT_MS };
  const listed = nulList(
    (await runGit([...config, "ls-files", "-z", "--others", "--exclude-standard"], {
      ...at,
      env: none,
    })).stdout,
  );
  const seen = new Set(listed);
  const rest = [...new Set(options.tracked)].filter((p) => !seen.has(p) && !seen.has(`${p}/`));
  // A name argv cannot carry is looked up by a glob that matches its bytes; only the exact
  // paths asked for (or what lies below them) are kept.
  const specs = rest.map((p) => fitsArgv(p) ? `:(literal)${p}` : globPathspec(p)); // tether:guard pb-raw-tracked
  const asked = new Set(rest);
  const wanted = (path: string) =>
    [...path.matchAll(/\//g)].some((m) => asked.has(path.slice(0, m.index))) ||
    asked.has(path.replace(/\/$/, ""));
  for (const chunk of byBytes(specs)) {
    const more = await runGit(
      [...config, "ls-files", "-z", "--others", "--", ...chunk],
      { ...at, env: { ...none, ...PATHSPEC_MAGIC_ENV } },
    );
    for (const path of nulList(more.stdout)) if (wanted(path)) seen.add(path);
  }
  const gitlinks = options.gitlinks ?? new Map<string, string>();
  const all = [...new Set([...[...seen].map((p) => p.replace(/\/$/, "")), ...gitlinks.keys()])];
  const files = new Map<string, RawEntry>();
  if (all.length === 0) {
    await runGit([...config, "read-tree", "--empty"], { ...at, env });
    return { tree: await gitText([...config, "write-tree"], { ...at, env }), files, left: [] };
  }
  const dummy = placeholder(options.format);
  await runGit([...config, "read-tree", "--empty"], { ...at, env });
  await runGit([...config, "update-index", "-z", "--index-info"], {
    ...at,
    env,
    stdin: all.map((p) => {
      const commit = gitlinks.get(p);
      return commit === undefined ? `100644 ${dummy}\t${p}\0` : `160000 ${commit}\t${p}\0`;
    }).join(""),
  });
  // Left out before any file is read or hashed: a dropped file's bytes never reach the
  // object store.
  const tracked = new Set(options.tracked);
  const drop = options.leaveOut ? await options.leaveOut(env) : new Set<string>();
  const left = all.filter((p) => drop.has(p) && !tracked.has(p) && !gitlinks.has(p));
  const dropped = new Set(left);
  const paths = all.filter((p) => !dropped.has(p)); // tether:guard excl-drop
  // Placeholders have no stat data, so every path is reported with what `lstat` found,
  // and no content is read; a submodule is reported only when its HEAD is not the
  // recorded commit (`dirty`: no `git status` runs inside it).
  const diff = nulList(
    (await runGit([
      ...config,
      "diff-files",
      "--raw",
      "-z",
      "--no-renames",
      "--ignore-submodules=dirty",
    ], { ...at, env })).stdout,
  );
  const modes = new Map<string, string>();
  for (let i = 0; i + 1 < diff.length; i += 2) {
    const m = /^:\d{6} (\d{6}) /.exec(diff[i]!);
    if (m) modes.set(diff[i + 1]!, m[1]!);
  }
  const regular = paths.filter((p) => REGULAR_MODES.has(modes.get(p) ?? ""));
  const linked = paths.filter((p) => modes.get(p) === "120000" || modes.get(p) === "160000");
  const raw = await hashRegularFiles(
    top,
    regular,
    ["--no-filters", "-w"], // GUARD:raw-no-filters
    Number.POSITIVE_INFINITY,
  );
  const info: string[] = left.map((p) => `0 ${dummy}\t${p}\0`);
  for (const path of paths) {
    const mode = modes.get(path);
    const oid = raw.get(path);
    const commit = gitlinks.get(path);
    if (mode === undefined && commit !== undefined) {
      files.set(path, { mode: "160000", oid: commit });
    } else if (mode !== undefined && REGULAR_MODES.has(mode) && oid) {
      info.push(`${mode} ${oid}\t${path}\0`);
      files.set(path, { mode, oid });
    } else if (mode === "160000") info.push(`160000 ${commit ?? dummy}\t${path}\0`);
    else if (mode !== undefined && REGULAR_MODES.has(mode)) {
      // A regular file git could not hash is never left out of the tree: the capture fails.
      throw new GitError("failed", `cannot read ${JSON.stringify(path)}: git could not hash it`); // tether:guard pb-raw-unread
    } else if (mode !== "120000") info.push(`0 ${dummy}\t${path}\0`); // gone
  }
  await runGit([...config, "update-index", "-z", "--index-info"], {
    ...at,
    env,
    stdin: info.join(""),
  });
  if (linked.length > 0) {
    await runGit([...config, "update-index", "--add", "--remove", "-z", "--stdin"], {
      ...at,
      env,
      stdin: linked.map((p) => `${p}\0`).join(""),
    });
    const isLinked = new Set(linked);
    const entries = await runGit([...config, "ls-files", "-s", "-z"], { ...at, env }); // the whole index: no name in argv
    for (const record of nulList(entries.stdout)) {
      const match = /^(\d{6}) ([0-9a-f]+) 0\t(.*)$/s.exec(record);
      if (!match || match[2] === dummy || !isLinked.has(match[3]!)) continue;
      if (match[1] !== modes.get(match[3]!)) {
        throw new GitError(
          "failed",
          `${JSON.stringify(match[3])} changed type while it was read`,
        );
      }
      files.set(match[3]!, { mode: match[1]!, oid: match[2]! });
    }
  }
  // A placeholder left (a path that changed type while it was read) fails here: its
  // object does not exist.
  const tree = await gitText([...config, "write-tree"], { ...at, env });
  return { tree, files, left };
}
