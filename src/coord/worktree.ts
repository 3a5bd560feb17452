/**
 * Worktrees on disk: which worktree contains a directory (found from the directory alone,
 * so the environment cannot make a caller someone else), git's list of worktrees, and
 * their administrative ids.
 *
 * @module
 */
import { dirname, join, resolve } from "../_path.ts";
import { isPermissionError } from "../cli.ts";
import { readRegularFile } from "./regular_file.ts";

/** Let a missing Deno permission through: it is reported as one, never as "no worktree". */
function rethrowPermission(error: unknown): void {
  if (isPermissionError(error)) throw error;
}

/** The worktree that contains a directory, found on the file system. */
export interface Discovered {
  /** The worktree's top level (real path). */
  top: string;
  /** Its git dir (`.git`, or `<common>/worktrees/<id>` for a linked worktree). */
  gitDir: string;
  /** The shared common dir. */
  commonDir: string;
}

/**
 * Find the worktree containing a directory by walking up to the nearest `.git`, as git
 * does, but from the directory alone: `GIT_DIR`, `GIT_WORK_TREE` and friends in the
 * environment cannot make a caller someone else.
 *
 * @param cwd The caller's directory.
 * @returns The worktree, or undefined outside any.
 */
export function discoverWorktree(cwd: string): Discovered | undefined {
  let dir = realOr(cwd);
  for (;;) {
    const dotGit = join(dir, ".git");
    let info: Deno.FileInfo | undefined;
    try {
      info = Deno.statSync(dotGit);
    } catch (error) {
      rethrowPermission(error);
      info = undefined;
    }
    if (info?.isDirectory) return { top: dir, gitDir: dotGit, commonDir: commonOf(dotGit) };
    if (info?.isFile) {
      const gitDir = gitDirOf(dir);
      return gitDir === undefined ? undefined : { top: dir, gitDir, commonDir: commonOf(gitDir) };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The git dir a worktree's `.git` names: the directory itself, or the real path of the
 * `gitdir:` line of a `.git` file (a linked worktree's administrative directory).
 *
 * @param worktree A worktree's top level.
 * @returns The real path, or undefined when there is no readable `.git`.
 */
export function gitDirOf(worktree: string): string | undefined {
  const dotGit = join(worktree, ".git");
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(dotGit);
  } catch (error) {
    rethrowPermission(error);
    return undefined;
  }
  if (info.isDirectory) return realOr(dotGit);
  // An unreadable or special .git file is no worktree (and is never opened for reading).
  const file = readRegularFile(dotGit, ADMIN_FILE_BYTES, true);
  const match = file?.ok ? /^gitdir: (.+)$/m.exec(file.text) : null;
  return match?.[1] ? realOr(resolve(worktree, match[1].trim())) : undefined;
}

/** The largest `.git`, `gitdir` or `commondir` file read. */
const ADMIN_FILE_BYTES = 64 * 1024;

function commonOf(gitDir: string): string {
  const file = readRegularFile(join(gitDir, "commondir"), ADMIN_FILE_BYTES, true);
  return file?.ok ? realOr(resolve(gitDir, file.text.trim())) : realOr(gitDir);
}

/**
 * Parse `git worktree list --porcelain -z`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const text = "worktree /r\0HEAD abc\0branch refs/heads/main\0\0worktree /w1\0HEAD def\0detached\0\0";
 * assertEquals(parseWorktreeList(text), ["/r", "/w1"]);
 * ```
 * @param text git's output.
 * @returns Worktree paths, the main worktree first.
 */
export function parseWorktreeList(text: string): string[] {
  const out: string[] = [];
  for (const field of text.split("\0")) {
    if (field.startsWith("worktree ")) out.push(field.slice("worktree ".length));
  }
  return out;
}

/**
 * Map each linked worktree's real path to its administrative id (`<common>/worktrees/<id>/gitdir`).
 *
 * @param commonDir The git common dir.
 * @returns Real path → id, for ids that are plain names.
 */
export function readWorktreeAdminNames(commonDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = join(commonDir, "worktrees");
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    rethrowPermission(error);
    return out;
  }
  for (const entry of entries) {
    if (!entry.isDirectory || !/^[A-Za-z0-9._-]+$/.test(entry.name)) continue;
    // A worktree whose admin files are unreadable (or special files) is no lane's.
    const file = readRegularFile(join(dir, entry.name, "gitdir"), ADMIN_FILE_BYTES, true);
    if (file?.ok) out.set(realOr(dirname(resolve(dir, entry.name, file.text.trim()))), entry.name);
  }
  return out;
}

/**
 * The real path of a file, or the resolved path when it does not exist.
 *
 * @param path Any path.
 * @returns Its canonical spelling.
 */
export function realOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch (error) {
    rethrowPermission(error);
    return resolve(path);
  }
}
