/**
 * `toUIMessageStreamResponse(agent.stream(…))`: the one line of a Next.js or Hono route that
 * serves a `useChat` front end — a `Response` of the UI message stream as Server-Sent Events
 * (`data: <chunk JSON>` per chunk, `data: [DONE]` last) with the protocol's headers.
 */
import type { AgentEvent } from "../loop/run-result.js";
import { type ToUIMessageStreamOptions, toUIMessageStream } from "./to-ui-message-stream.js";
import { UI_MESSAGE_STREAM_HEADERS } from "./ui-message-chunk.js";

export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  status?: number;
  statusText?: string;
  /** Added to (and overriding) the protocol's headers. */
  headers?: Record<string, string>;
}

/** The UI message stream as SSE text: what goes on the wire. */
export function toUIMessageSseStream(
  events: AsyncIterable<AgentEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<string> {
  return toUIMessageStream(events, options).pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(`data: ${JSON.stringify(chunk)}\n\n`);
      },
      flush(controller) {
        controller.enqueue("data: [DONE]\n\n");
      },
    }),
  );
}

export function toUIMessageStreamResponse(
  events: AsyncIterable<AgentEvent>,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  const { status, statusText, headers, ...streamOptions } = options;
  return new Response(toUIMessageSseStream(events, streamOptions).pipeThrough(new TextEncoderStream()), {
    status: status ?? 200,
    ...(statusText !== undefined ? { statusText } : {}),
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...headers },
  });
}
