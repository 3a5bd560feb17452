/**
 * The git version tether needs (2.30 or later), read from `git version` or a trace.
 *
 * @module
 */
import { gitText } from "./git.ts";
import { GitError } from "./git_error.ts";

/** The oldest git tether accepts. */
export const MIN_GIT: readonly [number, number] = [2, 30];

/**
 * Parse `git version` output into [major, minor].
 *
 * @example Parse a Windows build string
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(parseGitVersion("git version 2.45.1.windows.1"), [2, 45]);
 * ```
 * @param text What `git version` printed.
 * @returns The major and minor version, or undefined when unreadable.
 */
export function parseGitVersion(text: string): [number, number] | undefined {
  const match = /git version (\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Check that git exists and is at least {@linkcode MIN_GIT}.
 *
 * @param known The version a call's trace already named (`2.45.1`): then no process starts.
 * @throws {GitError} `missing` or `too-old`.
 */
export async function assertGitVersion(known?: string): Promise<void> {
  const text = known === undefined ? await gitText(["version"]) : `git version ${known}`;
  const version = parseGitVersion(text);
  if (!version) throw new GitError("failed", `Cannot read git version: "${text}"`);
  const [major, minor] = version;
  if (major < MIN_GIT[0] || (major === MIN_GIT[0] && minor < MIN_GIT[1])) {
    throw new GitError("too-old", `git ${major}.${minor} is older than 2.30: "${text}"`);
  }
}
