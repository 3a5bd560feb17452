/**
 * The records `coord` stores: one message, one acknowledgement. Both are zod-strict and
 * validated when written and when read.
 *
 * @module
 */
import { z } from "../_zod.ts";
import { LANE_PATTERN, parseMessageIdOrUndefined, WORK_ITEM_PATTERN } from "./ids.ts";

/** Message types (a type confers no authority). */
export const MESSAGE_TYPES = [
  "NOTE",
  "QUESTION",
  "HANDOFF",
  "REVIEW_REQUEST",
  "REVIEW_RESULT",
  "RELEASE_NOTICE",
  "BLOCKER",
] as const;
/** One message type. */
export type MessageType = typeof MESSAGE_TYPES[number];

/** Epistemic provenance: why a claim is believed (a label, never proof). */
export const PROVENANCES = [
  "DERIVED_INDEPENDENTLY",
  "DERIVED_AFTER_READING",
  "REPRODUCED",
  "COUNTEREXAMPLE_FOUND",
  "COMPUTATIONALLY_CHECKED",
  "LITERATURE_SUPPORTED",
  "PRIMARY_SYNTHESIS",
  "CLAIMED",
] as const;
/** One provenance label. */
export type Provenance = typeof PROVENANCES[number];

// deno-lint-ignore no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const hex = z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/);
const lane = z.string().regex(LANE_PATTERN);
const messageId = z.string().refine(
  (s) => parseMessageIdOrUndefined(s) !== undefined,
  "not a message id",
);

/** The artifact of a handoff: commit, path, the path's object id and the commit's tree id. */
export interface Artifact {
  /** Full commit id. */
  commit: string;
  /** Path inside the commit. */
  path: string;
  /** Object id of the path at the commit (blob or tree). */
  object: string;
  /** The commit's tree id. */
  tree: string;
}

/** One stored message. */
export interface Message {
  /** Record format. */
  format: "coord-lite/message@1";
  /** `E001-M0007`. */
  id: string;
  /** `E001`. */
  work_item: string;
  /** Sending lane. */
  sender: string;
  /** Recipients. */
  to: string[];
  /** Copied recipients. */
  cc: string[];
  /** Message type. */
  type: MessageType;
  /** One-line subject. */
  subject: string;
  /** Body text. */
  body: string;
  /** The message this replies to. */
  reply_to: string | null;
  /** The message this forwards. */
  forward_of: string | null;
  /** Provenance label. */
  provenance: Provenance | null;
  /** UTC ISO-8601 send time. */
  time: string;
  /** The handoff artifact, if any. */
  artifact: Artifact | null;
}

/** Schema of a stored message (strict). */
export const MessageSchema: z.ZodType<Message> = z.object({
  format: z.literal("coord-lite/message@1"),
  id: messageId,
  work_item: z.string().regex(WORK_ITEM_PATTERN),
  sender: lane,
  to: z.array(lane).min(1).max(64),
  cc: z.array(lane).max(64),
  type: z.enum(MESSAGE_TYPES),
  subject: z.string().min(1).max(200).regex(ONE_LINE, "one line, no control characters"),
  body: z.string().max(1024 * 1024),
  reply_to: messageId.nullable(),
  forward_of: messageId.nullable(),
  provenance: z.enum(PROVENANCES).nullable(),
  time: z.iso.datetime(),
  artifact: z.object({
    commit: hex,
    path: z.string().min(1).max(4096),
    object: hex,
    tree: hex,
  }).strict().nullable(),
}).strict();

/** One stored acknowledgement: a separate, immutable record. */
export interface Ack {
  /** Record format. */
  format: "coord-lite/ack@1";
  /** The acknowledged message. */
  message_id: string;
  /** The acknowledging lane. */
  lane: string;
  /** UTC ISO-8601 time. */
  time: string;
}

/** Schema of a stored acknowledgement (strict). */
export const AckSchema: z.ZodType<Ack> = z.object({
  format: z.literal("coord-lite/ack@1"),
  message_id: messageId,
  lane,
  time: z.iso.datetime(),
}).strict();

/**
 * Parse and validate a message record.
 *
 * @example A record that lies about its id is rejected
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseMessage("{}", "E001-M0001").ok, false);
 * ```
 * @param text The file's text.
 * @param expectedId The id its file name gives.
 * @returns The message, or the reason it is corrupt.
 */
export function parseMessage(text: string, expectedId: string): { ok: true; message: Message } | {
  ok: false;
  reason: string;
} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const result = MessageSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    return {
      ok: false,
      reason: `field "${issue?.path.join(".") ?? "?"}": ${issue?.message ?? "invalid"}`,
    };
  }
  if (result.data.id !== expectedId) {
    return { ok: false, reason: `it claims id "${result.data.id}"` };
  }
  if (!result.data.id.startsWith(`${result.data.work_item}-M`)) {
    return { ok: false, reason: `work item "${result.data.work_item}" does not match its id` };
  }
  return { ok: true, message: result.data };
}
