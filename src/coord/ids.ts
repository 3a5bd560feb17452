/**
 * Validation of every name a caller hands to `coord`: work item ids, message ids, lane
 * names, artifact paths, subjects. Pure functions; a bad value is a usage error.
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import { escapeLine } from "./terminal.ts";

/** Work item ids: a letter then letters, digits or `_`, at most 32 characters (`E001`). */
export const WORK_ITEM_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
/** Lane names: a letter then letters, digits, `_` or `-`, at most 32 characters (`W1`). */
export const LANE_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** The largest message number (keeps ids short and file names bounded). */
export const MAX_SEQ = 99_999_999;

/**
 * Whether a text is a valid work item id.
 *
 * @example Accept `E001`, refuse a path
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isWorkItem("E001"), true);
 * assertEquals(isWorkItem("../x"), false);
 * assertEquals(isWorkItem(""), false);
 * ```
 * @param value The caller's text.
 * @returns True when it matches {@linkcode WORK_ITEM_PATTERN}.
 */
export function isWorkItem(value: string): boolean {
  return WORK_ITEM_PATTERN.test(value);
}

/**
 * Check a work item id.
 *
 * @param value The caller's text.
 * @returns The id.
 * @throws {UsageError} when it is not a valid work item id.
 */
export function parseWorkItem(value: string | undefined): string {
  if (value === undefined) throw new UsageError('Missing work item id (for example "E001")');
  if (!isWorkItem(value)) {
    throw new UsageError(
      `Invalid work item id: "${clip(value)}" (a letter, then letters, digits or _; at most 32)`,
    );
  }
  return value;
}

/** A parsed message id. */
export interface MessageId {
  /** The work item, `E001`. */
  workItem: string;
  /** The message number, 1 for `M0001`. */
  seq: number;
}

/**
 * Format a message id: the work item, `-M`, the number padded to four digits.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(formatMessageId("E001", 7), "E001-M0007");
 * ```
 * @param workItem The work item id.
 * @param seq The message number.
 * @returns The id.
 */
export function formatMessageId(workItem: string, seq: number): string {
  return `${workItem}-M${String(seq).padStart(4, "0")}`;
}

/**
 * Parse a message id such as `E001-M0007`; only the canonical spelling is accepted.
 *
 * @example Canonical ids only
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseMessageIdOrUndefined("E001-M0007"), { workItem: "E001", seq: 7 });
 * assertEquals(parseMessageIdOrUndefined("E001-M07"), undefined);
 * assertEquals(parseMessageIdOrUndefined("E001-M0000"), undefined);
 * assertEquals(parseMessageIdOrUndefined("../E001-M0001"), undefined);
 * ```
 * @param value The caller's text.
 * @returns The parts, or undefined when it is not a valid id.
 */
export function parseMessageIdOrUndefined(value: string): MessageId | undefined {
  const match = /^([A-Za-z][A-Za-z0-9_]{0,31})-M([0-9]{4,8})$/.exec(value);
  if (!match?.[1] || !match[2]) return undefined;
  const seq = Number(match[2]);
  if (seq < 1 || seq > MAX_SEQ || formatMessageId(match[1], seq) !== value) return undefined;
  return { workItem: match[1], seq };
}

/**
 * Parse a message id or fail as a usage error.
 *
 * @param value The caller's text.
 * @returns The parts.
 * @throws {UsageError} when it is missing or not a canonical message id.
 */
export function parseMessageId(value: string | undefined): MessageId {
  if (value === undefined) throw new UsageError('Missing message id (for example "E001-M0007")');
  const id = parseMessageIdOrUndefined(value);
  if (!id) {
    throw new UsageError(
      `Invalid message id: "${clip(value)}" (expected a form like "E001-M0007")`,
    );
  }
  return id;
}

/**
 * Whether a text is a valid lane name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isLaneName("W1"), true);
 * assertEquals(isLaneName("--to"), false);
 * ```
 * @param value The text.
 * @returns True when it matches {@linkcode LANE_PATTERN}.
 */
export function isLaneName(value: string): boolean {
  return LANE_PATTERN.test(value);
}

/**
 * Split a `--to`/`--cc` value (`A,B`, repeatable) into lane names.
 *
 * @param values The option values.
 * @returns Distinct lane names in the order given.
 * @throws {UsageError} when a name is empty or malformed.
 */
export function parseLaneList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const name of value.split(",").map((s) => s.trim())) {
      if (!isLaneName(name)) throw new UsageError(`Invalid lane name: "${clip(name)}"`);
      if (!out.includes(name)) out.push(name);
    }
  }
  return out;
}

/**
 * Check an artifact path: relative, `/`-separated, no `.`/`..` segment, no control characters.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isArtifactPath("docs/proof.md"), true);
 * assertEquals(isArtifactPath("../secret"), false);
 * assertEquals(isArtifactPath("/etc/passwd"), false);
 * ```
 * @param value The caller's text.
 * @returns True when the path is acceptable.
 */
export function isArtifactPath(value: string): boolean {
  if (value.length === 0 || value.length > 4096) return false;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith("/") || value.endsWith("/")) return false;
  return value.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Check a subject: one line, 1 to 200 characters.
 *
 * @param value The caller's text.
 * @returns The subject.
 * @throws {UsageError} when missing, empty, too long or multi-line.
 */
export function parseSubject(value: string | undefined): string {
  if (value === undefined) throw new UsageError("Missing --subject");
  // deno-lint-ignore no-control-regex
  if (value.trim() === "" || value.length > 200 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError(`Invalid subject: "${clip(value)}" (one line, 1 to 200 characters)`);
  }
  return value;
}

/**
 * Shorten a caller's value for an error message.
 *
 * @param value Any text.
 * @returns At most 60 characters, control characters escaped ({@linkcode escapeLine}).
 */
export function clip(value: string): string {
  const safe = escapeLine(value);
  return safe.length > 60 ? `${safe.slice(0, 57)}...` : safe;
}
