/**
 * What a failed git call means: its kind (missing, too old, not a repository, no commit
 * yet, failed), its message in tether's words, and the tail of what git said.
 *
 * @module
 */

/** Why a git call failed. */
export type GitErrorKind = "missing" | "too-old" | "not-a-repository" | "unborn" | "failed";

/** A git call that could not give an answer: git missing, too old, not a repository, or a non-zero exit. */
export class GitError extends Error {
  /** What went wrong, for the entry point's exit-code mapping. */
  readonly kind: GitErrorKind;
  /** The last lines git wrote to stderr, if any. */
  readonly stderrTail: string;
  /** The exit code git returned, or -1 when it did not run. */
  readonly code: number;

  /**
   * Create a typed git error.
   *
   * @param kind What went wrong.
   * @param message One-line description.
   * @param stderrTail The last lines of git's stderr.
   * @param code git's exit code, -1 when it did not run.
   */
  constructor(kind: GitErrorKind, message: string, stderrTail = "", code = -1) {
    super(message);
    this.name = "GitError";
    this.kind = kind;
    this.stderrTail = stderrTail;
    this.code = code;
  }
}

/** What a git call returned. */
export interface GitResult {
  /** git's exit code. */
  code: number;
  /** Raw standard output. */
  stdout: Uint8Array;
  /** Standard error as text. */
  stderr: string;
  /** The variables asked for with `traceEnv` that are set (and not empty), by name. */
  traced?: Record<string, string>;
  /** The version git's trace names (`2.45.1`), when `traceEnv` was asked for. */
  version?: string;
}

/**
 * The last lines of git's stderr, joined on one line.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(tail("a\nb\nc\nd\n"), "b | c | d");
 * ```
 * @param text git's stderr.
 * @param lines How many lines to keep.
 * @returns They, joined by ` | `.
 */
export function tail(text: string, lines = 3): string {
  return text.trimEnd().split("\n").slice(-lines).join(" | ");
}

/** What a capture says in a repository whose HEAD names no commit yet. */
export const UNBORN_MESSAGE =
  "The repository has no commits yet (HEAD names no commit): commit once, then run again";

/**
 * The subcommand of a git argument list: the first word that is neither an option nor the
 * value of a `-c` or `-C` before it.
 *
 * @example Configuration before the subcommand
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(subcommand(["-c", "core.ignoreStat=false", "add", "-A"]), "add");
 * assertEquals(subcommand(["--no-pager", "status"]), "status");
 * assertEquals(subcommand([]), "git");
 * ```
 * @param args The arguments given to git.
 * @returns The subcommand, or `git` when there is none.
 */
export function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return "git";
}

/**
 * Turn a failed git result into a typed error.
 *
 * @param args The subcommand that failed.
 * @param result What git returned.
 * @returns `not-a-repository` when git says so, `failed` otherwise.
 */
export function failure(args: readonly string[], result: GitResult): GitError {
  const stderr = tail(result.stderr);
  if (/not a git repository/i.test(result.stderr)) {
    return new GitError("not-a-repository", "Not a git repository", stderr, result.code);
  }
  if (
    args.includes("HEAD") && /ambiguous argument 'HEAD'|bad revision 'HEAD'/.test(result.stderr)
  ) {
    return new GitError("unborn", UNBORN_MESSAGE, stderr, result.code);
  }
  const what = subcommand(args);
  return new GitError(
    "failed",
    `git ${what} exited with ${result.code}${stderr ? `: ${stderr}` : ""}`,
    stderr,
    result.code,
  );
}
