/**
 * Object ids and formats: SHA-1 or SHA-256, full hex, as the repository uses.
 *
 * @module
 */
import { gitText } from "./git.ts";

/** The object formats git knows, by hex length. */
export type ObjectFormat = "sha1" | "sha256";

/**
 * How many hex digits an object id has in a format.
 *
 * @param format `sha1` or `sha256`.
 * @returns 40 or 64.
 */
export function oidLength(format: ObjectFormat): number {
  return format === "sha256" ? 64 : 40;
}

/**
 * Whether a caller-supplied value is a full object id of the repository's format.
 *
 * @example Reject an abbreviated id and an option
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(isFullOid("a".repeat(40), "sha1"), true);
 * assertEquals(isFullOid("abc1234", "sha1"), false);
 * assertEquals(isFullOid("--output=x", "sha1"), false);
 * ```
 * @param value The caller's text.
 * @param format The repository's object format.
 * @returns True only for exactly 40 (sha1) or 64 (sha256) lowercase hex digits.
 */
export function isFullOid(value: string, format: ObjectFormat): boolean {
  return value.length === oidLength(format) && /^[0-9a-f]+$/.test(value);
}

/**
 * Read the repository's object format.
 *
 * @param cwd Directory inside the repository.
 * @returns `sha1` or `sha256`.
 * @throws {GitError} when not a repository or git fails.
 */
export async function objectFormat(cwd?: string): Promise<ObjectFormat> {
  const text = await gitText(
    ["rev-parse", "--show-object-format"],
    cwd === undefined ? {} : { cwd },
  );
  return text === "sha256" ? "sha256" : "sha1";
}
