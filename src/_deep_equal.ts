/**
 * Strict deep equality with `node:util`'s `isDeepStrictEqual` meaning, for the test
 * assertions (see `src/_assert.ts` for why it is not imported from there):
 *
 * - primitives compare with `Object.is` (so `NaN` equals `NaN`, `0` does not equal `-0`);
 * - objects must have the same prototype and the same type, and the same own enumerable
 *   keys (symbols too) with equal values;
 * - arrays compare element by element, a hole equal only to a hole;
 * - dates by time, regular expressions by source, flags and `lastIndex`, errors also by
 *   name, message, cause and `errors`, URLs by `href`, boxed primitives by value, typed
 *   arrays, `DataView`s and buffers by bytes;
 * - sets and maps by members, an object member matched by a deeply equal one;
 * - any other built-in object (a promise, a weak map) only to itself;
 * - a cycle where both sides close it at the same depth.
 *
 * @module
 */

const TAG = (value: object) => Object.prototype.toString.call(value);

function isIndex(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function enumerableSymbols(value: object): symbol[] {
  return Object.getOwnPropertySymbols(value).filter((s) =>
    Object.prototype.propertyIsEnumerable.call(value, s)
  );
}

function bytesOf(value: ArrayBufferView | ArrayBufferLike): Uint8Array {
  return ArrayBuffer.isView(value)
    ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    : new Uint8Array(value);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The value a boxed primitive holds, or undefined when `value` is not one. */
function boxed(value: object): { kind: string; inner: unknown } | undefined {
  const tag = TAG(value);
  const read: Record<string, (v: object) => unknown> = {
    "[object Number]": (v) => Number.prototype.valueOf.call(v),
    "[object String]": (v) => String.prototype.valueOf.call(v),
    "[object Boolean]": (v) => Boolean.prototype.valueOf.call(v),
    "[object BigInt]": (v) => BigInt.prototype.valueOf.call(v),
    "[object Symbol]": (v) => Symbol.prototype.valueOf.call(v),
  };
  const reader = read[tag];
  if (reader === undefined) return undefined;
  try {
    return { kind: tag, inner: reader(value) };
  } catch {
    return undefined; // an object that only claims the tag
  }
}

/**
 * The objects on the path being compared, each side's with its depth on that path: a cycle
 * compares equal only where both sides close it at the same depth (as `node:util` does).
 */
interface Seen {
  a: Map<object, number>;
  b: Map<object, number>;
  depth: number;
}

/**
 * Whether `a` and `b` are strictly deeply equal.
 *
 * @example
 * ```ts
 * import { assertOk } from "./_assert.ts";
 * assertOk(deepEqual(new Map([[{ k: 1 }, [NaN]]]), new Map([[{ k: 1 }, [NaN]]])));
 * assertOk(!deepEqual([0], [-0]));
 * assertOk(!deepEqual([, 1], [undefined, 1]));
 * ```
 * @param a One value.
 * @param b The other.
 * @returns Whether they are equal.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  return inner(a, b, { a: new Map(), b: new Map(), depth: 0 });
}

function inner(a: unknown, b: unknown, seen: Seen): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (TAG(a) !== TAG(b)) return false;
  const atA = seen.a.get(a);
  const atB = seen.b.get(b);
  if (atA !== undefined && atB !== undefined) return atA === atB;
  const depth = ++seen.depth;
  seen.a.set(a, depth);
  seen.b.set(b, depth);
  try {
    return sameKind(a, b, seen) && sameKeys(a, b, seen);
  } finally {
    if (atA === undefined) seen.a.delete(a);
    else seen.a.set(a, atA);
    if (atB === undefined) seen.b.delete(b);
    else seen.b.set(b, atB);
  }
}

/**
 * The types compared by what they hold; an object of any other built-in type (one whose
 * tag names its type: a promise, a weak map, `Headers`) equals only itself, since what it
 * holds is not in its properties. A URL equals one of the same `href`.
 */
const COMPARED = new Set([
  "[object Object]",
  "[object Array]",
  "[object Date]",
  "[object RegExp]",
  "[object Error]",
  "[object Map]",
  "[object Set]",
  "[object ArrayBuffer]",
  "[object SharedArrayBuffer]",
  "[object DataView]",
  "[object Number]",
  "[object String]",
  "[object Boolean]",
  "[object BigInt]",
  "[object Symbol]",
]);

/** What the type itself holds: elements, time, bytes, members. */
function sameKind(a: object, b: object, seen: Seen): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const has = Object.hasOwn(a, i);
      if (has !== Object.hasOwn(b, i)) return false;
      if (has && !inner(a[i], b[i], seen)) return false;
    }
    return true;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  }
  if (a instanceof RegExp || b instanceof RegExp) {
    return a instanceof RegExp && b instanceof RegExp && a.source === b.source &&
      a.flags === b.flags && a.lastIndex === b.lastIndex;
  }
  if (a instanceof Error || b instanceof Error) {
    if (!(a instanceof Error && b instanceof Error)) return false;
    if (a.message !== b.message || a.name !== b.name) return false;
    for (const hidden of ["cause", "errors"] as const) {
      const has = Object.hasOwn(a, hidden);
      if (has !== Object.hasOwn(b, hidden)) return false;
      if (
        has &&
        !inner(
          (a as Error & Record<string, unknown>)[hidden],
          (b as Error & Record<string, unknown>)[hidden],
          seen,
        )
      ) return false;
    }
  }
  if (a instanceof URL || b instanceof URL) {
    return a instanceof URL && b instanceof URL && a.href === b.href;
  }
  if (!ArrayBuffer.isView(a) && !COMPARED.has(TAG(a))) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    return ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && sameBytes(bytesOf(a), bytesOf(b));
  }
  const buffers = ["[object ArrayBuffer]", "[object SharedArrayBuffer]"];
  if (buffers.includes(TAG(a))) {
    return sameBytes(bytesOf(a as ArrayBufferLike), bytesOf(b as ArrayBufferLike));
  }
  const boxA = boxed(a);
  const boxB = boxed(b);
  if (boxA !== undefined || boxB !== undefined) {
    return boxA !== undefined && boxB !== undefined && boxA.kind === boxB.kind &&
      Object.is(boxA.inner, boxB.inner);
  }
  if (a instanceof Set || b instanceof Set) {
    return a instanceof Set && b instanceof Set && sameSet(a, b, seen);
  }
  if (a instanceof Map || b instanceof Map) {
    return a instanceof Map && b instanceof Map && sameMap(a, b, seen);
  }
  return true;
}

/** The own enumerable properties (for arrays and typed arrays: those that are no index). */
function sameKeys(a: object, b: object, seen: Seen): boolean {
  const indexed = Array.isArray(a) || ArrayBuffer.isView(a);
  const keysOf = (v: object) => Object.keys(v).filter((k) => !indexed || !isIndex(k));
  const keysA = keysOf(a);
  const keysB = keysOf(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
  }
  const symbolsA = enumerableSymbols(a);
  if (symbolsA.length !== enumerableSymbols(b).length) return false;
  for (const s of symbolsA) {
    if (!Object.prototype.propertyIsEnumerable.call(b, s)) return false;
  }
  const valuesA = a as Record<string | symbol, unknown>;
  const valuesB = b as Record<string | symbol, unknown>;
  for (const key of [...keysA, ...symbolsA]) {
    if (!inner(valuesA[key], valuesB[key], seen)) return false;
  }
  return true;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** Primitive members by identity; each object member matched once by an equal one. */
function sameSet(a: Set<unknown>, b: Set<unknown>, seen: Seen): boolean {
  if (a.size !== b.size) return false;
  const open: unknown[] = [];
  for (const value of a) {
    if (isObject(value)) open.push(value);
    else if (!b.has(value)) return false;
  }
  for (const value of b) {
    if (!isObject(value)) continue;
    const i = open.findIndex((candidate) => inner(value, candidate, seen));
    if (i < 0) return false;
    open.splice(i, 1);
  }
  return open.length === 0;
}

/** Primitive keys by identity; each object key matched once by an equal key and value. */
function sameMap(a: Map<unknown, unknown>, b: Map<unknown, unknown>, seen: Seen): boolean {
  if (a.size !== b.size) return false;
  const open: unknown[] = [];
  for (const [key, value] of a) {
    if (isObject(key)) open.push(key);
    else if (!b.has(key) || !inner(value, b.get(key), seen)) return false;
  }
  for (const [key, value] of b) {
    if (!isObject(key)) continue;
    const i = open.findIndex((candidate) =>
      inner(key, candidate, seen) && inner(value, a.get(candidate), seen)
    );
    if (i < 0) return false;
    open.splice(i, 1);
  }
  return open.length === 0;
}
