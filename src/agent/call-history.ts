/**
 * A tool-call session's calls as its hooks' statistics count them (`tools`, `messages`):
 * each call its client started is an assistant message with the call, and its answer a tool
 * message, as the loop's transcript holds them. A call sees the calls started before it —
 * its own is added once it has started, synchronously, so calls of one session made at once
 * each see a distinct count. The latest `KEPT_MESSAGES` are kept, as the session's stored
 * transcript keeps them.
 *
 * Only the calls are kept, not their arguments nor results: a client sending hundreds of
 * large calls does not make the session hold them all (the stored transcript has them).
 * `tokens` and `pressure`, which measure a model's context, have none in a gateway session.
 */
import type { ModelMessage } from "../events/payloads.js";
import { KEPT_MESSAGES } from "./transcript-writer.js";

export class CallHistory {
  readonly #messages: ModelMessage[] = [];

  /** What a call starting now sees (a copy), then the call added to the history. */
  start(call: { toolCallId: string; toolName: string }): ModelMessage[] {
    const before = this.#messages.slice();
    this.#add({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: {} }],
    } as ModelMessage);
    return before;
  }

  /** The call answered (whether it ran or not). */
  finish(call: { toolCallId: string; toolName: string }, isError: boolean): void {
    this.#add({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: isError ? { type: "error-text", value: "" } : { type: "text", value: "" },
        },
      ],
    } as ModelMessage);
  }

  #add(message: ModelMessage): void {
    this.#messages.push(message);
    if (this.#messages.length > KEPT_MESSAGES)
      this.#messages.splice(0, this.#messages.length - KEPT_MESSAGES);
  }
}
