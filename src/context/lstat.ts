/**
 * What worktree paths are and hold, learned with git alone and without reading anything
 * that is not a regular file: a path's type from git's own `lstat` (`diff --no-index --raw`,
 * with `core.fileMode` and `core.symlinks` forced on), a link's blob id from its link text,
 * and regular files hashed as raw bytes in batches. The status reading and the content
 * reading both build on these.
 *
 * @module
 */
import { gitText, runGit } from "../git.ts";
import { GIT_CONCURRENCY, mapBounded } from "./bounded.ts";
import { REGULAR_MODES, SYMLINK_MODE } from "./porcelain.ts";
import { cQuotePath, decodePaths, fitsArgv, globPathspec, PATHSPEC_MAGIC_ENV } from "../paths.ts";
import { type ObjectFormat } from "../git_objects.ts";

const decoder = new TextDecoder();

/** What a worktree path is, learned without reading it. */
export type PathKind = "regular" | "symlink" | "special" | "none";

/** Where a worktree's repository keeps its objects, and their format. */
export interface RepoDirs {
  /** The common git directory, absolute. */
  commonDir: string;
  /** The object format. */
  format: ObjectFormat;
}

/**
 * The common git directory and object format of the worktree at `top` (one git call).
 *
 * @param top The worktree's top level.
 * @returns Directory and format.
 * @throws {GitError} when git fails.
 */
export async function repoDirs(top: string): Promise<RepoDirs> {
  const [commonDir, format] = (await gitText(
    ["rev-parse", "--path-format=absolute", "--git-common-dir", "--show-object-format"],
    { cwd: top },
  )).split("\n");
  return { commonDir: commonDir!, format: format === "sha256" ? "sha256" : "sha1" };
}

/** Refuse paths that argv would turn into other names (see {@linkcode fitsArgv}). */
function refuseArgv(paths: readonly string[]): void {
  const odd = paths.find((p) => !fitsArgv(p));
  if (odd !== undefined) {
    throw new Error(
      `cannot type ${JSON.stringify(odd)} without reading it: its name is not UTF-8`,
    );
  }
}

/** The mode `git diff --no-index --raw` prints for a FIFO, socket or device. */
const SPECIAL_MODE = "160000";

/**
 * {@linkcode pathKinds} for paths argv cannot carry, their names never on the command line:
 * `diff-files --raw` against placeholder entries of a fresh private index (names on stdin)
 * gives each `lstat` mode, and git's directory walk (`ls-files --others` against an empty
 * index, a `:(glob)` pathspec per name, exact names kept), which never lists a FIFO, socket
 * or device, tells a regular file from a special one.
 */
async function kindsOnStdin(
  top: string,
  paths: readonly string[],
): Promise<Map<string, { kind: PathKind; mode: string }>> {
  const out = new Map<string, { kind: PathKind; mode: string }>();
  if (paths.length === 0) return out;
  const { commonDir, format } = await repoDirs(top);
  const env = { GIT_INDEX_FILE: privateIndexPath(commonDir) };
  const dummy = "1".repeat(format === "sha256" ? 64 : 40);
  await runGit([...LSTAT_CONFIG, "update-index", "-z", "--index-info"], {
    cwd: top,
    env,
    stdin: paths.map((p) => `100644 ${dummy}\t${p}\0`).join(""),
  });
  const listed = new Set<string>();
  const walk = async () => {
    const specs = paths.map(globPathspec);
    for (let start = 0, end = 0; start < specs.length; start = end) {
      // One command line at a time (Windows allows 32 KiB).
      for (let bytes = 0; end < specs.length && (end === start || bytes < 16_000); end++) {
        bytes += specs[end]!.length * 3 + 1;
      }
      const walked = await runGit(
        [...LSTAT_CONFIG, "ls-files", "-z", "--others", "--", ...specs.slice(start, end)],
        {
          cwd: top,
          env: { GIT_INDEX_FILE: privateIndexPath(commonDir), ...PATHSPEC_MAGIC_ENV }, // never written
          parse: true,
          timeoutMs: HASH_TIMEOUT_MS,
        },
      );
      for (const path of decodePaths(walked.stdout)) listed.add(path);
    }
  };
  const [diff] = await Promise.all([
    runGit([...LSTAT_CONFIG, "diff-files", "--raw", "-z", "--no-renames"], {
      cwd: top,
      env,
      parse: true,
      timeoutMs: HASH_TIMEOUT_MS,
    }),
    walk(),
  ]);
  const records = decodePaths(diff.stdout);
  const modes = new Map<string, string>();
  for (let i = 0; i + 1 < records.length; i += 2) {
    const m = /^:\d{6} (\d{6}) /.exec(records[i]!);
    if (m) modes.set(records[i + 1]!, m[1]!);
  }
  for (const path of paths) {
    const mode = modes.get(path);
    if (mode === undefined) {
      throw new Error(`cannot type ${JSON.stringify(path)} without reading it`);
    }
    if (REGULAR_MODES.has(mode)) {
      out.set(
        path,
        listed.has(path) // tether:guard pb-kinds-walk (a FIFO is never walked)
          ? { kind: "regular", mode }
          : { kind: "special", mode: SPECIAL_MODE },
      );
    } else if (mode === SYMLINK_MODE) out.set(path, { kind: "symlink", mode });
    else out.set(path, { kind: "none", mode: "none" }); // gone, a directory, a repository
  }
  return out;
}

/**
 * The kind and mode of worktree paths, learned with `lstat` only: one
 * `git diff --no-index --raw -z -- /dev/null <path>` per path (git prints the mode of
 * what `lstat` found and reads nothing in raw mode), at most {@linkcode GIT_CONCURRENCY}
 * at a time. A FIFO or device shows as a mode that is neither a file nor a link; a path
 * that is missing or a directory (or a link to one) prints nothing and is `none`.
 *
 * A path whose name is not UTF-8 cannot be an argument ({@linkcode fitsArgv}): it is typed
 * with its name on stdin instead (see `kindsOnStdin`), never as another name.
 *
 * @param top The worktree's top level.
 * @param paths Paths relative to the top level, as git printed them.
 * @returns Path → kind and mode (mode `none` when nothing was printed for it).
 * @throws {Error} when git fails.
 */
export async function pathKinds(
  top: string,
  paths: readonly string[],
): Promise<Map<string, { kind: PathKind; mode: string }>> {
  const all = [...new Set(paths)];
  const unique = all.filter(fitsArgv);
  const apart = await kindsOnStdin(top, all.filter((p) => !fitsArgv(p))); // tether:guard pb-kinds-stdin
  const found = await mapBounded(unique, GIT_CONCURRENCY, async (path) => {
    const r = await runGit(["diff", "--no-index", "--raw", "-z", "--", "/dev/null", path], {
      cwd: top,
      parse: true,
      allowFailure: true,
    });
    const [header, printed] = decodePaths(r.stdout);
    const mode = /^:000000 (\d{6}) /.exec(header ?? "")?.[1];
    if (mode === undefined || printed !== path) return { kind: "none" as const, mode: "none" };
    const kind: PathKind = REGULAR_MODES.has(mode)
      ? "regular"
      : mode === SYMLINK_MODE
      ? "symlink"
      : "special";
    return { kind, mode };
  });
  return new Map([...unique.map((p, i) => [p, found[i]!] as const), ...apart]);
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
 * @throws {Error} when a path cannot go through argv ({@linkcode fitsArgv}).
 */
export async function symlinkBlobIds(
  top: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(paths)];
  refuseArgv(unique);
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

/**
 * A path as one line of `--stdin-paths`: git reads a line, drops a final CR and C-unquotes
 * a line that starts with a double quote, so a path with a control character or a leading
 * quote goes quoted ({@linkcode cQuotePath}); a byte that is not UTF-8 goes as itself.
 */
function stdinLine(path: string): string {
  // deno-lint-ignore no-control-regex
  const plain = !/[\u0000-\u001f\u007f]/.test(path) && !path.startsWith('"');
  return plain ? path : cQuotePath(path); // tether:guard pb-hash-quoted
}

/**
 * Hash regular files in batches of `--stdin-paths` (every path on stdin, never through
 * argv: see {@linkcode stdinLine}). A batch that fails (a file vanished meanwhile) is
 * retried one path at a time, at most {@linkcode GIT_CONCURRENCY} at once. Call only with
 * paths known to be regular files.
 *
 * @param top The worktree's top level.
 * @param paths Regular files relative to the top level.
 * @param flags `hash-object` flags (`--no-filters`, or none to hash as `git add` would).
 * @param chunk Paths per `--stdin-paths` call (the runner reads while it writes, so one
 *   call can take them all).
 * @param config `-c` options put before `hash-object` (filter pins).
 * @returns Path → blob id, for the paths git could hash.
 */
export async function hashRegularFiles(
  top: string,
  paths: readonly string[],
  flags: readonly string[],
  chunk: number = HASH_CHUNK,
  config: readonly string[] = [],
): Promise<Map<string, string>> {
  const unique = [...new Set(paths)];
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += chunk) {
    batches.push(unique.slice(start, start + chunk));
  }
  const hash = (batch: readonly string[]) =>
    runGit([...config, "hash-object", ...flags, "--stdin-paths"], {
      cwd: top,
      parse: true,
      timeoutMs: HASH_TIMEOUT_MS,
      stdin: batch.map((p) => `${stdinLine(p)}\n`).join(""),
      allowFailure: true,
    });
  const out = new Map<string, string>();
  const retry: string[] = [];
  await mapBounded(batches, 2, async (batch) => {
    const r = await hash(batch);
    const oids = decoder.decode(r.stdout).split("\n");
    if (r.code === 0 && oids.length > batch.length) {
      batch.forEach((p, i) => out.set(p, oids[i]!));
    } else retry.push(...batch);
  });
  await mapBounded(retry, GIT_CONCURRENCY, async (path) => {
    const r = await hash([path]);
    const oid = decoder.decode(r.stdout).trim();
    if (r.code === 0 && oid) out.set(path, oid);
  });
  return out;
}

/** Config that makes git read every path's type from `lstat`, whatever the repository says. */
export const LSTAT_CONFIG: readonly string[] = [
  "-c",
  "core.fileMode=true",
  "-c",
  "core.symlinks=true",
  "-c",
  "advice.addEmbeddedRepo=false",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  // With it set, git takes a path's stat data for unchanged without an `lstat`.
  "-c",
  "core.ignoreStat=false",
  // A private index holds only the paths asked for, each exactly: no case folding (`B.TS`
  // would be stored over `b.ts`), no sparse patterns (`git add` refuses a path outside them).
  "-c",
  "core.ignorecase=false", // tether:guard private-index-case
  "-c",
  "core.sparseCheckout=false", // tether:guard private-index-sparse
  "-c",
  "index.sparse=false",
];

/** The private index of one run: a fresh, unpredictable name git's prune removes. */
export function privateIndexPath(commonDir: string): string {
  return `${commonDir}/objects/tmp_tether_index_${crypto.randomUUID()}`; // guard: fresh index
}

/** Placeholder id of a seeded entry that `git add` did not replace. */
export function placeholder(format: ObjectFormat): string {
  return "1".repeat(format === "sha256" ? 64 : 40);
}
