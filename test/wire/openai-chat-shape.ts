/**
 * OpenAI Chat Completions on the wire: a `chat.completion` JSON body, or `chat.completion.chunk`
 * SSE events with content, `reasoning_content` and tool-call deltas (arguments cut in pieces),
 * a finish chunk, a usage chunk (`choices: []`) and `data: [DONE]`.
 */
import { pieces, type ShapeRenderer, type WireAnswer } from "./wire-shape.js";

const CREATED = 1_700_000_000;

function usageOf(answer: WireAnswer) {
  const usage = answer.usage ?? { input: 11, output: 7 };
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
}

function finishReason(answer: WireAnswer): string {
  return answer.toolCalls?.length ? "tool_calls" : "stop";
}

export const renderOpenAIChat: ShapeRenderer = {
  json(answer, body) {
    return {
      id: "chatcmpl-wire",
      object: "chat.completion",
      created: CREATED,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: answer.text ?? null,
            ...(answer.reasoning ? { reasoning_content: answer.reasoning } : {}),
            ...(answer.toolCalls?.length
              ? {
                  tool_calls: answer.toolCalls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.args) },
                  })),
                }
              : {}),
          },
          finish_reason: finishReason(answer),
        },
      ],
      usage: usageOf(answer),
    };
  },

  sse(answer, body, writer) {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      writer.event({
        id: "chatcmpl-wire",
        object: "chat.completion.chunk",
        created: CREATED,
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    chunk({ role: "assistant", content: "" });
    for (const piece of pieces(answer.reasoning ?? "")) chunk({ reasoning_content: piece });
    let sent = 0;
    for (const piece of pieces(answer.text ?? "")) {
      if (answer.breakAfter !== undefined && sent === answer.breakAfter) {
        const failure = answer.breakWith ?? "malformed";
        if (failure === "malformed") writer.raw('data: {"id":"chatcmpl-wire","choices":[{"delta":');
        else writer.event(failure);
        return;
      }
      chunk({ content: piece });
      sent++;
    }
    answer.toolCalls?.forEach((call, index) => {
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      });
      for (const piece of pieces(JSON.stringify(call.args))) {
        chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    });
    chunk({}, finishReason(answer));
    writer.event({
      id: "chatcmpl-wire",
      object: "chat.completion.chunk",
      created: CREATED,
      model: body.model,
      choices: [],
      usage: usageOf(answer),
    });
    writer.raw("data: [DONE]");
  },
};
