/** The (assistant tool call, tool result) message pair an injection adds, and finding it again. */
import type { ToolResultPart } from "@ai-sdk/provider-utils";
import type { ModelMessage } from "../../events/payloads.js";
import { parseSyntheticCallId } from "./synthetic-call-id.js";

type ToolOutput = ToolResultPart["output"];

export function syntheticPair(options: {
  toolName: string;
  args: unknown;
  callId: string;
  output: ToolOutput;
}): [ModelMessage, ModelMessage] {
  const { toolName, args, callId, output } = options;
  return [
    { role: "assistant", content: [{ type: "tool-call", toolCallId: callId, toolName, input: args }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: callId, toolName, output }] },
  ];
}

export interface InjectedPair {
  call: ModelMessage;
  result: ModelMessage;
  callId: string;
  /** Unix seconds, when it was injected with a TTL. */
  expiresAt?: number;
  output: ToolOutput;
}

function singlePart(
  message: ModelMessage,
  type: string,
): { toolCallId: string; output?: ToolOutput } | undefined {
  if (!Array.isArray(message.content) || message.content.length !== 1) return undefined;
  const part = message.content[0] as { type?: string; toolCallId?: unknown; output?: ToolOutput };
  return part.type === type && typeof part.toolCallId === "string"
    ? { toolCallId: part.toolCallId, output: part.output }
    : undefined;
}

/** The latest pair of the injection `key` in `messages` (searching from the end), if any. */
export function findInjectedPair(messages: readonly ModelMessage[], key: string): InjectedPair | undefined {
  for (let index = messages.length - 1; index > 0; index--) {
    const result = messages[index]!;
    if (result.role !== "tool") continue;
    const part = singlePart(result, "tool-result");
    const parsed = part && parseSyntheticCallId(part.toolCallId);
    if (!part || !parsed || parsed.key !== key) continue;
    const call = messages[index - 1]!;
    if (call.role !== "assistant" || singlePart(call, "tool-call")?.toolCallId !== part.toolCallId) continue;
    return {
      call,
      result,
      callId: part.toolCallId,
      ...(parsed.expiresAt !== undefined ? { expiresAt: parsed.expiresAt } : {}),
      output: part.output!,
    };
  }
  return undefined;
}
