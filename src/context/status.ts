/**
 * Reading the live status of a worktree through git: every porcelain v2 entry (letters,
 * modes, HEAD and index object ids), each with the blob id of its worktree content, so
 * two readings taken at different times can be compared entry by entry. Shared by
 * `handshake --context` (spawn) and `gate` (completion).
 *
 * Nothing here reads a file that is not a regular file: a FIFO would block git forever
 * and a link to `/dev/zero` would feed it without end. A path's type is learned without
 * reading it (porcelain v2 modes, `git diff-files`, and `git diff --no-index --raw`, which
 * only `lstat`s), regular files are hashed in batches, symbolic links are identified by
 * their link text (read with `readlink`, never followed), anything else gets no id.
 *
 * @module
 */
import { type GitOptions, type GitResult, gitText, runGit } from "../git.ts";
import { GIT_CONCURRENCY, mapBounded } from "./bounded.ts";
import {
  parsePorcelainV2Z,
  REGULAR_MODES,
  type StatusEntry,
  SYMLINK_MODE,
  worktreeMode,
} from "./porcelain.ts";

const decoder = new TextDecoder();

/** The status command both sides use: files, not collapsed directories; renames split. */
export const STATUS_ARGS: readonly string[] = [
  "status",
  "--porcelain=v2",
  "-z",
  "--untracked-files=all",
  "--no-renames",
];

/**
 * Worktree-vs-index changes of tracked files. git computes the blob id of every listed
 * worktree file to count lines, and refuses (exit 128, "unsupported file type") rather
 * than read a FIFO or a device: when it succeeds, every path it lists was a regular file
 * or a symbolic link, and can be hashed without a per-path type check.
 */
const NUMSTAT_ARGS: readonly string[] = [
  "diff-files",
  "--numstat",
  "-z",
  "--no-renames",
  "--no-ext-diff",
  "--no-textconv",
  "--ignore-submodules",
];

/**
 * How long one status-like call may take. `git status` and `diff-files` run the
 * repository's clean filters on files whose stat data changed (as every `git status`
 * does); a filter that never ends must not hang the capture or gate.
 */
export const STATUS_TIMEOUT_MS = 300_000;

/** What a worktree path is, learned without reading it. */
export type PathKind = "regular" | "symlink" | "special" | "none";

/**
 * Read every status entry of the worktree at `top`, with the id of what each path holds.
 *
 * The content ids come from a bounded number of git calls, whatever the number of
 * entries: the entries' paths are added to a private index beside the worktree's own
 * (`<git dir>/tether-context-index`; the user's index is never touched) with
 * `git add -f --ignore-errors --pathspec-from-file`, which `lstat`s each path and stores
 * a regular file as `git add` would, a symbolic link as its link text (never followed,
 * also a link to a directory), a nested repository or submodule as the commit its HEAD
 * names, and skips anything else (a FIFO or device is never opened); `git ls-files -s`
 * then lists the ids. When that fails (a path vanished meanwhile, an unreadable file),
 * the slower per-path reading below is used instead.
 *
 * @param top The worktree's top level.
 * @returns The entries in git's order.
 * @throws {GitError} when git fails.
 */
export async function readStatusEntries(top: string): Promise<StatusEntry[]> {
  const [status, gitDir] = await Promise.all([
    runGit(STATUS_ARGS, { cwd: top, parse: true, timeoutMs: STATUS_TIMEOUT_MS }),
    gitText(["rev-parse", "--absolute-git-dir"], { cwd: top }),
  ]);
  const entries = parsePorcelainV2Z(decoder.decode(status.stdout));
  const content = await contentThroughIndex(top, `${gitDir}/${CONTEXT_INDEX_NAME}`, entries);
  if (content === undefined) {
    await hashWorktreeFiles(top, entries, await numstatChecked(top));
    return entries;
  }
  for (const entry of entries) {
    const found = content.get(entry.path.replace(/\/$/, ""));
    if (entry.xy === "??" || entry.xy === "!!") entry.state = found?.mode ?? "none";
    entry.oid = found?.oid ?? null;
  }
  return entries;
}

/** The private index the working context reads content through. */
export const CONTEXT_INDEX_NAME = "tether-context-index";

/** How often a call on the private index is retried while another process holds its lock. */
const LOCK_RETRIES = 40;

/** Run git on the private index, waiting while another capture holds its lock. */
async function onPrivateIndex(
  args: readonly string[],
  options: GitOptions,
): Promise<GitResult> {
  for (let attempt = 0;; attempt++) {
    const r = await runGit(args, { ...options, allowFailure: true });
    if (r.code === 0 || attempt >= LOCK_RETRIES || !/\.lock'?: File exists/.test(r.stderr)) {
      return r;
    }
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
}

/**
 * Mode and id of what each entry's path holds, from a private index (see
 * {@linkcode readStatusEntries}): three git calls, whatever the number of paths.
 *
 * @returns Path (without a trailing `/`) → mode and id, or undefined when git could not
 *   add every path (the caller then reads path by path).
 */
async function contentThroughIndex(
  top: string,
  indexFile: string,
  entries: readonly StatusEntry[],
): Promise<Map<string, { mode: string; oid: string }> | undefined> {
  const paths = [
    ...new Set(
      entries.filter((e) => e.xy[1] !== "D" && e.xy !== "D ").map((e) => e.path.replace(/\/$/, "")),
    ),
  ];
  const out = new Map<string, { mode: string; oid: string }>();
  if (paths.length === 0) return out;
  const env = { GIT_INDEX_FILE: indexFile };
  const emptied = await onPrivateIndex(["read-tree", "--empty"], { cwd: top, env });
  if (emptied.code !== 0) return undefined;
  const added = await onPrivateIndex(
    [
      "--literal-pathspecs",
      "add",
      "-f",
      "--ignore-errors",
      "--pathspec-from-file=-",
      "--pathspec-file-nul",
    ],
    { cwd: top, env, stdin: paths.join("\0") + "\0", timeoutMs: HASH_TIMEOUT_MS },
  );
  if (added.code !== 0) return undefined; // guard: bounded processes
  const listed = await runGit(["ls-files", "-s", "-z"], { cwd: top, env, parse: true });
  for (const record of decoder.decode(listed.stdout).split("\0")) {
    const match = /^(\d{6}) ([0-9a-f]+) 0\t(.*)$/s.exec(record);
    if (match) out.set(match[3]!, { mode: match[1]!, oid: match[2]! }); // guard: every kind
  }
  return out;
}

/** Paths `git diff-files --numstat` lists without failing: files or links, never special. */
async function numstatChecked(top: string): Promise<Set<string>> {
  const numstat = await runGit(NUMSTAT_ARGS, {
    cwd: top,
    parse: true,
    allowFailure: true,
    timeoutMs: STATUS_TIMEOUT_MS,
  });
  return numstat.code === 0 ? numstatPaths(decoder.decode(numstat.stdout)) : new Set<string>();
}

/** The paths of `diff-files --numstat -z` output (`added\tdeleted\tpath\0`). */
function numstatPaths(text: string): Set<string> {
  const paths = new Set<string>();
  for (const record of text.split("\0")) {
    const match = /^(?:\d+|-)\t(?:\d+|-)\t(.*)$/s.exec(record);
    if (match?.[1]) paths.add(match[1]);
  }
  return paths;
}

/**
 * How an entry's worktree file can be read: already known regular, known symlink, known
 * to have no file, or unknown (ask `lstat` through git first).
 */
function knownKind(
  entry: StatusEntry,
  checked: ReadonlySet<string>,
): PathKind | "submodule" | "unknown" {
  if (entry.xy === "??" || entry.xy === "!!") return "unknown";
  const mode = worktreeMode(entry);
  if (mode === undefined) return "unknown";
  if (mode === SYMLINK_MODE) return "symlink";
  if (mode === GITLINK_MODE) return "submodule";
  if (!REGULAR_MODES.has(mode)) return "none";
  // Unchanged against the index: git compared the file's stat data, so it is regular.
  if (entry.xy[1] === " " && (entry.state ?? "").split(" ").length === 6) return "regular";
  return checked.has(entry.path) ? "regular" : "unknown";
}

/**
 * Fill in `oid` for entries whose worktree file is a regular file or a symbolic link,
 * a submodule's entry the commit it has checked out, and record the `lstat` mode of
 * untracked entries in `state`. Regular files are hashed as `git add` would store them
 * (the repository's clean filters apply, as they do for `git status`), so an id compares
 * equal to the blob a commit holds for the same content.
 *
 * @param top The worktree's top level.
 * @param entries Entries to update in place.
 * @param checked Paths `git diff-files --numstat` listed without failing (known safe).
 */
export async function hashWorktreeFiles(
  top: string,
  entries: StatusEntry[],
  checked: ReadonlySet<string> = new Set(),
): Promise<void> {
  const kinds = entries.map((e) => knownKind(e, checked));
  const unknown = entries.filter((_, i) => kinds[i] === "unknown").map((e) => e.path);
  const learned = await pathKinds(top, unknown);
  const regular: StatusEntry[] = [];
  const links: StatusEntry[] = [];
  const submodules: StatusEntry[] = [];
  entries.forEach((entry, i) => {
    let kind = kinds[i];
    if (kind === "unknown") {
      kind = learned.get(entry.path)?.kind ?? "none";
      if (entry.xy === "??" || entry.xy === "!!") {
        entry.state = learned.get(entry.path)?.mode ?? "none";
      }
    }
    if (kind === "regular") regular.push(entry);
    else if (kind === "symlink") links.push(entry);
    else if (kind === "submodule") submodules.push(entry); // guard: submodule commit
  });
  const [blobs, linkIds, commits] = await Promise.all([
    hashRegularFiles(top, regular.map((e) => e.path), []),
    symlinkBlobIds(top, links.map((e) => e.path)),
    submoduleCommits(top, submodules),
  ]);
  for (const e of regular) e.oid = blobs.get(e.path) ?? null;
  for (const e of links) e.oid = linkIds.get(e.path) ?? null;
  for (const e of submodules) e.oid = commits.get(e.path) ?? null;
}

/** The mode git gives a submodule (a gitlink). */
const GITLINK_MODE = "160000";

/**
 * The commit each submodule has checked out: the index's commit when porcelain v2 says
 * the submodule's commit did not change (`S.` in the submodule field), otherwise its HEAD
 * read with `git rev-parse` inside it (one call per moved submodule, at most
 * {@linkcode GIT_CONCURRENCY} at once; only refs are read).
 *
 * @param top The worktree's top level.
 * @param entries Status entries of submodules.
 * @returns Path → commit id, for the submodules whose HEAD could be read.
 */
async function submoduleCommits(
  top: string,
  entries: readonly StatusEntry[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const moved: StatusEntry[] = [];
  for (const e of entries) {
    const fields = (e.state ?? "").split(" ");
    if (fields.length === 6 && fields[0]?.startsWith("S.")) out.set(e.path, fields[5]!);
    else moved.push(e);
  }
  const heads = await mapBounded(moved, GIT_CONCURRENCY, async (e) => {
    const r = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
      cwd: `${top}/${e.path}`,
      parse: true,
      allowFailure: true,
    });
    return r.code === 0 ? decoder.decode(r.stdout).trim() : null;
  });
  moved.forEach((e, i) => {
    const head = heads[i];
    if (head) out.set(e.path, head);
  });
  return out;
}

/**
 * The kind and mode of worktree paths, learned with `lstat` only: one
 * `git diff --no-index --raw -z -- /dev/null <path>` per path (git prints the mode of
 * what `lstat` found and reads nothing in raw mode), at most {@linkcode GIT_CONCURRENCY}
 * at a time. A FIFO or device shows as a mode that is neither a file nor a link; a path
 * that is missing or a directory (or a link to one) prints nothing and is `none`.
 *
 * @param top The worktree's top level.
 * @param paths Paths relative to the top level, as git printed them.
 * @returns Path → kind and mode (mode `none` when nothing was printed for it).
 */
export async function pathKinds(
  top: string,
  paths: readonly string[],
): Promise<Map<string, { kind: PathKind; mode: string }>> {
  const unique = [...new Set(paths)];
  const found = await mapBounded(unique, GIT_CONCURRENCY, async (path) => {
    const r = await runGit(["diff", "--no-index", "--raw", "-z", "--", "/dev/null", path], {
      cwd: top,
      parse: true,
      allowFailure: true,
    });
    const [header, printed] = decoder.decode(r.stdout).split("\0");
    const mode = /^:000000 (\d{6}) /.exec(header ?? "")?.[1];
    if (mode === undefined || printed !== path) return { kind: "none" as const, mode: "none" };
    const kind: PathKind = REGULAR_MODES.has(mode)
      ? "regular"
      : mode === SYMLINK_MODE
      ? "symlink"
      : "special";
    return { kind, mode };
  });
  return new Map(unique.map((p, i) => [p, found[i]!]));
}

/**
 * The blob id of each symbolic link's text, as git would store the link: read from the
 * `index 000…..<oid>` line of `git diff --no-index --full-index -- /dev/null <link>`,
 * which uses `readlink` and never follows the link. A link to a directory (git compares
 * directories instead) or a path that changed meanwhile gets no id. Bounded concurrency.
 *
 * @param top The worktree's top level.
 * @param paths Paths known to be symbolic links.
 * @returns Path → blob id, for the links git could read.
 */
export async function symlinkBlobIds(
  top: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(paths)];
  const ids = await mapBounded(unique, GIT_CONCURRENCY, async (path) => {
    const r = await runGit([
      "diff",
      "--no-index",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--full-index",
      "--",
      "/dev/null",
      path,
    ], { cwd: top, parse: true, allowFailure: true });
    const text = decoder.decode(r.stdout);
    if (!/^new file mode 120000$/m.test(text)) return null;
    return /^index 0+\.\.([0-9a-f]{40,64})$/m.exec(text)?.[1] ?? null;
  });
  const out = new Map<string, string>();
  unique.forEach((p, i) => {
    const id = ids[i];
    if (id) out.set(p, id);
  });
  return out;
}

/**
 * How long one `hash-object` call may take. Only regular files are hashed, but a file can
 * be swapped for a FIFO between the type check and the read: then git is stopped and the
 * capture fails cleanly instead of hanging.
 */
export const HASH_TIMEOUT_MS = 120_000;

/** Paths per `hash-object --stdin-paths` call. */
const HASH_CHUNK = 2000;
/** Most argument bytes of one `hash-object -- <paths>` call (Windows allows 32 KiB). */
const ARGV_BYTES = 16_000;

/**
 * Whether `--stdin-paths` carries a path unchanged: git reads it one line at a time,
 * drops a final CR and C-unquotes a line that starts with a double quote.
 */
function stdinSafe(path: string): boolean {
  // deno-lint-ignore no-control-regex
  return !/[\u0000-\u001f\u007f]/.test(path) && !path.startsWith('"');
}

/**
 * Hash regular files in batches: `--stdin-paths` for plain paths, paths as arguments
 * after `--` for the rest (newline, CR, other control characters, a leading quote). A
 * batch that fails (a file vanished meanwhile) is retried one path at a time, at most
 * {@linkcode GIT_CONCURRENCY} at once. Call only with paths known to be regular files.
 *
 * @param top The worktree's top level.
 * @param paths Regular files relative to the top level.
 * @param flags `hash-object` flags (`--no-filters`, or none to hash as `git add` would).
 * @returns Path → blob id, for the paths git could hash.
 */
export async function hashRegularFiles(
  top: string,
  paths: readonly string[],
  flags: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(paths)];
  const plain = unique.filter(stdinSafe);
  const odd = unique.filter((p) => !stdinSafe(p));
  const batches: { paths: string[]; stdin: boolean }[] = [];
  for (let start = 0; start < plain.length; start += HASH_CHUNK) {
    batches.push({ paths: plain.slice(start, start + HASH_CHUNK), stdin: true });
  }
  let current: string[] = [];
  let bytes = 0;
  for (const path of odd) {
    if (current.length > 0 && bytes + path.length > ARGV_BYTES) {
      batches.push({ paths: current, stdin: false });
      current = [];
      bytes = 0;
    }
    current.push(path);
    bytes += path.length + 1;
  }
  if (current.length > 0) batches.push({ paths: current, stdin: false });

  const out = new Map<string, string>();
  const retry: string[] = [];
  await mapBounded(batches, 2, async (batch) => {
    const r = batch.stdin
      ? await runGit(["hash-object", ...flags, "--stdin-paths"], {
        cwd: top,
        parse: true,
        timeoutMs: HASH_TIMEOUT_MS,
        stdin: batch.paths.join("\n") + "\n",
        allowFailure: true,
      })
      : await runGit(["hash-object", ...flags, "--", ...batch.paths], {
        cwd: top,
        parse: true,
        timeoutMs: HASH_TIMEOUT_MS,
        allowFailure: true,
      });
    const oids = decoder.decode(r.stdout).split("\n");
    if (r.code === 0 && oids.length > batch.paths.length) {
      batch.paths.forEach((p, i) => out.set(p, oids[i]!));
    } else retry.push(...batch.paths);
  });
  await mapBounded(retry, GIT_CONCURRENCY, async (path) => {
    const r = await runGit(["hash-object", ...flags, "--", path], {
      cwd: top,
      parse: true,
      timeoutMs: HASH_TIMEOUT_MS,
      allowFailure: true,
    });
    const oid = decoder.decode(r.stdout).trim();
    if (r.code === 0 && oid) out.set(path, oid);
  });
  return out;
}
