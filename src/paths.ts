/**
 * Path names as git prints them (bytes) turned into strings without losing any: two
 * different names are always two different strings, so a claim, a set or a comparison
 * can never take one name for another. Valid UTF-8 decodes as itself (a leading
 * byte-order mark kept, not dropped); every byte of an invalid sequence becomes the lone
 * surrogate U+DC80 + (byte − 0x80), which no valid UTF-8 decodes to (the "surrogate
 * escape" scheme). Such a name prints as a JSON string, `"x\udcff"` for `x\377`.
 *
 * @module
 */
import { concatBytes } from "./encoding.ts";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** How many bytes a UTF-8 sequence with this first byte has; 0 when none can start with it. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function tryDecode(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decode one path exactly.
 *
 * @example Invalid bytes stay apart; a byte-order mark is kept
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(decodePath(Uint8Array.from([0x78, 0xff])), "x\udcff");
 * assertEquals(decodePath(Uint8Array.from([0x78, 0xfe])), "x\udcfe");
 * assertEquals(decodePath(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])), "\ufeffa");
 * assertEquals(decodePath(new TextEncoder().encode("ünï😀")), "ünï😀");
 * ```
 * @param bytes The path's bytes.
 * @returns The path as a string; invalid bytes as lone surrogates U+DC80–U+DCFF.
 */
export function decodePath(bytes: Uint8Array): string {
  const whole = tryDecode(bytes);
  if (whole !== undefined) return whole;
  let out = "";
  for (let i = 0; i < bytes.length;) {
    const n = sequenceLength(bytes[i]!);
    const text = n === 0 ? undefined : tryDecode(bytes.subarray(i, i + n));
    if (text !== undefined && i + n <= bytes.length) {
      out += text;
      i += n;
    } else {
      out += String.fromCharCode(0xdc00 + bytes[i]!); // tether:guard wt-path-escape
      i += 1;
    }
  }
  return out;
}

/**
 * Split git's NUL-terminated path list (`-z`) and decode each path exactly.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(decodePaths(Uint8Array.from([0x61, 0, 0x78, 0xff, 0])), ["a", "x\udcff"]);
 * ```
 * @param bytes git's output.
 * @returns The non-empty paths, in order.
 */
export function decodePaths(bytes: Uint8Array): string[] {
  // Valid UTF-8 as a whole is valid between any two NULs: one decode for the common case.
  const whole = tryDecode(bytes);
  if (whole !== undefined) return whole.split("\0").filter((path) => path !== "");
  const paths: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0) {
      if (i > start) paths.push(decodePath(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  return paths;
}

const utf8 = new TextEncoder();

/**
 * Encode a string as git should read it: the inverse of {@linkcode decodePath}. Each lone
 * surrogate U+DC80–U+DCFF becomes the byte it stands for; everything else is UTF-8.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(encodePath("x\udcff"), Uint8Array.from([0x78, 0xff]));
 * assertEquals(encodePath("ü"), Uint8Array.from([0xc3, 0xbc]));
 * const bytes = Uint8Array.from([0x78, 0xfe, 0xc3, 0xbc, 0]);
 * assertEquals(encodePath(decodePath(bytes)), bytes);
 * ```
 * @param text The string.
 * @returns Its bytes.
 */
export function encodePath(text: string): Uint8Array {
  if (!/[\udc80-\udcff]/.test(text)) return utf8.encode(text);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const lone = unit >= 0xdc80 && unit <= 0xdcff &&
      !(i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff);
    if (lone) {
      parts.push(utf8.encode(text.slice(start, i)), Uint8Array.of(unit - 0xdc00));
      start = i + 1;
    }
  }
  parts.push(utf8.encode(text.slice(start)));
  return concatBytes(parts);
}

/**
 * Whether a path can go to git as a command-line argument unchanged: it holds no lone
 * surrogate. Deno passes arguments as UTF-8 and turns a lone surrogate into U+FFFD, so a
 * name with a byte that is not UTF-8 (kept as `\udcXX` by {@linkcode decodePath}) would
 * reach git as another name. Such a path goes on stdin instead, never through argv.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals([fitsArgv("ünï.txt"), fitsArgv("x\udcff"), fitsArgv("a\ud800")], [true, false, false]);
 * ```
 * @param path A path as decoded by {@linkcode decodePath}, or as a child named it.
 * @returns True when argv carries it exactly.
 */
export function fitsArgv(path: string): boolean {
  return !/\p{Cs}/u.test(path); // tether:guard pb-argv-lossless
}

/**
 * NUL-separated git output (`status -z`, `ls-files -s -z`, `diff --raw -z`) as text with
 * every record decoded exactly ({@linkcode decodePath}): the fields git prints are ASCII,
 * and each path keeps its bytes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(decodeRecords(Uint8Array.from([0x3f, 0x20, 0x78, 0xff, 0])), "? x\udcff");
 * ```
 * @param bytes git's output.
 * @returns The non-empty records joined by NUL.
 */
export function decodeRecords(bytes: Uint8Array): string {
  return decodePaths(bytes).join("\0");
}

/**
 * Quote a path for a line-based git input that C-unquotes a line starting with a double
 * quote (`hash-object --stdin-paths`, `check-attr --stdin` without `-z`): a control
 * character, `"` and `\` become escapes; every other character (a lone surrogate for a byte
 * that is not UTF-8 included) stays, and {@linkcode encodePath} writes it as its byte.
 *
 * @example A newline and a quote
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(cQuotePath('a\n"b\\'), '"a\\n\\"b\\\\"');
 * assertEquals(cQuotePath("x\u0001\udcff"), '"x\\001\udcff"');
 * ```
 * @param path The path.
 * @returns The quoted line, without its newline.
 */
export function cQuotePath(path: string): string {
  const named: Record<string, string> = {
    "\u0007": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\u000b": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
  };
  // deno-lint-ignore no-control-regex
  const special = /[\u0000-\u001f\u007f"\\]/g;
  const octal = (c: string) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`;
  return `"${path.replace(special, (c) => named[c] ?? octal(c))}"`;
}

/**
 * A pathspec for a command that takes pathspecs only as arguments (`ls-files`), for a path
 * argv cannot carry ({@linkcode fitsArgv}): `:(glob)` magic, the glob characters escaped,
 * and each byte that is not UTF-8 a `?` (which matches one byte). The pathspec carries no
 * such byte, it matches the path and may match a few other names: the caller keeps only the
 * exact names it asked for.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(globPathspec("d\udcff/k*[1]\udcfe.env"), ":(glob)d?/k\\*\\[1]?.env");
 * ```
 * @param path The path.
 * @returns The pathspec (without `--literal-pathspecs`, which would turn its magic off).
 */
export function globPathspec(path: string): string {
  const escaped = path.replace(/[\\*?[]/g, (c) => `\\${c}`)
    .replace(/[\udc80-\udcff]/g, "?") // tether:guard pb-glob-byte
    .replace(/\p{Cs}/gu, "\ufffd"); // another lone surrogate is written as U+FFFD
  return `:(glob)${escaped}`;
}

/**
 * Environment for a call given {@linkcode globPathspec} or `:(literal)` pathspecs: the
 * caller's `GIT_*_PATHSPECS` switches (which would read the magic as part of a name) off.
 */
export const PATHSPEC_MAGIC_ENV: Readonly<Record<string, string>> = {
  GIT_LITERAL_PATHSPECS: "0",
  GIT_GLOB_PATHSPECS: "0",
  GIT_NOGLOB_PATHSPECS: "0",
  GIT_ICASE_PATHSPECS: "0",
};
