/**
 * tether's own words for a git call that failed. A failed call becomes a `GitError` whose
 * message is `git <subcommand> exited with <code>: <git's stderr>`; land, spawn and gate
 * never print git's text as it is (it names git's internals, may be localized, and says
 * nothing of what the user can do). What git said is matched against the failures an
 * honest run meets and said in one line of tether's; anything else is named by its
 * subcommand and exit code.
 *
 * @module
 */
import { GitError, type GitResult, subcommand, tail } from "./git_error.ts";

/** git's failures an honest run meets, and how tether says each (`$1` the matched name). */
const KNOWN: readonly [RegExp, (m: RegExpMatchArray) => string][] = [
  [
    /Entry '(.+?)' (?:not uptodate\. Cannot merge|would be overwritten by merge)/,
    (m) => `${JSON.stringify(m[1])} changed in the parent while the land ran`,
  ],
  [
    /untracked working tree files? would be (?:overwritten|removed)/i,
    () => "a file appeared in the parent where the land writes, while the land ran",
  ],
  [
    /Unable to create '(.+?)\.lock': File exists/,
    (m) =>
      `another git process holds the lock ${
        JSON.stringify(`${m[1]}.lock`)
      } (remove it if no git process is running)`,
  ],
  [
    /bad config line (\d+) in file (.+?)(?: \||$)/,
    (m) => `git cannot read the configuration: line ${m[1]} of ${JSON.stringify(m[2])} is broken`,
  ],
  [
    /'(.+?)' already exists/,
    (m) => `${JSON.stringify(m[1])} already exists and is not empty (name a new directory)`,
  ],
  [
    /'(.+?)' is a missing but (?:already registered|locked) worktree/,
    (m) =>
      `${
        JSON.stringify(m[1])
      } is still registered as a worktree that no longer exists (git worktree prune forgets it)`,
  ],
  [/No space left on device|Disk quota exceeded/, () => "the disk is full"],
  [/Permission denied/, () => "git may not write where it must (permission denied)"],
];

/**
 * Whether an error is a failed git call as git reported it (see the module documentation),
 * rather than a sentence of tether's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * import { GitError } from "./git_error.ts";
 * assertEquals(isGitsOwn(new GitError("failed", "git read-tree exited with 128: x", "x", 128)), true);
 * assertEquals(isGitsOwn(new GitError("failed", "The parent's tree kept changing")), false);
 * ```
 * @param error Anything thrown.
 * @returns True for a `GitError` carrying git's exit code and text.
 */
export function isGitsOwn(error: unknown): error is GitError {
  return error instanceof GitError && error.code >= 0 &&
    /^git \S+ exited with \d+/.test(error.message);
}

/**
 * A failed git call in tether's words: what an honest run meets (a file changed while the
 * land ran, a lock, a broken config line, a full disk) said as such, anything else as
 * `git <subcommand> failed (exit <code>)`. Any other error's message is returned as it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * import { GitError } from "./git_error.ts";
 * const notUptodate = "error: Entry 'gradlew.bat' not uptodate. Cannot merge.";
 * assertEquals(
 *   ownWords(new GitError("failed", `git read-tree exited with 128: ${notUptodate}`, notUptodate, 128)),
 *   '"gradlew.bat" changed in the parent while the land ran',
 * );
 * assertEquals(ownWords(new GitError("failed", "git gc exited with 1: fatal: x", "fatal: x", 1)), "git gc failed (exit 1)");
 * assertEquals(ownWords(new Error("tether's own")), "tether's own");
 * ```
 * @param error Anything thrown.
 * @returns One line.
 */
export function ownWords(error: unknown): string {
  if (!isGitsOwn(error)) return error instanceof Error ? error.message : String(error); // tether:guard own-words
  for (const [pattern, say] of KNOWN) {
    const m = pattern.exec(error.stderrTail);
    if (m) return say(m);
  }
  const sub = /^git (\S+) exited/.exec(error.message)?.[1] ?? "git";
  return `git ${sub} failed (exit ${error.code})`;
}

/**
 * {@linkcode ownWords} for a failed call's result, when it was allowed to fail.
 *
 * @param args The call's arguments.
 * @param result What git returned.
 * @returns One line.
 */
export function resultWords(args: readonly string[], result: GitResult): string {
  const stderr = tail(result.stderr);
  return ownWords(
    new GitError(
      "failed",
      `git ${subcommand(args)} exited with ${result.code}: ${stderr}`,
      stderr,
      result.code,
    ),
  );
}
