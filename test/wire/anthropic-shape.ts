/**
 * Anthropic Messages on the wire: a `message` JSON body, or the SSE sequence message_start →
 * content_block_start / _delta (thinking_delta, text_delta, input_json_delta) / _stop →
 * message_delta (stop_reason, usage) → message_stop; a failure is an `error` event.
 */
import { pieces, type ShapeRenderer, type SseWriter, type WireAnswer } from "./wire-shape.js";

function stopReason(answer: WireAnswer): string {
  return answer.toolCalls?.length ? "tool_use" : "end_turn";
}

function usageOf(answer: WireAnswer) {
  return answer.usage ?? { input: 11, output: 7 };
}

/** Anthropic's input usage: `input_tokens` excludes what the cache served or stored. */
function inputUsage(usage: NonNullable<WireAnswer["usage"]>) {
  if (usage.cacheRead === undefined && usage.cacheWrite === undefined) return { input_tokens: usage.input };
  return {
    input_tokens: usage.input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0),
    cache_read_input_tokens: usage.cacheRead ?? 0,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
  };
}

export const renderAnthropic: ShapeRenderer = {
  json(answer, body) {
    const content: unknown[] = [];
    if (answer.reasoning) content.push({ type: "thinking", thinking: answer.reasoning, signature: "sig" });
    if (answer.text) content.push({ type: "text", text: answer.text });
    for (const call of answer.toolCalls ?? [])
      content.push({ type: "tool_use", id: call.id, name: call.name, input: call.args });
    const usage = usageOf(answer);
    return {
      id: "msg_wire",
      type: "message",
      role: "assistant",
      model: body.model,
      content,
      stop_reason: stopReason(answer),
      stop_sequence: null,
      usage: { ...inputUsage(usage), output_tokens: usage.output },
    };
  },

  sse(answer, body, writer) {
    const usage = usageOf(answer);
    writer.event(
      {
        type: "message_start",
        message: {
          id: "msg_wire",
          type: "message",
          role: "assistant",
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...inputUsage(usage), output_tokens: 1 },
        },
      },
      "message_start",
    );
    let index = 0;
    if (answer.reasoning) {
      block(writer, index++, { type: "thinking", thinking: "" }, [
        ...pieces(answer.reasoning).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: "sig" },
      ]);
    }
    if (answer.text) {
      const texts = pieces(answer.text);
      if (answer.breakAfter !== undefined) {
        writer.event(
          { type: "content_block_start", index, content_block: { type: "text", text: "" } },
          "content_block_start",
        );
        for (const text of texts.slice(0, answer.breakAfter)) {
          writer.event(
            { type: "content_block_delta", index, delta: { type: "text_delta", text } },
            "content_block_delta",
          );
        }
        const failure = answer.breakWith ?? "malformed";
        if (failure === "malformed")
          writer.raw('event: content_block_delta\ndata: {"type":"content_block_delta",');
        else writer.event(failure, "error");
        return;
      }
      block(
        writer,
        index++,
        { type: "text", text: "" },
        texts.map((text) => ({ type: "text_delta", text })),
      );
    }
    for (const call of answer.toolCalls ?? []) {
      block(
        writer,
        index++,
        { type: "tool_use", id: call.id, name: call.name, input: {} },
        pieces(JSON.stringify(call.args)).map((partial_json) => ({ type: "input_json_delta", partial_json })),
      );
    }
    writer.event(
      {
        type: "message_delta",
        delta: { stop_reason: stopReason(answer), stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      "message_delta",
    );
    writer.event({ type: "message_stop" }, "message_stop");
  },
};

function block(writer: SseWriter, index: number, start: unknown, deltas: unknown[]): void {
  writer.event({ type: "content_block_start", index, content_block: start }, "content_block_start");
  for (const delta of deltas)
    writer.event({ type: "content_block_delta", index, delta }, "content_block_delta");
  writer.event({ type: "content_block_stop", index }, "content_block_stop");
}
