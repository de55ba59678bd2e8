/**
 * A transcript as plain text, for a model to summarise: one block per message, tool calls
 * and results spelled out, long tool results clipped (a summary needs their gist, and the
 * summarising request must itself fit the window).
 */
import type { ModelMessage } from "../events/payloads.js";

const MAX_PART_CHARACTERS = 4_000;

function clip(text: string): string {
  return text.length <= MAX_PART_CHARACTERS ? text : `${text.slice(0, MAX_PART_CHARACTERS)}… [clipped]`;
}

function partText(part: Record<string, unknown>): string {
  switch (part.type) {
    case "text":
      return String(part.text ?? "");
    case "reasoning":
      return "";
    case "tool-call":
      return `[called ${String(part.toolName)}(${JSON.stringify(part.input ?? {})})]`;
    case "tool-result": {
      const output = part.output as { value?: unknown } | undefined;
      const value = typeof output?.value === "string" ? output.value : JSON.stringify(output?.value ?? null);
      return `[${String(part.toolName)} returned: ${clip(value)}]`;
    }
    default:
      return `[${String(part.type)}]`;
  }
}

export function transcriptText(messages: readonly ModelMessage[]): string {
  return messages
    .map((message) => {
      const content = message.content as unknown;
      const text =
        typeof content === "string"
          ? clip(content)
          : (content as Record<string, unknown>[]).map(partText).filter(Boolean).join("\n");
      return `${message.role}: ${text}`;
    })
    .join("\n\n");
}
