/**
 * tether: keep coding subagents grounded in the working tree their parent meant, check
 * what they return, and let agents in separate worktrees hand work to each other.
 *
 * The binaries (`handshake.ts`, `verify.ts`, `gate.ts`, `coord.ts`) are thin entry points
 * over this library.
 *
 * @example Build a block and read it back
 * ```ts
 * import { buildBlock, parseBlock } from "./mod.ts";
 * import { assertEquals } from "./src/_assert.ts";
 * const handshake = {
 *   parent_head: "0".repeat(40), parent_branch: "main", parent_cwd: "/repo",
 *   parent_dirty_fingerprint: "e3b0c44298fc", workspace_mode: "shared" as const,
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z",
 * };
 * assertEquals(parseBlock(buildBlock(handshake)), { kind: "block", handshake });
 * ```
 *
 * @module
 */

// Handshake and verify (seed 000).
export {
  buildBlock,
  CLOSE,
  normalisePrompt,
  OPEN,
  parseBlock,
  type ParseResult,
} from "./src/handshake/block.ts";
export {
  FIELD_NAMES,
  FieldError,
  type FieldName,
  type Handshake,
  TREE_FIELDS,
  type TreeField,
  type TreeState,
  validateField,
  validateHandshake,
} from "./src/handshake/fields.ts";
export { fingerprint, sha256Hex } from "./src/handshake/fingerprint.ts";
export {
  DIVERGENCE_TEMPLATE,
  divergenceFinding,
  UNVERIFIED_TAG,
  unverifiedText,
  verifiedLine,
} from "./src/handshake/finding.ts";
export { canonicalCwd, nativeCwd, type PathOs, styleCwd } from "./src/handshake/cwd.ts";
export { captureLive, type CaptureOptions, type LiveTree } from "./src/handshake/capture.ts";
export {
  captureHandshake,
  handshakeBlock,
  type HandshakeOptions,
} from "./src/handshake/library.ts";
export {
  diverge,
  type Verdict,
  verifyLive,
  type VerifyOptions,
  type VerifyStatus,
} from "./src/handshake/verification.ts";
export { formatIssuedAt, issuedAtNow, parseDuration } from "./src/time.ts";

// The one git runner.
export { gitText, runGit } from "./src/git.ts";
export { GitError, type GitErrorKind } from "./src/git_error.ts";
export { isFullOid, type ObjectFormat } from "./src/git_objects.ts";
export { type BinaryName, PERMISSIONS } from "./src/permissions.ts";

// Working context (seed 004).
export {
  captureWorkingContext,
  type ContextRequest,
  type ContextResult,
} from "./src/context/capture.ts";
export type { GitSnapshot, WorkingContextSnapshot } from "./src/context/snapshot.ts";
export { type Remote, stripCredentials } from "./src/context/remote.ts";
export type { StatusCounts, StatusEntry } from "./src/context/porcelain.ts";
export { renderBlock as renderWorkingContext } from "./src/context/render.ts";

// Contracts and the evidence gate (seed 001).
export * from "./src/contract/mod.ts";
export { evaluate as evaluateResult, type GateOptions } from "./src/gate/evaluate.ts";
export type { GateReport } from "./src/gate/verdict.ts";
export { type ChangeReport, classifyChanges } from "./src/gate/changes.ts";
export type { CheckedEvidence, EvidenceStatus } from "./src/gate/evidence.ts";
export { GateError } from "./src/gate/repo.ts";

// Inter-worktree messaging (seed 003), as a namespace: coord.parsePolicy, coord.channelAllowed, …
export * as coord from "./src/coord/mod.ts";
