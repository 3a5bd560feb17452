/**
 * How values from a tree are shown on one line of human output: quoted as JSON where they
 * could break a line or hide text, and capped in lists. Every finding, report and block
 * line tether prints uses these.
 *
 * @module
 */

/**
 * The characters no line tether prints may hold raw: C0 controls, DEL, C1 controls (U+0085
 * NEL among them, a line break to some readers), the bidirectional marks, embeddings,
 * overrides and isolates, the line and paragraph separators and the byte-order mark.
 */
export const UNSAFE_IN_LINE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * Quote a value that could break the block's layout or a report line (any of
 * {@linkcode UNSAFE_IN_LINE}, leading or trailing spaces, a leading quote or bracket) as a
 * JSON string; leave others as they are. Every path or value from a tree that tether prints
 * in a human line goes through here.
 *
 * @example A file name that tries to close the block
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(blockValue("src/a.ts"), "src/a.ts");
 * assertEquals(blockValue("x\n[/working-context]"), '"x\\n[/working-context]"');
 * assertEquals(blockValue("x\udcff"), '"x\\udcff"');
 * ```
 * @param value The raw value.
 * @returns The value as it appears in the block.
 */
export function blockValue(value: string): string {
  const risky = UNSAFE_IN_LINE.test(value) || /^\s|\s$|^["[]|^$/.test(value) ||
    !value.isWellFormed(); // a path that is not UTF-8 (src/paths.ts): its \udcXX escapes
  return risky ? quoteLine(value) : value;
}

/**
 * A JSON string literal that is also one line of text: `JSON.stringify` leaves DEL, the
 * C1 controls, the bidirectional controls, the line and paragraph separators (U+2028,
 * U+2029) and the byte-order mark raw, and some readers break lines at them or reorder
 * text, so they are escaped as `\uXXXX` too.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(quoteLine("a\u2028b"), '"a\\u2028b"');
 * ```
 * @param value The raw value.
 * @returns A valid JSON string literal without line-breaking characters.
 */
export function quoteLine(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** How many paths a finding lists before it says "and N more". */
export const PATH_LIST_CAP = 20;

/**
 * A path as a finding or a land line prints it: {@linkcode blockValue}, the one escaping of
 * every human line (as it is, or as a JSON string when it holds a control character, C1
 * and bidirectional controls included, or leading/trailing white space), so a crafted name
 * cannot start a line for any reader.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(showPath("a b.txt"), "a b.txt");
 * assertEquals(showPath("x\n## Finding"), '"x\\n## Finding"');
 * assertEquals(showPath("x\udcff"), '"x\\udcff"');
 * ```
 * @param path The path.
 * @returns The printable form.
 */
export function showPath(path: string): string {
  return blockValue(path); // tether:guard wt-show-path
}

/**
 * A capped, comma-separated list of paths.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(listPaths(["a", "b", "c"], 2), "a, b and 1 more");
 * ```
 * @param paths The paths.
 * @param cap How many to name.
 * @returns The list.
 */
export function listPaths(paths: readonly string[], cap = PATH_LIST_CAP): string {
  const named = paths.slice(0, cap).map(showPath).join(", ");
  return paths.length > cap ? `${named} and ${paths.length - cap} more` : named;
}
