/**
 * Working-context capture at spawn (seed 004). Placeholder until the working-context
 * capability lands: the interface `handshake --context` calls.
 *
 * @module
 */

/** What the parent asks for. */
export interface ContextRequest {
  /** Recent files the parent names (`--recent`). */
  recent: string[];
  /** `public` suppresses path and git context entirely. */
  audience: "private" | "public";
}

/** The rendered block, the snapshot and the id of its stored blob. */
export interface ContextResult {
  /** The `[working-context]` … `[/working-context]` text. */
  block: string;
  /** The snapshot as JSON-ready data. */
  context: Record<string, unknown>;
  /** The git blob id holding the full snapshot, or null when none was stored. */
  snapshotId: string | null;
}

/**
 * Capture the working context of the current directory.
 *
 * @param _request Recent files and audience.
 * @returns The block, snapshot and snapshot id.
 * @throws {Error} always, until implemented.
 */
export function captureWorkingContext(_request: ContextRequest): Promise<ContextResult> {
  return Promise.reject(new Error("Working context is not implemented yet"));
}
