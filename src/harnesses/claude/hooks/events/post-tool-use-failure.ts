/**
 * `PostToolUseFailure` → `tool_error`: a tool threw. `additionalContext` (and the reason of an
 * exit 2 or `decision: "block"`) reaches the model at the end of the step; `continue: false`
 * ends the run. The model gets the tool's error as its result either way.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const postToolUseFailure: ClaudeEvent = {
  name: "PostToolUseFailure",
  event: "tool_error",
  kind: "transform",
  scope: "all",
  scopable: true,
  subject: (call) => call.tool!.names,
  input(call) {
    const payload = call.payload as EventPayload<"tool_error">;
    const error = payload.error;
    return {
      tool_name: call.tool!.name,
      tool_input: call.tool!.input,
      tool_use_id: payload.toolCallId,
      error: error instanceof Error ? error.message : String(error),
      is_interrupt: false,
    };
  },
  verdict(answer) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { flow: flow.terminate(stop) };
    const context = [blockOf(answer)?.reason, contextOf(answer)].filter((text): text is string => !!text);
    return context.length ? { context } : {};
  },
};
