/**
 * A tool-call session's calls as its hooks' statistics read them (`tools`, `messages`,
 * `tokens`, `pressure`): each call its client started is an assistant message with the call,
 * and its answer a tool message with the result, as the loop's transcript holds them. A call
 * sees the calls started before it — its own is added once it has started, synchronously, so
 * calls of one session made at once each see a distinct count. The latest `KEPT_MESSAGES`
 * are kept, as the session's stored transcript keeps them.
 */
import type { ModelMessage } from "../events/payloads.js";
import { toToolOutput } from "../tools/tool-output.js";
import { KEPT_MESSAGES } from "./transcript-writer.js";

export class CallHistory {
  readonly #messages: ModelMessage[] = [];

  /** What a call starting now sees (a copy), then the call added to the history. */
  start(call: { toolCallId: string; toolName: string; args: unknown }): ModelMessage[] {
    const before = this.#messages.slice();
    this.#add({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.args ?? {} },
      ],
    } as ModelMessage);
    return before;
  }

  /** The call's answer, as its model would have read it. */
  finish(
    call: { toolCallId: string; toolName: string },
    result: { result: unknown; isError: boolean },
  ): void {
    this.#add({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: toToolOutput(result.result, result.isError),
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
