/**
 * Working-directory spellings: the forms one Windows directory takes in PowerShell, Git
 * Bash and Cygwin, and the comparison `verify` makes before asking git.
 *
 * @module
 */

/** The platform whose path rules apply. */
export type PathOs = "windows" | "posix";

/**
 * The canonical spelling of a directory for string comparison. On Windows, `C:\x`, `C:/x`,
 * `/c/x` and `/cygdrive/c/x` become `c:/x` and the path is case-folded; everywhere,
 * repeated and trailing separators are dropped.
 *
 * @example Four spellings of one Windows directory
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * for (const p of ["C:\\Users\\Ann\\repo", "C:/Users/Ann/repo/", "/c/Users/Ann/repo", "/cygdrive/c/Users/Ann/repo"]) {
 *   assertEquals(canonicalCwd(p, "windows"), "c:/users/ann/repo");
 * }
 * assertEquals(canonicalCwd("/c/x", "posix"), "/c/x");
 * ```
 * @param path The spelling.
 * @param os Whose rules apply.
 * @returns The canonical string.
 */
export function canonicalCwd(path: string, os: PathOs): string {
  if (os === "posix") return collapse(path);
  let p = path.replace(/\\/g, "/");
  const unc = p.startsWith("//") && !p.startsWith("///");
  const drive = /^([A-Za-z]):(\/|$)(.*)$/.exec(p) ??
    /^\/cygdrive\/([A-Za-z])(\/|$)(.*)$/.exec(p) ??
    /^\/([A-Za-z])(\/|$)(.*)$/.exec(p);
  if (drive) p = `${drive[1]!.toLowerCase()}:/${drive[3]}`;
  p = collapse(p);
  if (unc) p = `/${p}`;
  return p.toLowerCase();
}

function collapse(path: string): string {
  const p = path.replace(/\/{2,}/g, "/");
  if (p === "/" || /^[a-z]:\/$/i.test(p)) return p;
  return p.replace(/\/$/, "");
}

/**
 * The spelling git on this platform accepts for `-C`: on Windows, MSYS and Cygwin forms
 * become `C:/x`; elsewhere the path is unchanged.
 *
 * @example Git Bash form on Windows
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(nativeCwd("/c/Users/Ann", "windows"), "C:/Users/Ann");
 * assertEquals(nativeCwd("/c/Users/Ann", "posix"), "/c/Users/Ann");
 * ```
 * @param path The spelling.
 * @param os Whose rules apply.
 * @returns A path git can open.
 */
export function nativeCwd(path: string, os: PathOs): string {
  if (os === "posix") return path;
  const m = /^\/cygdrive\/([A-Za-z])(\/.*)?$/.exec(path) ?? /^\/([A-Za-z])(\/.*)?$/.exec(path);
  return m ? `${m[1]!.toUpperCase()}:${m[2] ?? "/"}` : path;
}

/**
 * Render a directory in the requested style: `native` as given, `posix` as Git Bash's
 * `pwd` prints it (`C:\Users\Ann` → `/c/Users/Ann`).
 *
 * @example Git Bash spelling
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(styleCwd("C:\\Users\\Ann", "posix"), "/c/Users/Ann");
 * assertEquals(styleCwd("/home/ann", "posix"), "/home/ann");
 * ```
 * @param path The directory as the platform reports it.
 * @param style `native` or `posix`.
 * @returns The spelling.
 */
export function styleCwd(path: string, style: "native" | "posix"): string {
  if (style === "native") return path;
  const m = /^([A-Za-z]):[\\/]?(.*)$/.exec(path);
  if (!m) return path.replace(/\\/g, "/");
  const rest = m[2]!.replace(/\\/g, "/").replace(/\/$/, "");
  return `/${m[1]!.toLowerCase()}${rest ? `/${rest}` : ""}`;
}

/** The platform this process runs on, for path rules. */
export const HOST_OS: PathOs = Deno.build.os === "windows" ? "windows" : "posix";

/**
 * A directory made absolute against a base, as a shell's `cd` then `pwd` spells it:
 * symlinks kept (nothing is read), `.` and `..` folded lexically, repeated and trailing
 * separators dropped. Windows paths keep their drive (`C:\`) or UNC (`\\host\share`) root.
 *
 * @example Relative, absolute and folded
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(absoluteDir("../b/./c/", "/work/a", "posix"), "/work/b/c");
 * assertEquals(absoluteDir("/x//y/..", "/work", "posix"), "/x");
 * assertEquals(absoluteDir("..", "/", "posix"), "/");
 * assertEquals(absoluteDir("sub\\..\\repo", "C:\\Users\\Ann", "windows"), "C:\\Users\\Ann\\repo");
 * assertEquals(absoluteDir("D:/src/", "C:\\x", "windows"), "D:\\src");
 * ```
 * @param path The directory, absolute or relative to `base`.
 * @param base An absolute directory (the current one, usually).
 * @param os Whose rules apply.
 * @returns The absolute spelling.
 */
export function absoluteDir(path: string, base: string, os: PathOs): string {
  const windows = os === "windows";
  const root = windows
    ? /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/]+[\\/][^\\/]+)/.exec(path)?.[0]
    : path.startsWith("/")
    ? "/"
    : undefined;
  if (root === undefined) return absoluteDir(`${base}${windows ? "\\" : "/"}${path}`, base, os);
  const sep = windows ? "\\" : "/";
  const parts: string[] = [];
  for (const part of path.slice(root.length).split(windows ? /[\\/]+/ : /\/+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const top = windows ? root.replace(/\//g, "\\") : root;
  const joined = parts.join(sep);
  if (!joined) return top;
  return top.endsWith(sep) ? `${top}${joined}` : `${top}${sep}${joined}`;
}

/**
 * Whether `$PWD` is a spelling a POSIX shell's `pwd` prints as it is: absolute, no `.` or
 * `..` part, no repeated or trailing `/` (a shell would print another text, or the
 * resolved path). Not on Windows, where Git Bash's `$PWD` is `/c/…` and `--cwd-style` speaks.
 *
 * @example A symlinked spelling, and ones a shell would not print
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isShellPwd("/home/ann/link/repo", "posix"), true);
 * assertEquals(isShellPwd("/home/ann/../ann/repo", "posix"), false);
 * assertEquals(isShellPwd("/home//ann/", "posix"), false);
 * assertEquals(isShellPwd("/c/Users/Ann", "windows"), false);
 * ```
 * @param pwd The value of `$PWD`.
 * @param os Whose rules apply.
 * @returns True when `pwd` may stand for the current directory as it is.
 */
export function isShellPwd(pwd: string, os: PathOs): boolean {
  if (os !== "posix") return false;
  if (pwd === "/") return true;
  return /^(?:\/[^/]+)+$/.test(pwd) && !pwd.split("/").some((p) => p === "." || p === "..");
}
