/**
 * `coord inbox`: the messages of a work item the caller may see today, one a line.
 *
 * @module
 */
import type { Message } from "../message.ts";
import type { Session } from "../session.ts";
import { cutLine, LINE_COLUMNS } from "../terminal.ts";
import type { StoredMessage } from "../store.ts";

/** One inbox line. */
export interface InboxEntry {
  /** Message id. */
  id: string;
  /** Sending lane. */
  sender: string;
  /** Recipients. */
  to: string[];
  /** Copied recipients. */
  cc: string[];
  /** Message type. */
  type: string;
  /** `SENT` or `ACKNOWLEDGED` from the caller's side. */
  state: "SENT" | "ACKNOWLEDGED";
  /** Subject. */
  subject: string;
  /** Send time. */
  time: string;
}

/** What `coord inbox` found. */
export interface Inbox {
  /** The work item. */
  work_item: string;
  /** The caller's lane. */
  lane: string;
  /** Visible messages in number order. */
  messages: InboxEntry[];
  /** Records that failed validation, by id (they hide nothing else; a missing one ends the sequence). */
  corrupt: { id: string; reason: string }[];
}

/**
 * A message's state from a lane's side: a recipient's own acknowledgement, or, for the
 * sender, every recipient's.
 *
 * @param message The message.
 * @param lane The lane asking.
 * @param acks Message id → lanes that acknowledged.
 * @returns `SENT` or `ACKNOWLEDGED`.
 */
export function stateFor(
  message: Message,
  lane: string,
  acks: ReadonlyMap<string, ReadonlySet<string>>,
): "SENT" | "ACKNOWLEDGED" {
  const done = acks.get(message.id);
  if (message.to.includes(lane) || message.cc.includes(lane)) {
    return done?.has(lane) ? "ACKNOWLEDGED" : "SENT";
  }
  const all = [...message.to, ...message.cc];
  return all.every((r) => done?.has(r)) ? "ACKNOWLEDGED" : "SENT";
}

/**
 * List the caller's visible messages of a work item.
 *
 * @param session The caller's session.
 * @param workItem The work item.
 * @param unackedOnly Only messages addressed to the caller that it has not acknowledged.
 * @param slots The work item's records (by default read from the store now; `wait` passes
 * its own, which keeps the immutable records it already parsed).
 * @returns The inbox.
 */
export async function inbox(
  session: Session,
  workItem: string,
  unackedOnly: boolean,
  slots: readonly StoredMessage[] = session.store.readAll(workItem),
): Promise<Inbox> {
  const lane = session.lane;
  const byId = new Map<string, Message>();
  const corrupt: Inbox["corrupt"] = [];
  for (const slot of slots) {
    if (slot.ok) byId.set(slot.id, slot.message);
    else corrupt.push({ id: slot.id, reason: slot.reason });
  }
  const mine = [...byId.values()].filter((m) =>
    m.sender === lane || m.to.includes(lane) || m.cc.includes(lane)
  );
  const visible = await session.visibility(lane, mine, (id) => byId.get(id));
  const shown = mine.filter((m) => visible(m.id)); // GUARD:inbox-visibility (inbox, wait)
  const relevant = new Set(shown.map((m) => m.id));
  const { acks } = session.store.readAcks(
    workItem,
    (id, by) => relevant.has(id) && (by === lane || byId.get(id)?.sender === lane),
  );
  const messages: InboxEntry[] = [];
  for (const m of shown) {
    const state = stateFor(m, lane, acks);
    const addressed = m.to.includes(lane) || m.cc.includes(lane);
    if (unackedOnly && (!addressed || state === "ACKNOWLEDGED")) continue;
    messages.push({
      id: m.id,
      sender: m.sender,
      to: m.to,
      cc: m.cc,
      type: m.type,
      state,
      subject: m.subject,
      time: m.time,
    });
  }
  return { work_item: workItem, lane, messages, corrupt };
}

/**
 * Render an inbox as text: one message a line (id, sender, type, state, subject, the
 * subject's control characters escaped), each line cut with `…` at
 * {@linkcode LINE_COLUMNS} display columns so that no subject wraps onto a line of its own.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const entry = { id: "E001-M0001", sender: "W1", to: ["Primary"], cc: [], type: "NOTE", state: "SENT" as const, subject: "hi", time: "" };
 * assertEquals(renderInbox({ work_item: "E001", lane: "Primary", messages: [entry], corrupt: [] }),
 *   "E001-M0001  W1         NOTE            SENT          hi\n");
 * ```
 * @param inbox The inbox.
 * @returns The text for stdout.
 */
export function renderInbox(inbox: Inbox): string {
  return inbox.messages.map((m) => {
    const row = `${m.id}  ${m.sender.padEnd(9)}  ${m.type.padEnd(14)}  ${
      m.state.padEnd(12)
    }  ${m.subject}`;
    return `${cutLine(row, LINE_COLUMNS)}\n`; // GUARD:cut-inbox-row
  }).join("");
}
