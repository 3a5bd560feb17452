/**
 * The dirty fingerprint: the first 12 lowercase hex digits of SHA-256 over the bytes
 * `git status --porcelain` prints, carriage returns removed — what
 * `git status --porcelain | tr -d '\r' | sha256sum | cut -c1-12` prints.
 *
 * @module
 */

/**
 * Lowercase hex SHA-256 of some bytes, through Web Crypto.
 *
 * @example Hash of nothing
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals((await sha256Hex(new Uint8Array())).slice(0, 12), "e3b0c44298fc");
 * ```
 * @param bytes What to hash.
 * @returns 64 lowercase hex digits.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The porcelain bytes with every carriage return removed (as `tr -d '\r'` does).
 *
 * @param porcelain What `git status --porcelain` printed.
 * @returns The same bytes without CR.
 */
export function stripCarriageReturns(porcelain: Uint8Array): Uint8Array {
  if (!porcelain.includes(0x0d)) return porcelain;
  return porcelain.filter((b) => b !== 0x0d);
}

/**
 * The 12-hex dirty fingerprint of `git status --porcelain` output.
 *
 * @example The pinned test vectors
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assertEquals(await fingerprint(bytes("")), "e3b0c44298fc");
 * assertEquals(await fingerprint(bytes(" M a.txt\n?? new.txt\n")), "ef71e55616b3");
 * assertEquals(await fingerprint(bytes(" M a.txt\r\n?? new.txt\r\n")), "ef71e55616b3");
 * assertEquals(await fingerprint(bytes(" M a.txt\n?? new.txt")), "61cb79ae5fd6");
 * ```
 * @param porcelain The exact bytes `git status --porcelain` printed.
 * @returns 12 lowercase hex digits.
 */
export async function fingerprint(porcelain: Uint8Array): Promise<string> {
  return (await sha256Hex(stripCarriageReturns(porcelain))).slice(0, 12);
}
