/**
 * `coord ack`: a recipient acknowledges a message it may see, as a separate immutable
 * record. The message is never rewritten; acknowledgement is not acceptance.
 *
 * @module
 */
import { MESSAGE_REFUSAL, RefusedError } from "../errors.ts";
import { formatMessageId, type MessageId } from "../ids.ts";
import type { Session } from "../session.ts";
import { now } from "./_common.ts";
import { corruptError } from "./read.ts";

/**
 * Acknowledge a message.
 *
 * @param session The recipient's session.
 * @param id The message id.
 * @returns True when a new record was written, false when it already existed.
 * @throws {RefusedError} when the message does not exist, is not visible, or is not addressed to the caller.
 * @throws {StoreError} when its record is corrupt.
 */
export async function ack(session: Session, id: MessageId): Promise<boolean> {
  const textId = formatMessageId(id.workItem, id.seq);
  const slot = session.store.readOne(id.workItem, id.seq);
  if (slot === undefined) throw new RefusedError(MESSAGE_REFUSAL);
  if (!slot.ok) throw corruptError(textId, slot.reason);
  const message = slot.message;
  const lookup = (x: string) => {
    const [wi, n] = x.split("-M");
    const s = wi && n ? session.store.readOne(wi, Number(n)) : undefined;
    return s?.ok ? s.message : undefined;
  };
  const visible = await session.visibility(session.lane, [message], lookup);
  if (!visible(message.id)) throw new RefusedError(MESSAGE_REFUSAL);
  if (!message.to.includes(session.lane) && !message.cc.includes(session.lane)) {
    throw new RefusedError(`refused: only a recipient can acknowledge ${textId}`);
  }
  return await session.store.writeAck(id.workItem, {
    format: "coord-lite/ack@1",
    message_id: textId,
    lane: session.lane,
    time: now(),
  });
}
