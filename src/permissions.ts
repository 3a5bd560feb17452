/**
 * The exact Deno permission flags each binary runs with. One table: the compile task,
 * the tests and the README all use it, so a permission a binary lacks fails a test.
 *
 * @module
 */

/** The binaries tether ships, by entry-point name. */
export type BinaryName = "handshake" | "verify" | "gate" | "coord" | "tether";

/** Binary → exact flags. No binary ever gets `--allow-net`. */
export const PERMISSIONS: Readonly<Record<BinaryName, readonly string[]>> = {
  handshake: ["--allow-run=git"],
  verify: ["--allow-run=git"],
  gate: ["--allow-run=git"],
  coord: ["--allow-run=git", "--allow-read", "--allow-write"],
  tether: ["--allow-run=git"],
};
