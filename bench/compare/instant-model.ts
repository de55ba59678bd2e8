/**
 * The instant fake model for everything that speaks the AI SDK's model spec (V3): the plain
 * loop, hookwise and the AI SDK itself get the very same model. The step is the number of
 * assistant + tool message pairs after the system and user messages.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { FINAL_TEXT, type Script, type ScriptedCall } from "./script.js";

const usage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const TOOL_CALLS: LanguageModelV3FinishReason = { unified: "tool-calls", raw: "tool_calls" };
const STOP: LanguageModelV3FinishReason = { unified: "stop", raw: "stop" };

function content(calls: readonly ScriptedCall[] | undefined): LanguageModelV3Content[] {
  if (calls === undefined) return [{ type: "text", text: FINAL_TEXT }];
  return calls.map((call) => ({
    type: "tool-call",
    toolCallId: call.id,
    toolName: call.name,
    input: call.input,
  }));
}

function streamParts(calls: readonly ScriptedCall[] | undefined): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: "instant", modelId: "instant" },
  ];
  if (calls === undefined) {
    parts.push({ type: "text-start", id: "t0" });
    parts.push({ type: "text-delta", id: "t0", delta: FINAL_TEXT });
    parts.push({ type: "text-end", id: "t0" });
  } else
    for (const call of calls) {
      parts.push({ type: "tool-input-start", id: call.id, toolName: call.name });
      parts.push({ type: "tool-input-delta", id: call.id, delta: call.input });
      parts.push({ type: "tool-input-end", id: call.id });
      parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input });
    }
  parts.push({ type: "finish", finishReason: calls ? TOOL_CALLS : STOP, usage });
  return parts;
}

export function instantModel(script: Script, framework: string): LanguageModelV3 {
  const stepOf = (options: LanguageModelV3CallOptions) => (options.prompt.length - 2) / 2;
  return {
    specificationVersion: "v3",
    provider: "instant",
    modelId: "instant",
    supportedUrls: {},
    async doGenerate(options) {
      const step = stepOf(options);
      const calls = script.answer(step, framework);
      const parked = script.enter(step);
      if (parked) await parked;
      return {
        content: content(calls),
        finishReason: calls ? TOOL_CALLS : STOP,
        usage,
        warnings: [],
      };
    },
    async doStream(options) {
      const step = stepOf(options);
      const calls = script.answer(step, framework);
      const parked = script.enter(step);
      if (parked) await parked;
      const parts = streamParts(calls);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
