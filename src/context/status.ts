/**
 * Reading the live status of a worktree through git: every porcelain entry, each with
 * the blob id of its worktree content, so two readings taken at different times can be
 * compared entry by entry. Shared by `handshake --context` (spawn) and `gate` (completion).
 *
 * @module
 */
import { runGit } from "../git.ts";
import { hasWorktreeFile, parsePorcelainZ, type StatusEntry } from "./porcelain.ts";

const decoder = new TextDecoder();

/** The status command both sides use: files, not collapsed directories; renames split. */
export const STATUS_ARGS: readonly string[] = [
  "status",
  "--porcelain=v1",
  "-z",
  "--untracked-files=all",
  "--no-renames",
];

/**
 * Read every status entry of the worktree at `top`, with worktree blob ids.
 *
 * @param top The worktree's top level.
 * @returns The entries in git's order.
 * @throws {GitError} when git fails.
 */
export async function readStatusEntries(top: string): Promise<StatusEntry[]> {
  const { stdout } = await runGit(STATUS_ARGS, { cwd: top, parse: true });
  const entries = parsePorcelainZ(decoder.decode(stdout));
  await hashWorktreeFiles(top, entries);
  return entries;
}

/** Paths `--stdin-paths` can carry unambiguously (one line each, not C-quoted). */
function hashable(entry: StatusEntry): boolean {
  return hasWorktreeFile(entry) && !entry.path.includes("\n") && !entry.path.startsWith('"');
}

/**
 * Fill in `oid` for entries whose worktree file git can hash. The content is hashed as
 * it is (`--no-filters`): no clean filter (LFS and the like) runs, and both readings of a
 * run hash the same way, which is all the comparison needs (one git call per 500 files; one per
 * file only when the batch fails, for example on a submodule directory).
 *
 * @param top The worktree's top level.
 * @param entries Entries to update in place.
 */
export async function hashWorktreeFiles(top: string, entries: StatusEntry[]): Promise<void> {
  const targets = entries.filter(hashable);
  for (let start = 0; start < targets.length; start += HASH_CHUNK) {
    await hashChunk(top, targets.slice(start, start + HASH_CHUNK));
  }
}

/**
 * Paths per `hash-object --stdin-paths` call. The runner writes all of stdin before it
 * reads stdout, so a call's output must fit in a pipe buffer (64 KiB): 500 ids of at
 * most 65 bytes each do.
 */
const HASH_CHUNK = 500;

async function hashChunk(top: string, targets: StatusEntry[]): Promise<void> {
  const input = targets.map((e) => e.path).join("\n") + "\n";
  const batch = await runGit(["hash-object", "--no-filters", "--stdin-paths"], {
    cwd: top,
    parse: true,
    stdin: input,
    allowFailure: true,
  });
  const oids = decoder.decode(batch.stdout).split("\n");
  if (batch.code === 0 && oids.length >= targets.length) {
    targets.forEach((entry, i) => entry.oid = oids[i] || null);
    return;
  }
  for (const entry of targets) {
    const one = await runGit(["hash-object", "--no-filters", "--", entry.path], {
      cwd: top,
      parse: true,
      allowFailure: true,
    });
    entry.oid = one.code === 0 ? decoder.decode(one.stdout).trim() || null : null;
  }
}
