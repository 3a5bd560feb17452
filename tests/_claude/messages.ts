/**
 * The Anthropic Messages API as the stand-in sees it: reading a request (which conversation,
 * which step, all of its text) and writing a reply, streamed or whole. Pure functions; the
 * server that uses them is `api.ts`.
 *
 * @module
 */

/** A content block of a request message (only the fields the stand-in reads are typed). */
export interface Block {
  type: string;
  text?: string;
  name?: string;
  input?: unknown;
  content?: string | Block[];
  [field: string]: unknown;
}

/**
 * A message of a request. Claude Code 2.1.328 sends `system` messages inside `messages` too
 * (the environment, hook context such as `SubagentStart hook additional context: …`).
 */
export interface Message {
  role: "user" | "assistant" | "system";
  content: string | Block[];
}

/** The body of `POST /v1/messages` (the fields the stand-in reads). */
export interface MessagesBody {
  model?: string;
  system?: string | Block[];
  messages?: Message[];
  stream?: boolean;
  tools?: { name: string }[];
  [field: string]: unknown;
}

/** What a script is asked about one request. */
export interface Turn {
  /** The last text block of the conversation's first user message: `-p` or `Agent` prompt. */
  prompt: string;
  /** How many assistant messages the request already holds: 0 for the first answer. */
  step: number;
  /** The request body as sent. */
  body: MessagesBody;
  /** All text of the request: system, messages, tool inputs and tool results. */
  text: string;
}

/** A tool call the scripted model makes. */
export interface ToolCall {
  name: string;
  input: unknown;
}

/** The scripted model's answer: text, tool calls (stop reason `tool_use`), or both. */
export interface Reply {
  text?: string;
  tools?: ToolCall[];
}

/**
 * A script: the answer for one request, or undefined for a conversation it does not know (the
 * stand-in then ends that conversation with a plain text reply). It may answer later (a
 * promise) to hold one conversation until another has reached a given step.
 */
export type Script = (turn: Turn) => Reply | undefined | Promise<Reply | undefined>;

/**
 * The text blocks of a content, in order.
 *
 * @param content A message's content.
 * @returns Its text blocks' text (a string content is one block).
 * @example Strings and blocks
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * assertEquals(textBlocks("hi"), ["hi"]);
 * assertEquals(textBlocks([{ type: "text", text: "a" }, { type: "image" }]), ["a"]);
 * ```
 */
export function textBlocks(content: string | Block[] | undefined): string[] {
  if (content === undefined) return [];
  if (typeof content === "string") return [content];
  return content.flatMap((b) => b.type === "text" && typeof b.text === "string" ? [b.text] : []);
}

/**
 * The conversation's prompt: the last text block of its first user message.
 *
 * @param body A request body.
 * @returns The prompt, or "" when there is none.
 * @example Claude Code puts reminders before the prompt
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * const body = {
 *   messages: [{
 *     role: "user" as const,
 *     content: [{ type: "text", text: "<system-reminder>…</system-reminder>" }, {
 *       type: "text",
 *       text: "PARENT-TASK",
 *     }],
 *   }],
 * };
 * assertEquals(conversationPrompt(body), "PARENT-TASK");
 * ```
 */
export function conversationPrompt(body: MessagesBody): string {
  const first = (body.messages ?? []).find((m) => m.role === "user");
  return textBlocks(first?.content).at(-1) ?? "";
}

/**
 * Which step of a scripted story a request asks for.
 *
 * @param body A request body.
 * @returns The number of assistant messages it already holds.
 * @example Two answers given
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * const m = (role: "user" | "assistant") => ({ role, content: "x" });
 * assertEquals(conversationStep({ messages: [m("user"), m("assistant"), m("user"), m("assistant"), m("user")] }), 2);
 * ```
 */
export function conversationStep(body: MessagesBody): number {
  return (body.messages ?? []).filter((m) => m.role === "assistant").length;
}

/**
 * All text of a request, for scripts and assertions that look for something anywhere in it
 * (a block a hook injected, a tool's output): system, then each message's text blocks, tool
 * inputs (as JSON) and tool results, one per line.
 *
 * @param body A request body.
 * @returns The text.
 * @example A tool result counts
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * const body = {
 *   system: [{ type: "text", text: "SYS" }],
 *   messages: [{
 *     role: "user" as const,
 *     content: [{ type: "tool_result", content: [{ type: "text", text: "abc123" }] }],
 *   }],
 * };
 * assertEquals(requestText(body), "SYS\nabc123");
 * ```
 */
export function requestText(body: MessagesBody): string {
  const parts: string[] = [...textBlocks(body.system)];
  const walk = (content: string | Block[] | undefined): void => {
    if (content === undefined) return;
    if (typeof content === "string") return void parts.push(content);
    for (const block of content) {
      if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
      else if (block.type === "tool_use") parts.push(JSON.stringify(block.input ?? {}));
      else if (block.type === "tool_result") walk(block.content);
    }
  };
  for (const message of body.messages ?? []) walk(message.content);
  return parts.join("\n");
}

/**
 * The results of the tool calls a request answers: the `tool_result` blocks of its last user
 * message, as text (an empty output reads as Claude Code reports it:
 * `(Bash completed with no output)`).
 *
 * @param body A request body.
 * @returns One text per result, in order.
 * @example
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * const body = {
 *   messages: [{ role: "user" as const, content: [{ type: "tool_result", content: "abc\n" }] }],
 * };
 * assertEquals(toolResults(body), ["abc\n"]);
 * ```
 */
export function toolResults(body: MessagesBody): string[] {
  const last = (body.messages ?? []).findLast((m) => m.role === "user");
  if (last === undefined || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result").map((b) =>
    typeof b.content === "string" ? b.content : textBlocks(b.content).join("\n")
  );
}

/**
 * The text of each `system` message inside `messages` (where Claude Code puts hook context
 * for a child's start, a tool's result and a notification prompt), in order.
 *
 * @param body A request body.
 * @returns One text per message (its blocks joined).
 */
export function systemMessages(body: MessagesBody): string[] {
  return (body.messages ?? []).filter((m) => m.role === "system").map((m) =>
    textBlocks(m.content).join("\n")
  );
}

/**
 * The turn a script is asked about.
 *
 * @param body A request body.
 * @returns prompt, step, body and text.
 */
export function turnOf(body: MessagesBody): Turn {
  return {
    prompt: conversationPrompt(body),
    step: conversationStep(body),
    body,
    text: requestText(body),
  };
}

/** A reply's content blocks with their tool-use ids assigned. */
export type ReplyBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/**
 * The content blocks of a reply: its text (if any), then its tool calls.
 *
 * @param reply The scripted reply.
 * @param nextId Gives each tool call its id.
 * @returns The blocks (never empty: an empty reply is one empty text block).
 */
export function replyBlocks(reply: Reply, nextId: () => string): ReplyBlock[] {
  const blocks: ReplyBlock[] = [];
  if (reply.text !== undefined && reply.text !== "") {
    blocks.push({ type: "text", text: reply.text });
  }
  for (const tool of reply.tools ?? []) {
    blocks.push({ type: "tool_use", id: nextId(), name: tool.name, input: tool.input });
  }
  if (blocks.length === 0) blocks.push({ type: "text", text: "" });
  return blocks;
}

const USAGE = {
  input_tokens: 10,
  output_tokens: 10,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function stopReason(blocks: ReplyBlock[]): "tool_use" | "end_turn" {
  return blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

/**
 * A whole (non-streaming) Messages API response.
 *
 * @param id The message id.
 * @param model The model the request named.
 * @param blocks The content.
 * @returns The response body.
 */
export function messageJson(id: string, model: string, blocks: ReplyBlock[]): unknown {
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content: blocks,
    stop_reason: stopReason(blocks),
    stop_sequence: null,
    usage: USAGE,
  };
}

/**
 * A streamed Messages API response as server-sent events: `message_start`, per block
 * `content_block_start` / `content_block_delta` (`text_delta` or `input_json_delta`) /
 * `content_block_stop`, then `message_delta` with the stop reason and `message_stop`.
 *
 * @param id The message id.
 * @param model The model the request named.
 * @param blocks The content.
 * @returns The event stream's text.
 * @example A tool call ends with stop reason tool_use
 * ```ts
 * import { assertIncludes } from "../../src/_assert.ts";
 * const sse = messageSse("msg_1", "m", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }]);
 * assertIncludes(sse, '"partial_json":"{\\"command\\":\\"ls\\"}"');
 * assertIncludes(sse, '"stop_reason":"tool_use"');
 * ```
 */
export function messageSse(id: string, model: string, blocks: ReplyBlock[]): string {
  const events: [string, unknown][] = [[
    "message_start",
    {
      type: "message_start",
      message: { ...(messageJson(id, model, []) as object), stop_reason: null, usage: USAGE },
    },
  ]];
  blocks.forEach((block, index) => {
    const start = block.type === "text"
      ? { type: "text", text: "" }
      : { type: "tool_use", id: block.id, name: block.name, input: {} };
    const delta = block.type === "text"
      ? { type: "text_delta", text: block.text }
      : { type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) };
    events.push(["content_block_start", {
      type: "content_block_start",
      index,
      content_block: start,
    }]);
    events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason(blocks), stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
}
