/** What the wire server's API shapes (OpenAI Chat, Anthropic) render: an answer, as JSON or SSE. */

export interface WireToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** A model answer, rendered in the server's API shape, streamed or not. */
export interface WireAnswer {
  kind: "answer";
  text?: string;
  reasoning?: string;
  toolCalls?: WireToolCall[];
  /** `cacheRead` / `cacheWrite`: input tokens the provider's prompt cache served or stored. */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Streaming only: after this many text pieces, fail with `breakWith` instead of finishing. */
  breakAfter?: number;
  breakWith?: "malformed" | Record<string, unknown>;
}

export interface SseWriter {
  event(data: unknown, name?: string): void;
  raw(line: string): void;
}

export interface ShapeRenderer {
  json(answer: WireAnswer, body: Record<string, any>): unknown;
  sse(answer: WireAnswer, body: Record<string, any>, writer: SseWriter): void;
}

/** The pieces an SSE answer is cut into, so assembling them is really exercised. */
export function pieces(text: string, count = 3): string[] {
  if (text.length <= 1) return text ? [text] : [];
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}
