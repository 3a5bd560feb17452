/**
 * What the send-side commands share: recipient and channel checks, and finding a message
 * the sender may read.
 *
 * @module
 */
import { MESSAGE_REFUSAL, RefusedError, UsageError } from "../errors.ts";
import { clip, type MessageId } from "../ids.ts";
import type { Message } from "../message.ts";
import type { Session } from "../session.ts";
import { channelAllowed } from "../visibility.ts";

/**
 * Check that every recipient is a lane and that the sender may talk to each of them today.
 *
 * @param session The sender's session.
 * @param recipients Lane names from `--to` and `--cc`.
 * @throws {UsageError} when a name is no lane in STATUS.
 * @throws {RefusedError} when a channel is closed.
 */
export function checkRecipients(session: Session, recipients: readonly string[]): void {
  const { policy, policyRef } = session.repo;
  for (const lane of recipients) {
    if (!policy.lanes.has(lane)) {
      throw new UsageError(
        `Unknown lane: "${clip(lane)}" (STATUS at ${policyRef} declares it not)`,
      );
    }
  }
  for (const lane of recipients) {
    if (!channelAllowed(policy, session.lane, lane)) {
      throw new RefusedError(
        `refused: lane "${session.lane}" may not message lane "${lane}" under the policy at ${policyRef}`,
      );
    }
  }
}

/**
 * Read a referenced message of the same work item, or refuse exactly as for a missing one.
 *
 * @param session The caller's session.
 * @param workItem The work item being written to.
 * @param id The referenced id.
 * @param option The option that named it, for the usage error.
 * @returns Every message of the work item (for visibility of forward chains) and the target.
 * @throws {UsageError} when the id belongs to another work item.
 * @throws {RefusedError} when it does not exist or the caller may not read it.
 */
export async function referencedMessage(
  session: Session,
  workItem: string,
  id: MessageId,
  option: string,
): Promise<{ target: Message; all: Map<string, Message> }> {
  if (id.workItem !== workItem) {
    throw new UsageError(
      `${option} names a message of work item "${id.workItem}", not "${workItem}"`,
    );
  }
  const all = new Map<string, Message>();
  for (const slot of session.store.readAll(workItem)) if (slot.ok) all.set(slot.id, slot.message);
  const target = [...all.values()].find((m) =>
    m.id === `${id.workItem}-M${String(id.seq).padStart(4, "0")}`
  );
  if (!target) throw new RefusedError(MESSAGE_REFUSAL);
  const visible = await session.visibility(session.lane, [target], (x) => all.get(x));
  if (!visible(target.id)) throw new RefusedError(MESSAGE_REFUSAL);
  return { target, all };
}

/**
 * The current time as UTC ISO-8601.
 *
 * @returns For example `2026-11-29T20:15:00.123Z`.
 */
export function now(): string {
  return new Date().toISOString();
}
