/**
 * The test assertions' deep equality means what `node:assert`'s strict deep equality means:
 * on generated values, equal ones (built twice from the same seed) and different ones, it
 * answers as `node:util`'s `isDeepStrictEqual` does. A weaker equality would let a test
 * pass that should fail.
 *
 * @module
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import {
  assertEquals,
  AssertionError,
  assertNotEquals,
  assertOk,
  assertRejects,
  equal,
} from "../src/_assert.ts";

/** Values of every kind the equality tells apart: maps, sets, dates, typed arrays, holes, boxes. */
const anything = fc.anything({
  maxDepth: 3,
  maxKeys: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/**
 * `isDeepStrictEqual`'s answer, or undefined where it throws instead (Deno's version does on
 * some sets that hold `null` and objects): those pairs have no reference to compare with.
 */
function reference(a: unknown, b: unknown): boolean | undefined {
  try {
    return isDeepStrictEqual(a, b);
  } catch {
    return undefined;
  }
}

/** Hand-made pairs the generator does not make: errors, patterns, buffers, symbols, -0. */
function edgeCases(): Array<[unknown, unknown]> {
  const sym = Symbol("s");
  const re = /a/g;
  const moved = /a/g;
  moved.lastIndex = 1;
  class Point {
    constructor(public x: number) {}
  }
  return [
    [0, -0],
    [[0], [-0]],
    [NaN, NaN],
    [new Date(NaN), new Date(NaN)],
    [new Error("a"), new Error("a")],
    [new Error("a"), new Error("b")],
    [new Error("a"), new TypeError("a")],
    [re, /a/g],
    [re, /a/i],
    [re, moved],
    [new Uint8Array([1, 2]), new Uint8Array([1, 2])],
    [new Uint8Array([1, 2]), new Int8Array([1, 2])],
    [new Float64Array([0]), new Float64Array([-0])],
    [new Float64Array([NaN]), new Float64Array([NaN])],
    [new ArrayBuffer(2), new ArrayBuffer(2)],
    [new ArrayBuffer(2), new ArrayBuffer(3)],
    [{ [sym]: 1 }, { [sym]: 1 }],
    [{ [sym]: 1 }, { [sym]: 2 }],
    [{ [sym]: 1 }, {}],
    [new Point(1), { x: 1 }],
    [new Point(1), new Point(1)],
    [Object.assign([1], { k: 1 }), [1]],
    [Object.assign([1], { k: 1 }), Object.assign([1], { k: 1 })],
    [new Set([{ a: 1 }, { a: 1 }]), new Set([{ a: 1 }, { a: 2 }])],
    [new Map([[{ a: 1 }, 1]]), new Map([[{ a: 1 }, 2]])],
    [new Map([[{ a: 1 }, 1], [{ a: 1 }, 2]]), new Map([[{ a: 1 }, 2], [{ a: 1 }, 1]])],
    [new Set([1, "1"]), new Set(["1", 1])],
    [new Set([1]), new Set([2])],
    [new Set([1, { a: 1 }]), new Set([2, { a: 1 }])],
    [new Map([[1, "a"]]), new Map([[2, "a"]])],
    [new Map([[1, "a"]]), new Map([[1, "b"]])],
    [[undefined], [,]],
    [{ a: undefined }, {}],
    [Object(1), Object(1)],
    [Object(1), Object(2)],
    [Object("ab"), Object("ab")],
    [Object(1n), 1n],
    [() => 1, () => 1],
    [new Error("x", { cause: 1 }), new Error("x", { cause: 2 })],
    [new Error("x", { cause: 1 }), new Error("x", { cause: 1 })],
    [new Error("x", { cause: 1 }), new Error("x")],
    [new AggregateError([1], "m"), new AggregateError([2], "m")],
    [new AggregateError([1], "m"), new AggregateError([1], "m")],
    [new WeakMap(), new WeakMap()],
    [new WeakSet(), new WeakSet()],
    [Promise.resolve(1), Promise.resolve(1)],
    [new URL("http://a/"), new URL("http://a/")],
    [new URL("http://a/"), new URL("http://b/")],
    [new Headers({ a: "1" }), new Headers({ a: "2" })],
    ...cycles(),
  ];
}

/** Cycles closed at the same depth on both sides, and at different depths. */
function cycles(): Array<[unknown, unknown]> {
  const self = () => {
    const o: Record<string, unknown> = {};
    o.x = o;
    return o;
  };
  const deeper = () => {
    const o: Record<string, unknown> = {};
    o.x = { x: o };
    return o;
  };
  return [
    [self(), self()],
    [self(), deeper()],
    [deeper(), deeper()],
    [[self()], [[deeper()]]],
    [new Map([["k", self()]]), new Map([["k", deeper()]])],
  ];
}

Deno.test("deep equality answers as node's isDeepStrictEqual on values built twice alike", () => {
  fc.assert(
    fc.property(fc.clone(anything, 2), ([a, b]) => {
      assertEquals(equal(a, b), reference(a, b) ?? true);
      assertOk(equal(a, b), "values built alike are equal");
    }),
    { numRuns: 1500 },
  );
});

Deno.test("deep equality answers as node's isDeepStrictEqual on different values", () => {
  fc.assert(
    fc.property(anything, anything, (a, b) => {
      const expected = reference(a, b);
      if (expected !== undefined && equal(a, b) !== expected) {
        throw new Error(`equal says ${equal(a, b)} for ${Deno.inspect([a, b])}`);
      }
    }),
    { numRuns: 3000 },
  );
});

Deno.test("deep equality answers as node's isDeepStrictEqual on one changed part", () => {
  // A value and a copy with one leaf replaced: unequal unless the leaf was equal already.
  const leaf = fc.oneof(fc.constant(-0), fc.constant(NaN), fc.integer(), fc.string(), fc.boolean());
  fc.assert(
    fc.property(fc.clone(anything, 2), leaf, fc.nat(), ([a, b], value, pick) => {
      const target = innerObject(b, pick);
      if (target !== undefined) {
        const keys = Object.keys(target);
        if (keys.length > 0) {
          try {
            (target as Record<string, unknown>)[keys[pick % keys.length]!] = value;
          } catch { /* frozen or a typed array's element type */ }
        }
      }
      const expected = reference(a, b);
      if (expected !== undefined) assertEquals(equal(a, b), expected);
    }),
    { numRuns: 1500 },
  );
});

/** Some plain object or array inside `value` (the `pick`-th found), if any. */
function innerObject(value: unknown, pick: number): object | undefined {
  const found: object[] = [];
  const walk = (v: unknown, depth: number) => {
    if (typeof v !== "object" || v === null || depth > 4 || ArrayBuffer.isView(v)) return;
    if (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype) found.push(v);
    for (const key of Object.keys(v)) walk((v as Record<string, unknown>)[key], depth + 1);
  };
  walk(value, 0);
  return found.length === 0 ? undefined : found[pick % found.length];
}

Deno.test("deep equality answers as node's isDeepStrictEqual on errors, patterns, buffers, symbols and -0", () => {
  for (const [a, b] of edgeCases()) {
    assertEquals(equal(a, b), isDeepStrictEqual(a, b), Deno.inspect([a, b]));
    assertEquals(equal(b, a), isDeepStrictEqual(b, a), Deno.inspect([b, a]));
  }
});

Deno.test("deep equality closes a cycle where it began", () => {
  const a: Record<string, unknown> = { n: 1 };
  a.self = a;
  const b: Record<string, unknown> = { n: 1 };
  b.self = b;
  assertOk(equal(a, b));
  b.n = 2;
  assertOk(!equal(a, b));
});

Deno.test("a failed assertion throws an AssertionError that names both values", async () => {
  let caught: unknown;
  try {
    assertEquals({ a: [1, 2] }, { a: [1, 3] }, "the lists");
  } catch (error) {
    caught = error;
  }
  assertOk(caught instanceof AssertionError);
  assertOk(caught.message.includes("the lists") && caught.message.includes("3"), caught.message);
  await assertRejects(() => Promise.resolve().then(() => assertNotEquals(1, 1)), AssertionError);
  await assertRejects(Promise.reject(new Error("gone away")), /gone away/);
  await assertRejects(
    assertRejects(Promise.resolve(1)),
    /resolved/,
  );
});
