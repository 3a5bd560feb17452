/**
 * Where a directory is, as git names it: `top/prefix` from `git rev-parse`. Two spellings of
 * one directory (a symlinked path and the resolved one) get the same location, so a
 * comparison of directories needs no read permission.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { HOST_OS, nativeCwd } from "./cwd.ts";

/** The arguments that print where a directory sits: inside-work-tree, top level, prefix. */
export const LOCATION_ARGS: readonly string[] = [
  "--is-inside-work-tree",
  "--show-toplevel",
  "--show-prefix",
];

/**
 * Read the location of a directory from `git rev-parse --is-inside-work-tree
 * --show-toplevel --show-prefix` output lines: `top/prefix` when the directory is inside
 * the work tree and the output has exactly the expected lines, undefined otherwise (a
 * directory outside the work tree gets an empty prefix, and a path holding a newline
 * would shift the lines: neither may identify a directory).
 *
 * @example Inside, outside, and a newline in a path
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseLocation(["true", "/r", "a/b/"]), "/r/a/b/");
 * assertEquals(parseLocation(["false", "/r", ""]), undefined);
 * assertEquals(parseLocation(["true", "/r", "x", "a/"]), undefined);
 * ```
 * @param lines The three output lines (without the final empty line).
 * @returns `top/prefix`, or undefined.
 */
export function parseLocation(lines: readonly string[]): string | undefined {
  if (lines.length !== 3) return undefined;
  const [inside, top, prefix] = lines as [string, string, string];
  if (inside !== "true" || !top.startsWith("/") && !/^[A-Za-z]:\//.test(top)) return undefined;
  if (prefix !== "" && !prefix.endsWith("/")) return undefined;
  return `${top}/${prefix}`;
}

/**
 * Resolve a directory through git to its location, so a symlinked spelling compares
 * equal without read permission. On POSIX only an absolute POSIX path is resolved (git
 * would read `C:/x` relative to the current directory). git starts in `/`, not here: a
 * path that names "whoever asks" (a symlink to `/proc/self/cwd`) then names `/`, never
 * the directory the caller stands in.
 *
 * @param dir The directory as someone spelled it.
 * @returns `top/prefix`, or undefined when git cannot name it as a directory of a work tree.
 */
export async function locate(dir: string): Promise<string | undefined> {
  if (HOST_OS === "posix" && !dir.startsWith("/")) return undefined;
  try {
    const r = await runGit(["rev-parse", ...LOCATION_ARGS], {
      cwd: nativeCwd(dir, HOST_OS),
      parse: true,
      allowFailure: true,
      neutralStart: true, // tether:guard f5-neutral-start
    });
    if (r.code !== 0) return undefined;
    return parseLocation(new TextDecoder().decode(r.stdout).replace(/\n$/, "").split("\n"));
  } catch {
    return undefined;
  }
}
