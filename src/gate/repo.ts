/**
 * The live repository as `gate` sees it, read through the one git runner: top level,
 * object format, HEAD, the files at evidence paths, and the files changed between two
 * commits.
 *
 * @module
 */
import {
  parsePorcelainV2Z,
  REGULAR_MODES,
  type StatusEntry,
  SYMLINK_MODE,
  worktreeMode,
} from "../context/porcelain.ts";
import { STATUS_ARGS, STATUS_TIMEOUT_MS } from "../context/status.ts";
import { readContents } from "../context/content.ts";
import { readFilterPins } from "../context/filters.ts";
import { decodePaths, decodeRecords, fitsArgv } from "../paths.ts";
import { gitText, runGit } from "../git.ts";
import { ownWords } from "../git_failure.ts";
import { pinProblem } from "../repo_pin.ts";
import { HISTORY_CONFIG, HISTORY_ENV, parseCommit, readObjects } from "./objects.ts";
import { hashRegularFiles, pathKinds, repoDirs } from "../context/lstat.ts";
import { addFilteredIds } from "../context/filtered.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { pinRepository } from "../git_pin.ts";
import { GitError } from "../git_error.ts";

const decoder = new TextDecoder();

/** `gate` cannot reach a verdict: no repository, a missing snapshot, git failing. */
export class GateError extends Error {
  /**
   * Create the error.
   *
   * @param message What is wrong, sentence case, offending value quoted.
   */
  constructor(message: string) {
    super(message);
    this.name = "GateError";
  }
}

/** The live repository. */
export interface LiveRepo {
  /** Top level of the worktree gate runs in. */
  top: string;
  /** Object format. */
  format: ObjectFormat;
  /** Full HEAD, or null on an unborn branch. */
  head: string | null;
}

/** Git failing while the repository is opened, in gate's words. */
function openError(error: unknown): unknown {
  if (error instanceof GitError && error.kind === "not-a-repository") {
    return new GateError("Cannot evaluate: not inside a git worktree");
  }
  if (error instanceof GitError) return new GateError(`Cannot evaluate: ${ownWords(error)}`);
  return error;
}

/**
 * The top level and object format around the current directory (or `cwd`): one git call,
 * what a `git status` of the worktree needs.
 *
 * @param cwd A directory inside the worktree; defaults to the current directory.
 * @param pin Pin every later git call of the process to this repository (`gate --since`
 *   in the current directory, see src/repo_pin.ts), after refusing a directory outside the
 *   work tree git names (a `core.worktree` elsewhere) or a main git dir with a `commondir`.
 * @returns Top level and object format.
 * @throws {GateError} when the directory is not inside a git worktree or git fails.
 */
export async function openTop(cwd?: string, pin = false): Promise<Omit<LiveRepo, "head">> {
  try {
    const pins = pin ? ["--absolute-git-dir", "--git-common-dir", "--is-inside-work-tree"] : [];
    const [top, format, gitDir = "", commonDir = "", inside] = (await gitText(
      ["rev-parse", "--path-format=absolute", "--show-toplevel", "--show-object-format", ...pins],
      cwd === undefined ? {} : { cwd },
    )).split("\n");
    if (!top) throw new GateError("Cannot evaluate: git printed no top level");
    if (pin) {
      const problem = pinProblem({ top, gitDir, commonDir }, inside === "true"); // tether:guard pin-since
      if (problem !== undefined) throw new GateError(`Cannot evaluate: ${problem}`);
      pinRepository({ top, gitDir, commonDir });
    }
    return { top, format: format === "sha256" ? "sha256" : "sha1" };
  } catch (error) {
    throw openError(error);
  }
}

/**
 * The repository {@linkcode openTop} found, with its HEAD.
 *
 * @param opened What {@linkcode openTop} returned.
 * @returns Top level, object format and HEAD.
 * @throws {GateError} when git fails.
 */
export async function withHead(opened: Omit<LiveRepo, "head">): Promise<LiveRepo> {
  try {
    const head = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
      cwd: opened.top,
      parse: true,
      allowFailure: true,
    });
    return { ...opened, head: head.code === 0 ? decoder.decode(head.stdout).trim() : null };
  } catch (error) {
    throw openError(error);
  }
}

/**
 * Read the repository around the current directory (or `cwd`).
 *
 * @param cwd A directory inside the worktree; defaults to the current directory.
 * @param pin Pin every later git call of the process to it (see {@linkcode openTop}).
 * @returns Top level, object format and HEAD.
 * @throws {GateError} when the directory is not inside a git worktree or git fails.
 */
export async function openRepo(cwd?: string, pin = false): Promise<LiveRepo> {
  return await withHead(await openTop(cwd, pin));
}

/**
 * The type of each object id (`commit`, `blob`, …), or `missing`, in one git call.
 *
 * @param top Top level.
 * @param oids Validated full object ids.
 * @returns Object id → type.
 */
export async function objectTypes(
  top: string,
  oids: readonly string[],
): Promise<Map<string, string>> {
  const types = new Map<string, string>();
  // The runner writes all of stdin before reading stdout: keep each answer under 64 KiB.
  for (let start = 0; start < oids.length; start += 500) {
    const chunk = oids.slice(start, start + 500);
    const text = await gitText(["cat-file", "--batch-check=%(objectname) %(objecttype)"], {
      cwd: top,
      env: { ...HISTORY_ENV },
      stdin: chunk.join("\n") + "\n",
    });
    const lines = text.split("\n");
    chunk.forEach((oid, i) => {
      const [, type] = (lines[i] ?? "").split(" ");
      types.set(oid, type ?? "missing");
    });
  }
  return types;
}

/** What gate found at a file evidence path, learned through git without following links. */
export type WorktreeFile =
  | { kind: "regular"; oid: string }
  | { kind: "symlink" }
  | { kind: "special" }
  | { kind: "unchecked" }
  | { kind: "nested"; repo: string }
  | { kind: "missing" };

/** Most argument bytes of one pathspec-limited call (Windows allows 32 KiB). */
const PATHSPEC_BYTES = 16_000;

function chunkByBytes(paths: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    if (current.length > 0 && bytes + path.length > PATHSPEC_BYTES) {
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
 * What each path is in the worktree, without following a symbolic link anywhere on it.
 *
 * A path counts as a file only when git itself reaches it inside the work tree: tracked
 * (`git ls-files --stage`) and not reported deleted by `git status` (which reports a
 * tracked file behind a symlinked directory as deleted), or listed by `git status` as
 * untracked or ignored (git's directory walk never enters a symlinked directory). Its own
 * type comes from the index and status modes, or from `lstat` through
 * `git diff --no-index --raw` when the file changed; only regular files are hashed
 * (`git hash-object`, batched). Pathspecs are literal; per-path calls are bounded.
 * Every name git prints is decoded exactly. A path whose name is not UTF-8 never goes
 * through argv ({@linkcode fitsArgv}): the index is then listed whole, and the path's
 * content is read directly as `readContents` reads it (its names go on stdin).
 *
 * @param top Top level.
 * @param paths Paths relative to the top level, lexically checked by the caller.
 * @returns Path → what was found.
 */
export async function inspectWorktreeFiles(
  top: string,
  paths: readonly string[],
): Promise<Map<string, WorktreeFile>> {
  const unique = [...new Set(paths)];
  // No filter driver the config names runs here either: a clean filter a child planted would
  // run inside gate and decide the id an evidence `oid` is compared with.
  const pins = await readFilterPins(top); // tether:guard gate-evidence-pins
  const { indexModes, statusEntries } = await listPaths(top, unique, pins);
  const found = firstLook(unique, indexModes, statusEntries);
  const kinds = await pathKinds(top, unique.filter((p) => found.get(p) === "lstat"));
  for (const [path, kind] of kinds) {
    const k = kind.kind;
    found.set(path, k === "regular" ? "hash" : { kind: k === "none" ? "missing" : k });
  }
  const blobs = await hashRegularFiles(
    top,
    unique.filter((p) => found.get(p) === "hash"),
    [],
    undefined,
    pins,
  );
  await readApart(top, unique.filter((p) => found.get(p) === "read"), found);
  const out = new Map<string, WorktreeFile>();
  for (const path of unique) {
    const value = found.get(path);
    if (value === "hash") {
      const oid = blobs.get(path);
      out.set(path, oid ? { kind: "regular", oid } : { kind: "missing" });
    } else if (value && value !== "lstat" && value !== "read") out.set(path, value);
    else out.set(path, { kind: "missing" });
  }
  return out;
}

/** What is found of a path before it is looked at: a kind, or how it is to be looked at. */
type FirstLook = WorktreeFile | "lstat" | "hash" | "read";

/**
 * The index modes and status entries of `paths` and of the directories on their way: one
 * `git ls-files` and one `git status` per chunk of literal pathspecs, and the whole index
 * listed once when a name cannot go through argv.
 */
async function listPaths(
  top: string,
  unique: readonly string[],
  pins: readonly string[],
): Promise<{ indexModes: Map<string, string>; statusEntries: Map<string, StatusEntry> }> {
  const prefixes = new Set<string>();
  for (const path of unique) {
    for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
      prefixes.add(path.slice(0, i));
    }
  }
  const indexModes = new Map<string, string>();
  const statusEntries = new Map<string, StatusEntry>();
  const specs = [...new Set([...unique, ...prefixes])];
  const arguable = specs.filter(fitsArgv); // tether:guard pb-evidence-argv
  const indexRecords: Uint8Array[] = [];
  if (arguable.length < specs.length) {
    indexRecords.push(
      (await runGit(["ls-files", "-z", "-v", "--stage"], { cwd: top, parse: true })).stdout,
    );
  }
  for (const chunk of chunkByBytes(arguable)) {
    const [listed, status] = await Promise.all([
      runGit(["--literal-pathspecs", "ls-files", "-z", "-v", "--stage", "--", ...chunk], {
        cwd: top,
        parse: true,
      }),
      runGit([
        ...pins,
        "--literal-pathspecs",
        ...STATUS_ARGS,
        "--ignored=traditional",
        "--",
        ...chunk,
      ], { cwd: top, parse: true, timeoutMs: STATUS_TIMEOUT_MS }),
    ]);
    indexRecords.push(listed.stdout);
    for (const entry of parsePorcelainV2Z(decodeRecords(status.stdout))) {
      statusEntries.set(entry.path, entry);
    }
  }
  for (const record of indexRecords.flatMap(decodePaths)) {
    // `H` is an ordinary entry; assume-unchanged (lower case) and skip-worktree (`S`)
    // entries are not compared with the worktree by git status, so gate cannot vouch.
    const match = /^(\S) (\d{6}) [0-9a-f]+ 0\t(.*)$/s.exec(record);
    if (match) indexModes.set(match[3]!, match[1] === "H" ? match[2]! : "unchecked");
  }
  return { indexModes, statusEntries };
}

/** What each path is by the index and status alone, or how it is still to be looked at. */
function firstLook(
  unique: readonly string[],
  indexModes: ReadonlyMap<string, string>,
  statusEntries: ReadonlyMap<string, StatusEntry>,
): Map<string, FirstLook> {
  // A submodule (a gitlink in the index) or an untracked nested repository (`dir/` in
  // status) on the way: its files are another repository's, which gate does not read.
  const nestedIn = (path: string): string | undefined => {
    for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
      const prefix = path.slice(0, i);
      if (indexModes.get(prefix) === "160000" || statusEntries.has(`${prefix}/`)) return prefix;
    }
    return undefined;
  };
  const found = new Map<string, FirstLook>();
  for (const path of unique) {
    const nested = nestedIn(path);
    if (nested !== undefined) {
      found.set(path, { kind: "nested", repo: nested }); // guard: submodule evidence
      continue;
    }
    if (!fitsArgv(path)) { // tether:guard pb-evidence-read
      found.set(path, "read");
      continue;
    }
    const entry = statusEntries.get(path);
    const mode = entry ? worktreeMode(entry) : indexModes.get(path);
    if (entry && (entry.xy === "??" || entry.xy === "!!")) found.set(path, "lstat");
    else if (mode === undefined || mode === "000000") found.set(path, { kind: "missing" });
    else if (mode === SYMLINK_MODE) found.set(path, { kind: "symlink" });
    else if (mode === "unchecked") found.set(path, { kind: "unchecked" });
    else if (!REGULAR_MODES.has(mode)) found.set(path, { kind: "special" });
    // A clean entry: git matched its stat data, so it is the regular file the index says.
    else if (!entry || entry.xy[1] === " ") found.set(path, "hash");
    // Changed in the worktree: a FIFO in place of a tracked file still shows as 100644.
    else found.set(path, "lstat");
  }
  return found;
}

/**
 * Read paths whose names cannot go through argv directly (see `readContents`: names on
 * stdin, nothing followed) and record what each is, a regular file with the id `git add`
 * would store.
 */
async function readApart(
  top: string,
  paths: readonly string[],
  found: Map<string, FirstLook>,
): Promise<void> {
  if (paths.length === 0) return;
  const dirs = await repoDirs(top);
  const contents = await readContents(top, dirs.commonDir, dirs.format, paths);
  await addFilteredIds(top, contents, paths);
  for (const path of paths) {
    const c = contents.get(path);
    if (c?.kind === "file" && c.filtered) found.set(path, { kind: "regular", oid: c.filtered });
    else if (c?.kind === "symlink" || c?.kind === "special") found.set(path, { kind: c.kind });
    else found.set(path, { kind: "missing" });
  }
}

/** A commit as gate read it: checked against its id, with its tree and committer time. */
export type CommitRead =
  | { kind: "commit"; tree: string; time: number }
  | { kind: "missing" }
  | { kind: "forged" }
  | { kind: "other"; type: string };

/**
 * Read commits, each checked against its id: the type first (`--batch-check`, so a
 * large object of another type is never read), then the content of those that say they
 * are commits (`--batch`), re-hashed in process.
 *
 * @param top Top level.
 * @param oids Validated full object ids.
 * @param format The repository's object format.
 * @returns Object id → what was read.
 * @throws {GitError} when git fails.
 */
export async function readCommits(
  top: string,
  oids: readonly string[],
  format: ObjectFormat,
): Promise<Map<string, CommitRead>> {
  const types = await objectTypes(top, oids);
  const wanted = [...types].filter(([, t]) => t === "commit").map(([oid]) => oid);
  const read = await readObjects(top, wanted, format);
  const out = new Map<string, CommitRead>();
  for (const [oid, type] of types) {
    if (type === "missing") out.set(oid, { kind: "missing" });
    else if (type !== "commit") out.set(oid, { kind: "other", type });
    else {
      const found = read.get(oid);
      if (found?.kind === "ok" && found.type === "commit") {
        out.set(oid, { kind: "commit", ...parseCommit(found.content) });
      } else out.set(oid, found?.kind === "missing" ? { kind: "missing" } : { kind: "forged" });
    }
  }
  return out;
}

/**
 * The commits among `oids` that are not reachable from `base` (one `git rev-list` call).
 *
 * @param top Top level.
 * @param oids Validated full ids of commits.
 * @param base Full id of the commit to compare with, or null (nothing is reachable).
 * @returns The ids not reachable from `base`.
 * @throws {GitError} when git fails.
 */
export async function notReachableFrom(
  top: string,
  oids: readonly string[],
  base: string | null,
): Promise<Set<string>> {
  if (base === null || oids.length === 0) return new Set(oids);
  const walked = await runGit([...HISTORY_CONFIG, "rev-list", "--stdin"], {
    cwd: top,
    env: { ...HISTORY_ENV }, // guard: no grafts or shallow
    stdin: [...oids, `^${base}`].join("\n") + "\n",
    allowFailure: true,
  });
  if (walked.code !== 0) {
    const detail = walked.stderr.trim().split("\n").at(-1) ?? "";
    throw new GateError(
      `Cannot evaluate: cannot walk the history from the spawn's HEAD (a shallow clone?): ${detail}`,
    );
  }
  const listed = decoder.decode(walked.stdout);
  const fresh = new Set(listed.split("\n"));
  return new Set(oids.filter((oid) => fresh.has(oid)));
}

/**
 * Read a snapshot blob's text through git, checked against its id: the bytes must hash to
 * `blob <length>\0<bytes>` under the id, so a replaced or rewritten object is refused.
 *
 * @param top Top level.
 * @param oid A validated full object id of the repository's format.
 * @param format The repository's object format.
 * @returns The blob's text.
 * @throws {GateError} when no such blob exists or it does not hash to its id.
 */
export async function readBlob(top: string, oid: string, format: ObjectFormat): Promise<string> {
  const found = (await readObjects(top, [oid], format)).get(oid);
  if (found?.kind === "forged") {
    throw new GateError(
      `Cannot evaluate: snapshot "${oid}" does not hash to its id (the object store was altered)`,
    );
  }
  if (found?.kind !== "ok" || found.type !== "blob") {
    throw new GateError(
      `Cannot evaluate: snapshot "${oid}" is not a blob in this repository (released or expired?)`,
    );
  }
  return decoder.decode(found.content);
}
