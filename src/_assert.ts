/**
 * Assertions for tests and doc examples. Equality is `node:assert`'s strict deep equality,
 * written out here: importing `node:assert` loads Deno's Node layer, which costs each test
 * module (every test file, every doc example, every mutant's run) about 20 ms of start-up.
 * `tests/assert_test.ts` holds {@linkcode equal} to `node:util`'s `isDeepStrictEqual` on
 * generated values.
 *
 * @module
 */
import { deepEqual } from "./_deep_equal.ts";

/** A failed assertion (named as `node:assert`'s, so a test's output says what failed). */
export class AssertionError extends Error {
  override name = "AssertionError";
}

/**
 * Whether two values are deeply and strictly equal (`node:util`'s `isDeepStrictEqual`).
 *
 * @example
 * ```ts
 * assertOk(equal({ a: [1, new Set([2])] }, { a: [1, new Set([2])] }));
 * assertOk(!equal([1], ["1"]));
 * ```
 * @param a One value.
 * @param b The other.
 * @returns Whether they are equal.
 */
export function equal(a: unknown, b: unknown): boolean {
  return deepEqual(a, b);
}

function show(value: unknown): string {
  return Deno.inspect(value, { depth: 8, iterableLimit: 200, strAbbreviateSize: 2000 });
}

/**
 * Assert deep equality.
 *
 * @param actual What was computed.
 * @param expected What it should be.
 * @param message Shown on failure.
 * @throws {AssertionError} when they differ.
 */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  if (!deepEqual(actual, expected)) {
    throw new AssertionError(
      `${message ? `${message}\n` : ""}Expected values to be strictly deep-equal:\n` +
        `actual:   ${show(actual)}\nexpected: ${show(expected)}`,
    );
  }
}

/**
 * Assert that two values are not deeply equal.
 *
 * @param actual What was computed.
 * @param unexpected What it must differ from.
 * @param message Shown on failure.
 * @throws {AssertionError} when they are equal.
 */
export function assertNotEquals(actual: unknown, unexpected: unknown, message?: string): void {
  if (deepEqual(actual, unexpected)) {
    throw new AssertionError(message ?? `Expected a value other than ${show(unexpected)}`);
  }
}

/**
 * Assert that a value is truthy.
 *
 * @param value The value.
 * @param message Shown on failure.
 * @throws {AssertionError} when falsy.
 */
export function assertOk(value: unknown, message?: string): asserts value {
  if (!value) throw new AssertionError(message ?? `Expected a truthy value, got ${show(value)}`);
}

/**
 * Assert that text contains a substring.
 *
 * @param text The text.
 * @param part What it must contain.
 * @throws {AssertionError} when missing.
 */
export function assertIncludes(text: string, part: string): void {
  assertOk(
    text.includes(part),
    `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`,
  );
}

/**
 * Assert that text does not contain a substring.
 *
 * @param text The text.
 * @param part What it must not contain.
 * @throws {AssertionError} when present.
 */
export function assertExcludes(text: string, part: string): void {
  assertOk(
    !text.includes(part),
    `expected ${JSON.stringify(text)} not to include ${JSON.stringify(part)}`,
  );
}

/**
 * Assert that a text matches a pattern.
 *
 * @example
 * ```ts
 * assertMatch("environment-verified: abc", /^environment-verified: /);
 * ```
 * @param text The text.
 * @param pattern The pattern.
 * @throws {AssertionError} when it does not match, quoting the text.
 */
export function assertMatch(text: string, pattern: RegExp): void {
  if (!pattern.test(text)) {
    throw new AssertionError(`Expected ${JSON.stringify(text)} to match ${pattern}`);
  }
}

/**
 * Assert that a text does not match a pattern.
 *
 * @param text The text.
 * @param pattern The pattern.
 * @throws {AssertionError} when it matches, quoting the text.
 */
export function assertNotMatch(text: string, pattern: RegExp): void {
  if (pattern.test(text)) {
    throw new AssertionError(`Expected ${JSON.stringify(text)} not to match ${pattern}`);
  }
}

/**
 * Assert that a promise (or a function's) rejects, optionally with an error of a class or
 * whose message matches a pattern.
 *
 * @example
 * ```ts
 * await assertRejects(() => Promise.reject(new RangeError("too far")), /too far/);
 * ```
 * @param work The promise, or a function returning it.
 * @param expected The error's class, or a pattern its message must match.
 * @returns The rejection's reason.
 * @throws {AssertionError} when it resolves, or rejects with another error.
 */
export async function assertRejects(
  work: Promise<unknown> | (() => Promise<unknown>),
  // deno-lint-ignore no-explicit-any
  expected?: RegExp | (new (...args: any[]) => Error),
): Promise<unknown> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (error) {
    if (expected instanceof RegExp) {
      assertMatch(error instanceof Error ? error.message : String(error), expected);
    } else if (expected !== undefined && !(error instanceof expected)) {
      throw new AssertionError(`Expected a ${expected.name}, got ${show(error)}`);
    }
    return error;
  }
  throw new AssertionError("Expected a rejection, but it resolved");
}
