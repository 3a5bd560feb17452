/**
 * The typed errors of `coord`. The entry point maps each kind to one exit code, in one
 * place ({@linkcode exitCodeFor}).
 *
 * @module
 */

import { isPermissionError, permissionMessage, UsageError } from "../cli.ts";
import { GitError } from "../git_error.ts";

/** Exit code: the command did what was asked. */
export const EXIT_OK = 0;
/** Exit code: the command line is wrong (unknown option, bad id, missing value). */
export const EXIT_USAGE = 2;
/** Exit code: git, the policy (STATUS) or the store could not give an answer. */
export const EXIT_ERROR = 3;
/** Exit code: refused or not found (one code for every refusal, so none is distinguishable). */
export const EXIT_REFUSED = 4;
/** Exit code: `coord wait` saw no message for the caller before its timeout. */
export const EXIT_TIMEOUT = 5;

/** The refusal for every unauthorised, malformed, abbreviated, symbolic or nonexistent artifact. */
export const ARTIFACT_REFUSAL =
  "refused: artifact not available (it does not resolve, or you may not inspect it)";

/** The refusal for a message id that does not exist or that the reader may not see. */
export const MESSAGE_REFUSAL =
  "refused: message not available (it does not exist, or you may not read it)";

/** A mistake in how `coord` was called: exit 2 with a hint to `--help` (the one class all four binaries share). */
export { UsageError };

/** A refusal: the caller may not do or see this, or it does not exist. Exit 4; the message is printed as is. */
export class RefusedError extends Error {
  /** @param message The full line printed on stderr, starting with `refused:`. */
  constructor(message: string) {
    super(message);
    this.name = "RefusedError";
  }
}

/** The canonical STATUS cannot be read or holds a malformed coord line. Exit 3. */
export class PolicyError extends Error {
  /** @param message What is wrong, with the offending line quoted. */
  constructor(message: string) {
    super(message);
    this.name = "PolicyError";
  }
}

/** The message store cannot be read or written, or holds a corrupt record. Exit 3. */
export class StoreError extends Error {
  /** @param message What is wrong. */
  constructor(message: string) {
    super(message);
    this.name = "StoreError";
  }
}

/** `coord wait` reached its timeout with no message waiting for the caller. Exit 5, nothing on stdout. */
export class WaitTimeoutError extends Error {
  /** @param message The full line printed on stderr, starting with `timeout:`. */
  constructor(message: string) {
    super(message);
    this.name = "WaitTimeoutError";
  }
}

/**
 * Map an error to the exit code and the one stderr line the entry point prints.
 *
 * @example Every refusal shares one code
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(exitCodeFor(new RefusedError(ARTIFACT_REFUSAL)).code, 4);
 * assertEquals(exitCodeFor(new UsageError("bad")).line, "error: bad");
 * assertEquals(exitCodeFor(new WaitTimeoutError("timeout: none")).code, 5);
 * ```
 * @param error What was thrown.
 * @returns The exit code and the line for stderr.
 */
export function exitCodeFor(error: unknown): { code: number; line: string; hint: boolean } {
  if (error instanceof UsageError) {
    return { code: EXIT_USAGE, line: `error: ${error.message}`, hint: true };
  }
  if (error instanceof RefusedError) {
    return { code: EXIT_REFUSED, line: error.message, hint: false };
  }
  if (error instanceof WaitTimeoutError) {
    return { code: EXIT_TIMEOUT, line: error.message, hint: false };
  }
  if (error instanceof PolicyError || error instanceof StoreError || error instanceof GitError) {
    return { code: EXIT_ERROR, line: `error: ${error.message}`, hint: false };
  }
  if (isPermissionError(error)) {
    return { code: EXIT_ERROR, line: `error: ${permissionMessage("coord", error)}`, hint: false };
  }
  return { code: EXIT_ERROR, line: `error: Unexpected failure: ${firstLine(error)}`, hint: false };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? "";
}
