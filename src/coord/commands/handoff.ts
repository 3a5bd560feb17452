/**
 * `coord handoff`: hand lanes an exact artifact (commit, path, object id, tree id). The
 * sender's right to inspect the commit is decided before anything about it is looked up;
 * every unavailable artifact gets the one generic refusal.
 *
 * @module
 */
import { gitText } from "../../git.ts";
import { commitTree, pathObject } from "../artifact.ts";
import { ARTIFACT_REFUSAL, RefusedError } from "../errors.ts";
import type { Message, Provenance } from "../message.ts";
import type { Session } from "../session.ts";
import { checkRecipients, now } from "./_common.ts";
import { isFullOid } from "../../git_objects.ts";

/** What `coord handoff` was asked to do. */
export interface HandoffRequest {
  /** The work item. */
  workItem: string;
  /** Recipients. */
  to: string[];
  /** A full commit id, or `HEAD` for the sender's own HEAD. */
  sha: string;
  /** A validated path inside the commit. */
  path: string;
  /** Subject line. */
  subject: string;
  /** Body text. */
  body: string;
  /** Provenance label (default `CLAIMED`). */
  provenance: Provenance;
}

/**
 * Hand off an artifact.
 *
 * @param session The sender's session.
 * @param request What to hand off.
 * @returns The stored message.
 * @throws {RefusedError} with {@linkcode ARTIFACT_REFUSAL} for any artifact the sender may
 * not inspect or that does not resolve; naming a recipient that may not inspect it.
 */
export async function handoff(session: Session, request: HandoffRequest): Promise<Message> {
  checkRecipients(session, request.to);
  const { at, format } = session.repo;
  let commit: string;
  if (request.sha === "HEAD") {
    // The sender's own HEAD, resolved before anything is stored; no caller text reaches git.
    commit = await gitText(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], at).catch(
      () => "",
    );
  } else {
    commit = request.sha;
  }
  // Decide the sender's right to inspect first: only a well-formed full id goes any further.
  if (!isFullOid(commit, format)) throw new RefusedError(ARTIFACT_REFUSAL);
  const { exists, inspect } = await session.inspector([commit]);
  if (!exists(commit) || !inspect(session.lane, commit)) throw new RefusedError(ARTIFACT_REFUSAL);
  for (const lane of request.to) {
    if (!inspect(lane, commit)) {
      throw new RefusedError(
        `refused: lane "${lane}" may not inspect this artifact under the policy at ${session.repo.policyRef}`,
      );
    }
  }
  // Only now is anything about the artifact looked up.
  const [object, tree] = await Promise.all([
    pathObject(at, commit, request.path),
    commitTree(at, commit),
  ]);
  if (object === undefined || tree === undefined) {
    throw new RefusedError(`refused: path "${request.path}" does not exist at ${commit}`);
  }
  return await session.store.append(request.workItem, (id) => ({
    format: "coord-lite/message@1",
    id,
    work_item: request.workItem,
    sender: session.lane,
    to: request.to,
    cc: [],
    type: "HANDOFF",
    subject: request.subject,
    body: request.body,
    reply_to: null,
    forward_of: null,
    provenance: request.provenance,
    time: now(),
    artifact: { commit, path: request.path, object, tree },
  }));
}
