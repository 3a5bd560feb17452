/**
 * The six fields of a v1 handshake, their order and their validation.
 *
 * @module
 */
import { formatIssuedAt } from "../time.ts";

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

/**
 * The UTC forms `handshake_issued_at` accepts: date, `T` (or `t` or a space), hours and
 * minutes, optional seconds with an optional fraction (`.` or `,`, up to nine digits), and
 * a zone that can only mean UTC (`Z`, `z`, `+00:00`, `+0000`, `+00`, `-00:00`). What
 * `date -u -Iseconds`, `date -u -Ins` and .NET's `'o'` print are all in it.
 */
const ISSUED_AT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:[Zz]|[+-]00(?::?00)?)$/;

/** The v1 schema's hex fields, which are compared in lowercase. */
const HEX_FIELDS: ReadonlySet<FieldName> = new Set(["parent_head", "parent_dirty_fingerprint"]);

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
 * Whether a POSIX path names "whoever asks" rather than one directory: `/proc/…` (the
 * asking process's `self`, `thread-self`, or another process's moving cwd) and the
 * per-process `/dev/fd/…`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr`. Resolved in the
 * child, such a path is the child's own directory, so it would match anywhere.
 *
 * @example Names of the asker, and a plain directory
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(namesWhoeverAsks("/proc/self/cwd"), true);
 * assertEquals(namesWhoeverAsks("//tmp/../proc/thread-self/cwd/x"), true);
 * assertEquals(namesWhoeverAsks("/dev/fd/3"), true);
 * assertEquals(namesWhoeverAsks("/dev/shm/repo"), false);
 * assertEquals(namesWhoeverAsks("/home/ann/proc/self"), false);
 * ```
 * @param path An absolute path.
 * @returns True when the path lies under `/proc` or names a per-process device.
 */
export function namesWhoeverAsks(path: string): boolean {
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const [first, second] = parts;
  if (first === "proc") return true;
  return first === "dev" && ["fd", "stdin", "stdout", "stderr"].includes(second ?? "");
}

/**
 * Check one field value against the v1 schema. A value the block format cannot carry is
 * refused: leading or trailing white space (any Unicode white space, since a reader may
 * strip it), control characters other than a tab (C0, DEL and C1), and the Unicode line
 * and paragraph separators.
 *
 * @example A short SHA is refused
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(validateField("parent_head", "abc1234"), 'field "parent_head" is not 40 or 64 hex: "abc1234"');
 * assertEquals(validateField("parent_dirty_fingerprint", "EF71E55616B3"), undefined);
 * assertEquals(validateField("parent_cwd", "/repo\u00a0"), 'field "parent_cwd" has leading or trailing white space, which a v1 block cannot carry: "/repo\u00a0"');
 * ```
 * @param name The field.
 * @param value Its text.
 * @returns A reason when invalid, undefined when valid.
 */
export function validateField(name: FieldName, value: string): string | undefined {
  const quoted = JSON.stringify(value);
  // A tab is legal in a path; every other control character would break or blur the block.
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) {
    return `field "${name}" holds a control character or line separator: ${quoted}`;
  }
  if (value.trim() !== value) { // tether:guard f2-value-white-space
    return `field "${name}" has leading or trailing white space, which a v1 block cannot carry: ${quoted}`;
  }
  switch (name) {
    case "parent_head":
      return /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(value)
        ? undefined
        : `field "parent_head" is not 40 or 64 hex: ${quoted}`;
    case "parent_branch":
      // What a branch name can be (git check-ref-format): no ASCII white space and none of
      // ~ ^ : ? * [ \\. Other Unicode characters are legal in a ref name.
      return value.length > 0 && value.length <= 4096 && !/[ \t~^:?*[\\]/.test(value)
        ? undefined
        : `field "parent_branch" is not a branch name: ${quoted}`;
    case "parent_cwd":
      if (value.length > 4096 || !isAbsolutePath(value)) {
        return `field "parent_cwd" is not an absolute path: ${quoted}`;
      }
      return namesWhoeverAsks(value) // tether:guard f5-whoever-asks
        ? `field "parent_cwd" names whoever reads it, not one directory: ${quoted}`
        : undefined;
    case "parent_dirty_fingerprint":
      return /^[0-9a-fA-F]{12}$/.test(value)
        ? undefined
        : `field "parent_dirty_fingerprint" is not 12 hex: ${quoted}`;
    case "workspace_mode":
      return value === "shared" || value === "worktree"
        ? undefined
        : `field "workspace_mode" is not shared or worktree: ${quoted}`;
    case "handshake_issued_at":
      return parseIssuedAtTicks(value) === undefined
        ? `field "handshake_issued_at" is not a UTC ISO-8601 time: ${quoted}`
        : undefined;
  }
}

/**
 * The canonical spelling of a valid field value: hex in lowercase, a time as the seed's
 * seven-digit `Z` form; other fields unchanged. Comparison and emission use this form.
 *
 * @example Upper-case hex and a `date -u -Iseconds` time
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(normaliseField("parent_dirty_fingerprint", "EF71E55616B3"), "ef71e55616b3");
 * assertEquals(normaliseField("handshake_issued_at", "2026-12-01T02:04:34+00:00"), "2026-12-01T02:04:34.0000000Z");
 * ```
 * @param name The field.
 * @param value A value {@linkcode validateField} accepts.
 * @returns The canonical value.
 */
export function normaliseField(name: FieldName, value: string): string {
  if (HEX_FIELDS.has(name)) return value.toLowerCase();
  if (name === "handshake_issued_at") {
    const ticks = parseIssuedAtTicks(value);
    return ticks === undefined ? value : formatIssuedAt(ticks);
  }
  return value;
}

/**
 * Parse a `handshake_issued_at` value to 100-nanosecond ticks since the epoch.
 *
 * @param value A UTC time in one of the accepted forms.
 * @returns The ticks (fraction digits beyond seven are cut), or undefined when not a valid UTC time.
 */
export function parseIssuedAtTicks(value: string): bigint | undefined {
  const m = ISSUED_AT.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m.map((x) => x ?? "");
  const check = new Date(0);
  check.setUTCFullYear(+y!, +mo! - 1, +d!); // not Date.UTC, which maps years 0-99 to 19xx
  check.setUTCHours(+h!, +mi!, +(s || "0"), 0);
  if (
    check.getUTCFullYear() !== +y! || check.getUTCMonth() !== +mo! - 1 ||
    check.getUTCDate() !== +d! || check.getUTCHours() !== +h! ||
    check.getUTCMinutes() !== +mi! || check.getUTCSeconds() !== +(s || "0")
  ) return undefined;
  return BigInt(check.getTime()) * 10000n + BigInt((frac || "").padEnd(7, "0").slice(0, 7));
}

/**
 * Parse a `handshake_issued_at` value to epoch milliseconds.
 *
 * @param value `2026-11-29T20:15:00.1234567Z`, or any accepted UTC form.
 * @returns Milliseconds since the epoch, or undefined when not a valid UTC time.
 */
export function parseIssuedAt(value: string): number | undefined {
  const ticks = parseIssuedAtTicks(value);
  return ticks === undefined ? undefined : Number(ticks / 10000n);
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
  return Object.fromEntries(
    FIELD_NAMES.map((name) => [name, normaliseField(name, fields[name])]),
  ) as unknown as Handshake;
}
