/** A mock AI SDK model for tests of hookwise inside AI SDK code (`generateText`, `streamText`). */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A tool call the mock answers; `id` defaults to `c<step>` (`c<step>-<index>` for several in a step). */
export interface MockCall {
  toolName: string;
  input: unknown;
  id?: string;
}

/** A mock model answering each listed step's tool call (or calls), then "done". */
export function mockModel(calls: (MockCall | MockCall[])[]) {
  let step = 0;
  const answer = (): LanguageModelV3GenerateResult => {
    const listed = calls[step++];
    const stepCalls = listed === undefined ? [] : Array.isArray(listed) ? listed : [listed];
    return {
      content: stepCalls.length
        ? stepCalls.map((call, index) => ({
            type: "tool-call" as const,
            toolCallId: call.id ?? (Array.isArray(listed) ? `c${step}-${index}` : `c${step}`),
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          }))
        : [{ type: "text", text: "done" }],
      finishReason: { unified: stepCalls.length ? "tool-calls" : "stop", raw: undefined },
      usage,
      warnings: [],
    };
  };
  return new MockLanguageModelV3({
    doGenerate: async () => answer(),
    doStream: async () => {
      const result = answer();
      const toolCalls = result.content.filter((part) => part.type === "tool-call");
      const chunks = toolCalls.length
        ? toolCalls
        : [
            { type: "text-start" as const, id: "t" },
            { type: "text-delta" as const, id: "t", delta: "done" },
            { type: "text-end" as const, id: "t" },
          ];
      return {
        stream: simulateReadableStream({
          chunks: [...chunks, { type: "finish" as const, finishReason: result.finishReason, usage }],
        }),
      };
    },
  });
}
