/**
 * The six fields of a v1 handshake, their order and their validation.
 *
 * @module
 */

/** The v1 field names in schema order. */
export const FIELD_NAMES = [
  "parent_head",
  "parent_branch",
  "parent_cwd",
  "parent_dirty_fingerprint",
  "workspace_mode",
  "handshake_issued_at",
] as const;

/** One field name. */
export type FieldName = typeof FIELD_NAMES[number];

/** The four tree fields verify compares, in schema order. */
export const TREE_FIELDS = [
  "parent_head",
  "parent_branch",
  "parent_cwd",
  "parent_dirty_fingerprint",
] as const;

/** One tree field name. */
export type TreeField = typeof TREE_FIELDS[number];

/** A complete v1 handshake. */
export interface Handshake {
  /** Full hex `git rev-parse HEAD` (40 or 64 digits). */
  parent_head: string;
  /** `git rev-parse --abbrev-ref HEAD` (`HEAD` when detached). */
  parent_branch: string;
  /** The parent's working directory, absolute. */
  parent_cwd: string;
  /** 12 lowercase hex digits. */
  parent_dirty_fingerprint: string;
  /** `shared` (`worktree` is reserved and takes the error path). */
  workspace_mode: "shared" | "worktree";
  /** UTC ISO-8601 ending in `Z`. */
  handshake_issued_at: string;
}

/** The four tree facts, as captured live or carried by a block. */
export type TreeState = Pick<Handshake, TreeField>;

/** A value that breaks the v1 schema. */
export class FieldError extends Error {
  /** The offending field. */
  readonly field: FieldName;
  /**
   * Create the error for one field.
   *
   * @param field The offending field.
   * @param message What is wrong.
   */
  constructor(field: FieldName, message: string) {
    super(message);
    this.name = "FieldError";
    this.field = field;
  }
}

const ISSUED_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/**
 * Whether a path is absolute in POSIX, Windows drive, MSYS or UNC form.
 *
 * @param path The path.
 * @returns True for `/x`, `C:\x`, `C:/x`, `\\server\share`.
 */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\]/.test(path);
}

/**
 * Check one field value against the v1 schema.
 *
 * @example A short SHA is refused
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(validateField("parent_head", "abc1234"), 'field "parent_head" is not 40 or 64 lowercase hex: "abc1234"');
 * assertEquals(validateField("parent_dirty_fingerprint", "ef71e55616b3"), undefined);
 * ```
 * @param name The field.
 * @param value Its text.
 * @returns A reason when invalid, undefined when valid.
 */
export function validateField(name: FieldName, value: string): string | undefined {
  const quoted = JSON.stringify(value);
  // A tab is legal in a path; every other control character would break or blur the block.
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    return `field "${name}" holds a control character`;
  }
  if (value.trim() !== value) {
    return `field "${name}" has leading or trailing white space: ${quoted}`;
  }
  switch (name) {
    case "parent_head":
      return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)
        ? undefined
        : `field "parent_head" is not 40 or 64 lowercase hex: ${quoted}`;
    case "parent_branch":
      // What `git rev-parse --abbrev-ref HEAD` can print: a ref name, which holds no
      // white space and none of ~ ^ : ? * [ \\ (git check-ref-format).
      return value.length > 0 && value.length <= 4096 && !/[\s~^:?*[\\]/.test(value)
        ? undefined
        : `field "parent_branch" is not a branch name: ${quoted}`;
    case "parent_cwd":
      return value.length <= 4096 && isAbsolutePath(value)
        ? undefined
        : `field "parent_cwd" is not an absolute path: ${quoted}`;
    case "parent_dirty_fingerprint":
      return /^[0-9a-f]{12}$/.test(value)
        ? undefined
        : `field "parent_dirty_fingerprint" is not 12 lowercase hex: ${quoted}`;
    case "workspace_mode":
      return value === "shared" || value === "worktree"
        ? undefined
        : `field "workspace_mode" is not shared or worktree: ${quoted}`;
    case "handshake_issued_at":
      return parseIssuedAt(value) === undefined
        ? `field "handshake_issued_at" is not a UTC ISO-8601 time: ${quoted}`
        : undefined;
  }
}

/**
 * Parse a `handshake_issued_at` value to epoch milliseconds.
 *
 * @param value `2026-11-29T20:15:00.1234567Z` or with fewer fractional digits.
 * @returns Milliseconds since the epoch, or undefined when not a valid UTC time.
 */
export function parseIssuedAt(value: string): number | undefined {
  const m = ISSUED_AT.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m.map((x) => x ?? "");
  const check = new Date(0);
  check.setUTCFullYear(+y!, +mo! - 1, +d!); // not Date.UTC, which maps years 0-99 to 19xx
  check.setUTCHours(+h!, +mi!, +s!, 0);
  const ms = check.getTime() + Math.floor(Number(`0${frac || ".0"}`) * 1000);
  if (
    check.getUTCFullYear() !== +y! || check.getUTCMonth() !== +mo! - 1 ||
    check.getUTCDate() !== +d! ||
    check.getUTCHours() !== +h! || check.getUTCMinutes() !== +mi! || check.getUTCSeconds() !== +s!
  ) return undefined;
  return ms;
}

/**
 * Validate a whole handshake.
 *
 * @param fields The six values.
 * @returns The same object, typed.
 * @throws {FieldError} naming the first invalid field.
 */
export function validateHandshake(fields: Record<FieldName, string>): Handshake {
  for (const name of FIELD_NAMES) {
    const reason = validateField(name, fields[name]);
    if (reason) throw new FieldError(name, reason);
  }
  return fields as Handshake;
}
