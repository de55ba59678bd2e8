/**
 * `Stop` → `run_end` of the agent's own completed runs. Exit 2 or `decision: "block"` keeps
 * the run going: the reason is sent as the next user message and the run takes another step
 * (counted against `maxSteps`); `stop_hook_active` tells the script it is already such a
 * continuation, so it can let the run end. `continue: false` wins over a block.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import { flow } from "../../../../hooks/flow.js";
import { blockOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent, ClaudeVerdict } from "./claude-event.js";

/** A block on Stop or SubagentStop: the run goes on, with the reason as feedback. */
export function continueVerdict(answer: Parameters<ClaudeEvent["verdict"]>[0]): ClaudeVerdict {
  if (stopOf(answer) !== undefined) return {};
  const block = blockOf(answer);
  return block ? { flow: flow.retry(block.reason) } : {};
}

export const stop: ClaudeEvent = {
  name: "Stop",
  event: "run_end",
  kind: "transform",
  scope: "self",
  fires: (payload) => (payload as EventPayload<"run_end">).outcome === "completed",
  input(call) {
    const payload = call.payload as EventPayload<"run_end">;
    return { stop_hook_active: payload.continuations > 0, last_assistant_message: payload.output };
  },
  verdict: continueVerdict,
};
