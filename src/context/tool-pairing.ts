/**
 * Tool-call pairing: an assistant message's tool calls and the tool message that answers
 * them belong together; a provider rejects a history where one is present without the
 * other. Compaction and transcript edits must never separate them.
 */
import type { ModelMessage } from "../events/payloads.js";

function partsOf(message: ModelMessage): readonly { type?: string; toolCallId?: string }[] {
  return Array.isArray(message.content) ? (message.content as { type?: string; toolCallId?: string }[]) : [];
}

/** The tool-call ids a message takes part in (its calls, or the results it carries). */
export function toolCallIdsOf(message: ModelMessage): string[] {
  const ids: string[] = [];
  for (const part of partsOf(message)) {
    if ((part.type === "tool-call" || part.type === "tool-result") && typeof part.toolCallId === "string")
      ids.push(part.toolCallId);
  }
  return ids;
}

export { newlyUnpaired, unpairedToolCallIds } from "../events/tool-call-pairs.js";
