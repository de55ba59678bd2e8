/** A mock AI SDK model for tests of hookwise inside AI SDK code (`generateText`, `streamText`). */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A mock model answering one tool call per listed step, then "done". */
export function mockModel(calls: { toolName: string; input: unknown }[]) {
  let step = 0;
  const answer = (): LanguageModelV3GenerateResult => {
    const call = calls[step++];
    return {
      content: call
        ? [
            {
              type: "tool-call",
              toolCallId: `c${step}`,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            },
          ]
        : [{ type: "text", text: "done" }],
      finishReason: { unified: call ? "tool-calls" : "stop", raw: undefined },
      usage,
      warnings: [],
    };
  };
  return new MockLanguageModelV3({
    doGenerate: async () => answer(),
    doStream: async () => {
      const result = answer();
      const part = result.content[0]!;
      const chunks =
        part.type === "tool-call"
          ? [part]
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
