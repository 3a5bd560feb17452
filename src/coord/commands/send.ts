/**
 * `coord send`: a message to lanes the sender may talk to, optionally replying to or
 * forwarding a message the sender may read. A forward never widens an audience.
 *
 * @module
 */
import { RefusedError, UsageError } from "../errors.ts";
import { type MessageId } from "../ids.ts";
import type { Message, MessageType, Provenance } from "../message.ts";
import type { Session } from "../session.ts";
import { checkRecipients, now, referencedMessage } from "./_common.ts";

/** What `coord send` was asked to do. */
export interface SendRequest {
  /** The work item. */
  workItem: string;
  /** Recipients. */
  to: string[];
  /** Copied recipients. */
  cc: string[];
  /** Message type (not HANDOFF). */
  type: MessageType;
  /** Subject line. */
  subject: string;
  /** Body text. */
  body: string;
  /** The message replied to. */
  replyTo: MessageId | undefined;
  /** The message forwarded. */
  forward: MessageId | undefined;
  /** Provenance label. */
  provenance: Provenance | null;
}

/**
 * Send a message.
 *
 * @param session The sender's session.
 * @param request What to send.
 * @returns The stored message.
 * @throws {UsageError} for an unknown lane or a reference into another work item.
 * @throws {RefusedError} for a closed channel, an unreadable reference or a widening forward.
 */
export async function send(session: Session, request: SendRequest): Promise<Message> {
  if (request.type === "HANDOFF") {
    throw new UsageError('Type "HANDOFF" carries an artifact: use coord handoff');
  }
  const recipients = [...request.to, ...request.cc.filter((c) => !request.to.includes(c))];
  checkRecipients(session, recipients);
  let replyTo: string | null = null;
  let forwardOf: string | null = null;
  if (request.replyTo) {
    replyTo =
      (await referencedMessage(session, request.workItem, request.replyTo, "--reply-to")).target.id;
  }
  if (request.forward) {
    const { target, all } = await referencedMessage(
      session,
      request.workItem,
      request.forward,
      "--forward",
    );
    for (const lane of recipients) {
      const visible = await session.visibility(lane, [target], (x) => all.get(x));
      if (!visible(target.id)) {
        throw new RefusedError(
          `refused: lane "${lane}" may not read ${target.id}; a forward never widens its audience`,
        );
      }
    }
    forwardOf = target.id;
  }
  const cc = request.cc.filter((c) => !request.to.includes(c));
  return await session.store.append(request.workItem, (id) => ({
    format: "coord-lite/message@1",
    id,
    work_item: request.workItem,
    sender: session.lane,
    to: request.to,
    cc,
    type: request.type,
    subject: request.subject,
    body: request.body,
    reply_to: replyTo,
    forward_of: forwardOf,
    provenance: request.provenance,
    time: now(),
    artifact: null,
  }));
}
