/**
 * File-system path operations with `node:path`'s meaning. On POSIX systems they are a few
 * string operations written here: loading Deno's Node layer for `node:path` costs a tether
 * binary more start-up than most of its own code, and every subagent step pays for it. On
 * Windows, whose rules (drive letters, UNC roots, both separators) are not restated here,
 * they are `node:path`'s own.
 *
 * @module
 */

/** `node:path` where its rules are needed (Windows), loaded only there. */
const node = Deno.build.os === "windows" ? await import("node:path") : undefined;

/**
 * A path's segments with `.` dropped and `..` taken back where it can be: above a relative
 * path's start `..` is kept, above the root it is dropped.
 */
function segments(path: string, absolute: boolean): string[] {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  return out;
}

function normalizePosix(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const body = segments(path, absolute).join("/");
  const trailing = path.endsWith("/") ? "/" : "";
  if (body === "") return absolute ? "/" : `.${trailing}`;
  return `${absolute ? "/" : ""}${body}${trailing}`;
}

function joinPosix(...paths: string[]): string {
  const joined = paths.filter((p) => p !== "").join("/");
  return joined === "" ? "." : normalizePosix(joined);
}

function resolvePosix(...paths: string[]): string {
  let path = "";
  for (let i = paths.length - 1; i >= -1 && !path.startsWith("/"); i--) {
    const part = i >= 0 ? paths[i]! : Deno.cwd();
    if (part !== "") path = path === "" ? part : `${part}/${path}`;
  }
  const absolute = path.startsWith("/");
  const body = segments(path, absolute).join("/");
  return absolute ? `/${body}` : body === "" ? "." : body;
}

function dirnamePosix(path: string): string {
  if (path === "") return ".";
  // The last separator before the last name, trailing separators passed over; one at the
  // very start is the root, not a separator.
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  let slash = -1;
  for (let i = end - 1; i >= 1; i--) {
    if (path[i] === "/") {
      slash = i;
      break;
    }
  }
  if (slash === -1) return path.startsWith("/") ? "/" : ".";
  if (slash === 1 && path.startsWith("/")) return "//";
  return path.slice(0, slash);
}

function basenamePosix(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return end === 0 ? "" : path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/**
 * The paths joined by the separator, then normalized (`node:path` `join`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * if (Deno.build.os !== "windows") assertEquals(join("/a/b", "../c", "d/"), "/a/c/d/");
 * ```
 */
export const join: (...paths: string[]) => string = node?.join ?? joinPosix;

/**
 * The absolute path the paths resolve to, right to left, from the current directory
 * (`node:path` `resolve`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * if (Deno.build.os !== "windows") assertEquals(resolve("/a", "b", "/c", "d/.."), "/c");
 * ```
 */
export const resolve: (...paths: string[]) => string = node?.resolve ?? resolvePosix;

/** The directory part of a path (`node:path` `dirname`). */
export const dirname: (path: string) => string = node?.dirname ?? dirnamePosix;

/** The last part of a path, trailing separators left out (`node:path` `basename`). */
export const basename: (path: string) => string = node ? (p) => node.basename(p) : basenamePosix;

/** Whether a path is absolute (`node:path` `isAbsolute`). */
export const isAbsolute: (path: string) => boolean = node?.isAbsolute ??
  ((p) => p.startsWith("/"));

/**
 * The root of a path: `/` for an absolute POSIX path, a drive or UNC root on Windows, and
 * empty for a relative path (`node:path` `parse(path).root`).
 */
export const rootOf: (path: string) => string = node
  ? (p) => node.parse(p).root
  : (p) => p.startsWith("/") ? "/" : "";
