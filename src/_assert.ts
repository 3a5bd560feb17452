/**
 * Assertions for tests and doc examples, behind one local module so that switching to
 * `@std/assert` later is a one-line change.
 *
 * @module
 */
import assert from "node:assert/strict";

/**
 * Assert deep equality.
 *
 * @param actual What was computed.
 * @param expected What it should be.
 * @param message Shown on failure.
 * @throws {assert.AssertionError} when they differ.
 */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  assert.deepStrictEqual(actual, expected, message);
}

/**
 * Assert that a value is truthy.
 *
 * @param value The value.
 * @param message Shown on failure.
 * @throws {assert.AssertionError} when falsy.
 */
export function assertOk(value: unknown, message?: string): asserts value {
  assert.ok(value, message);
}

/**
 * Assert that text contains a substring.
 *
 * @param text The text.
 * @param part What it must contain.
 * @throws {assert.AssertionError} when missing.
 */
export function assertIncludes(text: string, part: string): void {
  assert.ok(
    text.includes(part),
    `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`,
  );
}

/**
 * Assert that text does not contain a substring.
 *
 * @param text The text.
 * @param part What it must not contain.
 * @throws {assert.AssertionError} when present.
 */
export function assertExcludes(text: string, part: string): void {
  assert.ok(
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
 * @throws {Error} when it does not match, quoting the text.
 */
export function assertMatch(text: string, pattern: RegExp): void {
  if (!pattern.test(text)) {
    throw new Error(`Expected ${JSON.stringify(text)} to match ${pattern}`);
  }
}
