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
import { runGit } from "../git.ts";
import { contentKey, type PathContent, readContents } from "./content.ts";
import { repoDirs } from "./lstat.ts";
import { decodeRecords } from "../paths.ts";
import { readFilterPins } from "./filters.ts";
import { parsePorcelainV2Z, type StatusEntry } from "./porcelain.ts";

/**
 * The status command both sides use: files, not collapsed directories; renames split. What a
 * child could set in the shared config to make status silent about a change is pinned: the
 * full stat comparison (with `core.trustctime=false` or `core.checkStat=minimal`, a same-size
 * edit with its mtime put back is not looked at) and every submodule change shown
 * (`submodule.<name>.ignore` and `diff.ignoreSubmodules` hide a moved pointer).
 */
export const STATUS_ARGS: readonly string[] = [
  "-c",
  "core.trustctime=true", // tether:guard status-full-stat
  "-c",
  "core.checkStat=default",
  "-c",
  "core.ignorecase=false", // tether:guard status-case
  // The untracked cache lives in the index, which a child can rewrite: a name dropped from it
  // is a new file status never lists.
  "-c",
  "core.untrackedCache=false", // tether:guard status-no-untracked-cache
  "status",
  "--porcelain=v2",
  "-z",
  "--untracked-files=all",
  "--no-renames",
  "--ignore-submodules=none", // tether:guard status-submodules
];

/**
 * How long one status-like call may take. `git status` runs the repository's clean
 * filters on files whose stat data changed (as every `git status` does); a filter that
 * never ends must not hang the capture or gate.
 */
export const STATUS_TIMEOUT_MS = 300_000;

/**
 * The live status entries, without content (one `git status` call).
 *
 * @param top The worktree's top level.
 * @returns The entries in git's order, `oid` null.
 * @throws {GitError} when git fails.
 */
export async function readStatus(top: string): Promise<StatusEntry[]> {
  // No filter driver the config names runs: a clean filter a child planted (in the shared
  // config and `<git dir>/info/attributes`) could print a changed file's old content and
  // make status silent about a same-size edit.
  const pins = await readFilterPins(top);
  const status = await runGit([...pins, ...STATUS_ARGS], { // tether:guard status-no-filters
    cwd: top,
    parse: true,
    timeoutMs: STATUS_TIMEOUT_MS,
  });
  return parsePorcelainV2Z(decodeRecords(status.stdout)); // tether:guard pb-status-exact
}

/**
 * Record what a path holds in its entry: `content` (see `contentKey`), `oid` the raw id
 * (null for special or absent), and for an untracked entry the `lstat` mode in `state`.
 *
 * @param entry The entry, updated in place.
 * @param content What the path holds.
 */
export function setContent(entry: StatusEntry, content: PathContent): void {
  entry.content = contentKey(content);
  entry.oid = content.kind === "absent" || content.kind === "special" ? null : content.raw;
  if (entry.xy === "??" || entry.xy === "!!") {
    entry.state = content.kind === "absent" ? "none" : content.mode;
  }
}

/**
 * Read every status entry of the worktree at `top`, with what each path holds read
 * directly as raw bytes (see {@linkcode readContents}): a bounded number of git calls,
 * whatever the number of entries.
 *
 * @param top The worktree's top level.
 * @returns The entries in git's order.
 * @throws {Error} when git fails or a path cannot be read.
 */
export async function readStatusEntries(top: string): Promise<StatusEntry[]> {
  const [entries, dirs] = await Promise.all([readStatus(top), repoDirs(top)]);
  const contents = await readContents(
    top,
    dirs.commonDir,
    dirs.format,
    entries.map((e) => e.path),
  );
  for (const entry of entries) {
    setContent(entry, contents.get(entry.path.replace(/\/$/, "")) ?? { kind: "absent" });
  }
  return entries;
}
