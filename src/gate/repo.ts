/**
 * The live repository as `gate` sees it, read through the one git runner: top level,
 * object format, HEAD, status entries, and the files changed between two commits.
 *
 * @module
 */
import { GitError, gitText, type ObjectFormat, runGit } from "../git.ts";

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

/**
 * Read the repository around the current directory.
 *
 * @returns Top level, object format and HEAD.
 * @throws {GateError} when the directory is not inside a git worktree or git fails.
 */
export async function openRepo(): Promise<LiveRepo> {
  try {
    const [top, format] = (await gitText(["rev-parse", "--show-toplevel", "--show-object-format"]))
      .split("\n");
    if (!top) throw new GateError("Cannot evaluate: git printed no top level");
    const head = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
      cwd: top,
      parse: true,
      allowFailure: true,
    });
    return {
      top,
      format: format === "sha256" ? "sha256" : "sha1",
      head: head.code === 0 ? decoder.decode(head.stdout).trim() : null,
    };
  } catch (error) {
    if (error instanceof GitError && error.kind === "not-a-repository") {
      throw new GateError("Cannot evaluate: not inside a git worktree");
    }
    if (error instanceof GitError) throw new GateError(`Cannot evaluate: ${error.message}`);
    throw error;
  }
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

/**
 * The blob id git computes for a worktree file, or null when it is missing or no file.
 *
 * @param top Top level.
 * @param path Path relative to the top level, lexically checked by the caller.
 * @returns The blob id, or null.
 */
export async function worktreeBlob(top: string, path: string): Promise<string | null> {
  const r = await runGit(["hash-object", "--", path], {
    cwd: top,
    parse: true,
    allowFailure: true,
  });
  return r.code === 0 ? decoder.decode(r.stdout).trim() || null : null;
}

/**
 * Files that differ between two commits (or the empty tree and a commit), renames split.
 *
 * @param top Top level.
 * @param from Full object id of the older commit, or null for the empty tree.
 * @param to Full object id of the newer commit.
 * @returns Paths relative to the top level.
 */
export async function filesChangedBetween(
  top: string,
  from: string | null,
  to: string,
): Promise<string[]> {
  const base = from ??
    await gitText(["hash-object", "-t", "tree", "--stdin"], { cwd: top, stdin: "" });
  const { stdout } = await runGit(
    ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--end-of-options", base, to],
    { cwd: top, parse: true },
  );
  return decoder.decode(stdout).split("\0").filter((p) => p !== "");
}

/**
 * Read a snapshot blob's text through git.
 *
 * @param top Top level.
 * @param oid A validated full object id placed after `--end-of-options`.
 * @returns The blob's text.
 * @throws {GateError} when no such blob exists.
 */
export async function readBlob(top: string, oid: string): Promise<string> {
  const r = await runGit(["cat-file", "blob", "--end-of-options", oid], {
    cwd: top,
    parse: true,
    allowFailure: true,
  });
  if (r.code !== 0) {
    throw new GateError(`Cannot evaluate: snapshot "${oid}" is not a blob in this repository`);
  }
  return decoder.decode(r.stdout);
}
