/**
 * The child's claims (`files_changed`) and the files its evidence cites, as the paths gate
 * judges them by. Pure.
 *
 * @module
 */
import type { SubagentResult } from "../contract/schemas.ts";
import { canonicalClaim } from "./changes.ts";
import { evidencePath } from "./evidence.ts";

/** The paths a result names, and the claims refused. */
export interface Claims {
  /** The claimed paths, canonical; a refused claim is not among them. */
  claimed: string[];
  /** The paths file evidence cites, where each is a path inside the tree. */
  evidencePaths: string[];
  /** Why claims were refused, one sentence each. */
  reasons: string[];
}

/** A message as the tail of a reason: its first letter in lower case ("Path is …" → "path is …"). */
function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0]!.toLowerCase() + message.slice(1) : message;
}

/**
 * Read the claims and the file evidence of a result. With `--since` every claim is read as
 * a path: one that is not a path inside the tree (outside it, inside `.git`, a NUL) is a
 * reason of its own and is never handed to git.
 *
 * @example A claim outside the tree is refused with `--since` only
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const result = { files_changed: ["./src/a.ts", "../x"], evidence: [] };
 * assertEquals(readClaims(result, undefined).claimed, ["src/a.ts", "../x"]);
 * const checked = readClaims(result, "a".repeat(40));
 * assertEquals([checked.claimed, checked.reasons.length], [["src/a.ts"], 1]);
 * ```
 * @param result The child's result, when it keeps the contract.
 * @param since The snapshot id (`--since`), when given.
 * @returns The claims.
 */
export function readClaims(
  result: Pick<SubagentResult, "files_changed" | "evidence"> | undefined,
  since: string | undefined,
): Claims {
  const claimChecks = (result?.files_changed ?? []).map((c) =>
    [c, since === undefined ? canonicalClaim(c) : evidencePath(c)] as const
  );
  const badClaims = claimChecks.filter(([, p]) => p instanceof Error); // tether:guard pb-claim-checked
  const reasons = badClaims.map(([, e]) =>
    `Claimed path refused: ${lowerFirst((e as Error).message)}`
  );
  const claimed = claimChecks.flatMap(([, p]) => typeof p === "string" ? [canonicalClaim(p)] : []);
  const evidencePaths = (result?.evidence ?? []).filter((e) => e.kind === "file").map((e) =>
    evidencePath(e.ref)
  ).filter((p): p is string => typeof p === "string");
  return { claimed, evidencePaths, reasons };
}
