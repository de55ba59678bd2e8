/** The assistant message of a step, as the transcript and retry feedback carry it. */
import type { ModelMessage } from "../events/payloads.js";

export function assistantParts(
  text: string,
  reasoning: string,
  toolCalls: readonly { toolCallId: string; toolName: string; args: unknown }[],
): unknown[] {
  const parts: unknown[] = [];
  if (reasoning) parts.push({ type: "reasoning", text: reasoning });
  if (text) parts.push({ type: "text", text });
  for (const call of toolCalls)
    parts.push({ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.args });
  return parts;
}

/** The ephemeral messages that carry an invalid step's feedback into the next request, once. */
export function retryFeedback(
  turn: { text: string; reasoning: string },
  toolCalls: { toolCallId: string; toolName: string; args: unknown }[],
  feedback: string,
): ModelMessage[] {
  return [
    { role: "assistant", content: assistantParts(turn.text, turn.reasoning, toolCalls) as never },
    {
      role: "tool",
      content: toolCalls.map((call) => ({
        type: "tool-result" as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "error-text" as const, value: feedback },
      })),
    },
  ];
}
