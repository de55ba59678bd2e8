/**
 * Tool-call pairing over model messages: an assistant message's tool calls and the tool
 * message that answers them belong together; a provider rejects a history where one is
 * present without the other. Shared by the hooks (an injected or patched history) and the
 * context room (compaction and transcript edits).
 */
import type { ModelMessage } from "./payloads.js";

function partsOf(message: ModelMessage): readonly { type?: string; toolCallId?: string }[] {
  return Array.isArray(message.content) ? (message.content as { type?: string; toolCallId?: string }[]) : [];
}

/** Tool-call ids that have a call without a result, or a result without a call. */
export function unpairedToolCallIds(messages: readonly ModelMessage[]): Set<string> {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of messages) {
    for (const part of partsOf(message)) {
      if (typeof part.toolCallId !== "string") continue;
      if (part.type === "tool-call" && message.role === "assistant") calls.add(part.toolCallId);
      else if (part.type === "tool-result" && message.role === "tool") results.add(part.toolCallId);
    }
  }
  const unpaired = new Set<string>();
  for (const id of calls) if (!results.has(id)) unpaired.add(id);
  for (const id of results) if (!calls.has(id)) unpaired.add(id);
  return unpaired;
}

/**
 * The ids that `after` leaves unpaired and `before` did not: what an edit broke. (A history
 * that came in broken from a client is not the edit's fault.)
 */
export function newlyUnpaired(before: readonly ModelMessage[], after: readonly ModelMessage[]): string[] {
  const already = unpairedToolCallIds(before);
  return [...unpairedToolCallIds(after)].filter((id) => !already.has(id));
}
