/**
 * Duplicate keys in a JSON text. `JSON.parse` keeps the last of two equal keys while other
 * parsers keep the first, so `{"ok":false,"ok":true}` would mean different things to
 * different readers: gate refuses it. Pure; a scanner over text `JSON.parse` accepted.
 *
 * @module
 */

/** A key that occurs twice in one object, and where that object is. */
export interface DuplicateKey {
  /** The path of the object holding it (keys and array indices). */
  path: (string | number)[];
  /** The key, decoded (`"\u006fk"` and `"ok"` are the same key). */
  key: string;
}

/** The deepest nesting of objects and arrays gate reads; deeper is a schema violation. */
export const MAX_JSON_DEPTH = 64;

type Frame =
  | {
    type: "object";
    parent: Frame | undefined;
    at: string | number;
    keys: Set<string>;
    key: string;
    expectKey: boolean;
  }
  | { type: "array"; parent: Frame | undefined; at: string | number; index: number };

/** The path of a frame, walked up its parents (only when a duplicate is reported). */
function framePath(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.push(f.at);
  return path.reverse();
}

/** What a scan of a JSON text found. */
export interface JsonScan {
  /** Keys that occur twice in one object, in text order. */
  duplicates: DuplicateKey[];
  /** True when objects and arrays nest deeper than {@linkcode MAX_JSON_DEPTH}; the scan stopped. */
  tooDeep: boolean;
}

/**
 * Find every key that occurs more than once in the same object, in time linear in the
 * text (a frame knows its parent; a path is built only for a duplicate), and stop at
 * {@linkcode MAX_JSON_DEPTH} levels of nesting.
 *
 * @example A duplicate at the top and one inside an array
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(duplicateKeys('{"ok":false,"ok":true,"e":[{"a":1,"\\u0061":2}]}'), [
 *   { path: [], key: "ok" },
 *   { path: ["e", 0], key: "a" },
 * ]);
 * assertEquals(duplicateKeys('{"a":{"a":1},"b":"a"}'), []);
 * assertEquals(scanJson("[".repeat(65) + "]".repeat(65)).tooDeep, true);
 * ```
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The duplicates, and whether the nesting is too deep.
 */
export function scanJson(text: string): JsonScan {
  const found: DuplicateKey[] = [];
  let top: Frame | undefined;
  let depth = 0;
  const here = (): string | number =>
    top === undefined ? "" : top.type === "object" ? top.key : top.index;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.type === "object" && top.expectKey) {
        const value = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(value)) found.push({ path: framePath(top), key: value }); // guard: duplicate key
        top.keys.add(value);
        top.key = value;
        top.expectKey = false;
      }
      i = j;
    } else if (c === "{" || c === "[") {
      if (++depth > MAX_JSON_DEPTH) return { duplicates: found, tooDeep: true }; // guard: depth limit
      top = c === "{"
        ? { type: "object", parent: top, at: here(), keys: new Set(), key: "", expectKey: true }
        : { type: "array", parent: top, at: here(), index: 0 };
    } else if (c === "}" || c === "]") {
      top = top?.parent;
      depth--;
    } else if (c === ",") {
      if (top?.type === "object") top.expectKey = true;
      else if (top?.type === "array") top.index++;
    }
  }
  return { duplicates: found, tooDeep: false };
}

/**
 * The duplicate keys of a JSON text (see {@linkcode scanJson}).
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The duplicates in text order.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  return scanJson(text).duplicates;
}
