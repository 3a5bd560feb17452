/**
 * `coord read`: one message the caller may see, headers then body; a handoff's artifact
 * is re-resolved and any change or loss is said plainly.
 *
 * @module
 */
import { type ArtifactCheck, checkArtifact } from "../artifact.ts";
import { MESSAGE_REFUSAL, RefusedError, StoreError } from "../errors.ts";
import { formatMessageId, type MessageId } from "../ids.ts";
import type { Message } from "../message.ts";
import type { Session } from "../session.ts";
import { cutLine, escapeLine, foldLine, frameBody, LINE_COLUMNS } from "../terminal.ts";
import { stateFor } from "./inbox.ts";

/** What `coord read` shows. */
export interface ReadResult {
  /** The message (its `reply_to` is null when the reader may not read the parent). */
  message: Message;
  /** `SENT` or `ACKNOWLEDGED` from the reader's side. */
  state: "SENT" | "ACKNOWLEDGED";
  /** Lanes that acknowledged (shown to the sender only). */
  acknowledged_by: string[];
  /** The re-check of a handoff's artifact. */
  artifact_check: ArtifactCheck | null;
  /** The forwarded original, when this is a forward (its `reply_to` hidden as the message's is). */
  forwarded: Message | null;
}

/**
 * Read a message.
 *
 * @param session The reader's session.
 * @param id The message id.
 * @returns What to show.
 * @throws {RefusedError} with {@linkcode MESSAGE_REFUSAL} when it does not exist or is not visible.
 * @throws {StoreError} when its record is corrupt.
 */
export async function read(session: Session, id: MessageId): Promise<ReadResult> {
  const cache = new Map<string, Message | undefined>();
  const lookup = (x: string): Message | undefined => {
    if (cache.has(x)) return cache.get(x);
    const [wi, n] = x.split("-M");
    const slot = wi && n ? session.store.readOne(wi, Number(n)) : undefined;
    const m = slot?.ok ? slot.message : undefined;
    cache.set(x, m);
    return m;
  };
  const textId = formatMessageId(id.workItem, id.seq);
  const slot = session.store.readOne(id.workItem, id.seq);
  if (slot === undefined) throw new RefusedError(MESSAGE_REFUSAL);
  if (!slot.ok) throw corruptError(textId, slot.reason);
  const message = slot.message;
  const original = message.forward_of === null ? undefined : lookup(message.forward_of);
  // Everything shown, and the parents their `reply-to` would name.
  const shownMessages = original ? [message, original] : [message];
  const parents = shownMessages.flatMap((m) => {
    const p = m.reply_to === null ? undefined : lookup(m.reply_to);
    return p ? [p] : [];
  });
  const visible = await session.visibility(session.lane, [...shownMessages, ...parents], lookup);
  if (!visible(message.id)) throw new RefusedError(MESSAGE_REFUSAL);
  // A reply shows its parent only to readers who may read the parent, forwarded or not.
  const withParent = (m: Message): Message => ({
    ...m,
    reply_to: m.reply_to !== null && lookup(m.reply_to) && visible(m.reply_to) ? m.reply_to : null,
  });
  const shown = withParent(message);
  const { acks } = session.store.readAcks(id.workItem, (m) => m === message.id);
  const state = stateFor(message, session.lane, acks);
  const acknowledgedBy = message.sender === session.lane
    ? [...(acks.get(message.id) ?? [])].sort()
    : [];
  const artifactCheck = message.artifact
    ? await checkArtifact(session.repo.at, message.artifact)
    : null;
  // The original is visible whenever the forward is (a forward's visibility requires it).
  const forwarded = original && visible(original.id) ? withParent(original) : null;
  return {
    message: shown,
    state,
    acknowledged_by: acknowledgedBy,
    artifact_check: artifactCheck,
    forwarded,
  };
}

const OBJECT_ID_HEADER = /^artifact-(commit|object|tree): [0-9a-f]+$/;

/**
 * The error for a corrupt record read by id: one line that fits a terminal (its reason can
 * hold a lane's text, such as a key of the record, so it is escaped and cut).
 *
 * @param textId The message id.
 * @param reason Why the record is corrupt.
 * @returns The error.
 */
export function corruptError(textId: string, reason: string): StoreError {
  const width = LINE_COLUMNS - "error: ".length;
  return new StoreError(cutLine(`Message ${textId} is corrupt: ${reason}`, width)); // GUARD:cut-error
}

/**
 * Render a message as headers, a blank line, then the body framed by
 * {@linkcode frameBody}: every body line a person sees starts with `| ` (long lines are
 * wrapped under the frame), so no body line can pass for a header or a forwarded section,
 * and control characters anywhere are shown escaped. A header wider than
 * {@linkcode LINE_COLUMNS} continues on lines indented by two spaces.
 *
 * @example
 * ```ts
 * import { assertIncludes } from "../../_assert.ts";
 * const message = {
 *   format: "coord-lite/message@1" as const, id: "E001-M0001", work_item: "E001", sender: "W1", to: ["Primary"],
 *   cc: [], type: "NOTE" as const, subject: "hi", body: "text\nfrom: Primary\n", reply_to: null, forward_of: null,
 *   provenance: null, time: "2026-01-01T00:00:00.000Z", artifact: null,
 * };
 * assertIncludes(renderMessage(message, "SENT"), "from: W1\n");
 * assertIncludes(renderMessage(message, "SENT"), "\n\n| text\n| from: Primary\n");
 * ```
 * @param message The message.
 * @param state The reader's state of it.
 * @param extra Lines to add after the headers (already escaped).
 * @returns The headers and body.
 */
export function renderMessage(
  message: Message,
  state: string | undefined,
  extra: readonly string[] = [],
): string {
  const lines = [
    `id: ${message.id}`,
    `work-item: ${message.work_item}`,
    `from: ${message.sender}`,
    `to: ${message.to.join(", ")}`,
  ];
  if (message.cc.length > 0) lines.push(`cc: ${message.cc.join(", ")}`);
  lines.push(`type: ${message.type}`, `subject: ${escapeLine(message.subject)}`);
  if (message.provenance) lines.push(`provenance: ${message.provenance}`);
  lines.push(`time: ${message.time}`);
  if (message.reply_to) lines.push(`reply-to: ${message.reply_to}`);
  if (message.forward_of) lines.push(`forward-of: ${message.forward_of}`);
  if (state) lines.push(`state: ${state}`);
  if (message.artifact) {
    lines.push(
      `artifact-commit: ${message.artifact.commit}`,
      `artifact-path: ${escapeLine(message.artifact.path)}`,
      `artifact-object: ${message.artifact.object}`,
      `artifact-tree: ${message.artifact.tree}`,
    );
  }
  lines.push(...extra);
  // A header wider than a terminal continues on indented lines: none of its text starts a
  // line. An object id is coord's own text and stays whole (a SHA-256 line is 81 columns).
  const shown = lines.map((line) => OBJECT_ID_HEADER.test(line) ? line : foldLine(line));
  return `${shown.join("\n")}\n\n${frameBody(message.body)}`;
}

/**
 * Render a read result for a person: the message, then coord's own
 * `----- forwarded message -----` line and the forwarded original, each body framed.
 *
 * @param result What {@linkcode read} returned.
 * @returns The text for stdout.
 */
export function renderRead(result: ReadResult): string {
  const extra: string[] = [];
  if (result.acknowledged_by.length > 0) {
    extra.push(`acknowledged-by: ${result.acknowledged_by.join(", ")}`);
  }
  if (result.artifact_check) {
    const label = { ok: "ok", changed: "CHANGED", gone: "GONE" }[result.artifact_check.status];
    for (const note of result.artifact_check.notes) {
      extra.push(`artifact-check: ${label}: ${escapeLine(note)}`);
    }
  }
  let text = renderMessage(result.message, result.state, extra);
  if (result.forwarded) {
    text += `\n----- forwarded message -----\n${renderMessage(result.forwarded, undefined)}`;
  }
  return text;
}
