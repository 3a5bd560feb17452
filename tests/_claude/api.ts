/**
 * A scripted stand-in for the Anthropic Messages API on loopback, for driving the real Claude
 * Code CLI offline: every request is logged, and a script decides what the "model" answers.
 *
 * @module
 */
import {
  messageJson,
  type MessagesBody,
  messageSse,
  type Reply,
  replyBlocks,
  type Script,
  type Turn,
  turnOf,
} from "./messages.ts";

/** One request the stand-in received. */
export interface ApiRequest {
  /** Method and path with query, as `POST /v1/messages?beta=true`. */
  route: string;
  /** Whether the reply was streamed (server-sent events). */
  stream: boolean;
  /** The parsed body (an empty object when it was not JSON). */
  body: MessagesBody;
  /** The turn the script was asked about (only for `POST /v1/messages`). */
  turn?: Turn;
  /** What the stand-in answered (only for `POST /v1/messages`). */
  reply?: Reply;
  /** Milliseconds since the server started. */
  at: number;
}

/** A running stand-in. */
export interface Api {
  /** Base URL for `ANTHROPIC_BASE_URL`: `http://127.0.0.1:PORT`. */
  url: string;
  /** Every request so far, in arrival order. */
  requests: ApiRequest[];
  /** What the script threw, one message per failed request (the request got a text reply). */
  errors: string[];
  /** Stop the server; resolves when it has shut down. */
  close(): Promise<void>;
}

/** What an unknown conversation (the script returned undefined) is answered. */
export const UNSCRIPTED_TEXT = "Done.";

/** What a request that is not streamed (a title, a summary) is answered. */
export const WHOLE_TEXT = "Scripted summary";

/**
 * Start the stand-in on 127.0.0.1 with a free port. It answers `POST /v1/messages` (with
 * `?beta=true` or not) from the script: streamed when the body asks for `stream: true`, else
 * as one JSON message (those are never put to the script: they get {@linkcode WHOLE_TEXT}).
 * `POST /v1/messages/count_tokens` gets a count; anything else a 404 error body. Tool-use ids
 * are unique for the server's life.
 *
 * @param script Answers a turn, or undefined for a conversation it does not know.
 * @returns The URL, the request log and `close`.
 * @example One scripted answer
 * ```ts
 * import { assertEquals, assertIncludes } from "../../src/_assert.ts";
 * const api = startApi(({ prompt }) => prompt === "hi" ? { text: "hello" } : undefined);
 * try {
 *   const res = await fetch(`${api.url}/v1/messages?beta=true`, {
 *     method: "POST",
 *     body: JSON.stringify({ stream: true, messages: [{ role: "user", content: "hi" }] }),
 *   });
 *   assertIncludes(await res.text(), '"text":"hello"');
 *   assertEquals(api.requests[0]?.turn?.prompt, "hi");
 * } finally {
 *   await api.close();
 * }
 * ```
 */
export function startApi(script: Script): Api {
  const started = performance.now();
  const requests: ApiRequest[] = [];
  const errors: string[] = [];
  let ids = 0;
  const nextToolId = () => `toolu_tether_${String(++ids).padStart(6, "0")}`;
  const nextMessageId = () => `msg_tether_${String(++ids).padStart(6, "0")}`;

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}${url.search}`;
    const body = await parseBody(request);
    const stream = body.stream === true;
    const entry: ApiRequest = { route, stream, body, at: Math.round(performance.now() - started) };
    requests.push(entry);
    if (request.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
      return Response.json({ input_tokens: 10 });
    }
    if (request.method !== "POST" || url.pathname !== "/v1/messages") {
      return Response.json({
        type: "error",
        error: { type: "not_found_error", message: `No route: ${route}` },
      }, { status: 404 });
    }
    const turn = turnOf(body);
    entry.turn = turn;
    const model = typeof body.model === "string" ? body.model : "scripted";
    if (!stream) {
      entry.reply = { text: WHOLE_TEXT };
      return Response.json(
        messageJson(nextMessageId(), model, replyBlocks(entry.reply, nextToolId)),
      );
    }
    let reply: Reply | undefined;
    try {
      reply = await script(turn);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    entry.reply = reply ?? { text: UNSCRIPTED_TEXT };
    const sse = messageSse(nextMessageId(), model, replyBlocks(entry.reply, nextToolId));
    return new Response(sse, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    errors,
    close: () => closed ??= server.shutdown(),
  };
}

async function parseBody(request: Request): Promise<MessagesBody> {
  const text = await request.text();
  if (text === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed as MessagesBody : {};
  } catch {
    return {};
  }
}
