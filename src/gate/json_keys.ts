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

type Frame =
  | {
    type: "object";
    path: (string | number)[];
    keys: Set<string>;
    key: string;
    expectKey: boolean;
  }
  | { type: "array"; path: (string | number)[]; index: number };

/**
 * Find every key that occurs more than once in the same object.
 *
 * @example A duplicate at the top and one inside an array
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(duplicateKeys('{"ok":false,"ok":true,"e":[{"a":1,"\\u0061":2}]}'), [
 *   { path: [], key: "ok" },
 *   { path: ["e", 0], key: "a" },
 * ]);
 * assertEquals(duplicateKeys('{"a":{"a":1},"b":"a"}'), []);
 * ```
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The duplicates in text order.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  const childPath = (): (string | number)[] => {
    const top = stack[stack.length - 1];
    if (!top) return [];
    return top.type === "object" ? [...top.path, top.key] : [...top.path, top.index];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const value = JSON.parse(text.slice(i, j + 1)) as string;
      const top = stack[stack.length - 1];
      if (top?.type === "object" && top.expectKey) {
        if (top.keys.has(value)) found.push({ path: top.path, key: value }); // guard: duplicate key
        top.keys.add(value);
        top.key = value;
        top.expectKey = false;
      }
      i = j;
    } else if (c === "{") {
      stack.push({ type: "object", path: childPath(), keys: new Set(), key: "", expectKey: true });
    } else if (c === "[") {
      stack.push({ type: "array", path: childPath(), index: 0 });
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ",") {
      const top = stack[stack.length - 1];
      if (top?.type === "object") top.expectKey = true;
      else if (top?.type === "array") top.index++;
    }
  }
  return found;
}
