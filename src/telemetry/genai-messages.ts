/**
 * Messages as the GenAI semantic conventions record them (`gen_ai.input.messages`,
 * `gen_ai.output.messages`, `gen_ai.system_instructions`): each message a `role` and its
 * `parts` — `text` (`content`), `reasoning` (`content`), `tool_call` (`id`, `name`,
 * `arguments`), `tool_call_response` (`id`, `response`) — an output message with its
 * `finish_reason`. A part of another kind keeps its own type (a file, an image).
 */
import type { ModelMessage } from "../events/payloads.js";
import type { ModelTurn } from "../models/language-model.js";

type Part = Record<string, unknown> & { type: string };

/** The AI SDK's finish reasons in the conventions' words. */
const FINISH_REASONS: Record<string, string> = {
  "tool-calls": "tool_call",
  "content-filter": "content_filter",
};

function partOf(part: Record<string, unknown>): Part {
  switch (part.type) {
    case "text":
      return { type: "text", content: part.text };
    case "reasoning":
      return { type: "reasoning", content: part.text };
    case "tool-call":
      return { type: "tool_call", id: part.toolCallId, name: part.toolName, arguments: part.input };
    case "tool-result": {
      const output = part.output as { type?: string; value?: unknown } | undefined;
      return { type: "tool_call_response", id: part.toolCallId, response: output?.value ?? output };
    }
    default:
      return { type: String(part.type) };
  }
}

/** A transcript as the conventions' input messages. */
export function inputMessages(messages: readonly ModelMessage[]): Record<string, unknown>[] {
  return messages.map((message) => ({
    role: message.role,
    parts:
      typeof message.content === "string"
        ? [{ type: "text", content: message.content }]
        : (message.content as readonly Record<string, unknown>[]).map(partOf),
  }));
}

/** A model's answer as the conventions' output messages (one, the assistant's). */
export function outputMessages(turn: ModelTurn): Record<string, unknown>[] {
  const parts: Part[] = [];
  if (turn.reasoning) parts.push({ type: "reasoning", content: turn.reasoning });
  if (turn.text) parts.push({ type: "text", content: turn.text });
  for (const call of turn.toolCalls)
    parts.push({ type: "tool_call", id: call.toolCallId, name: call.toolName, arguments: call.args });
  return [
    {
      role: "assistant",
      parts,
      finish_reason: FINISH_REASONS[turn.finishReason] ?? turn.finishReason,
    },
  ];
}

/** Instructions as the conventions' system instructions: a list of text parts. */
export function systemInstructions(system: string): Part[] {
  return [{ type: "text", content: system }];
}
