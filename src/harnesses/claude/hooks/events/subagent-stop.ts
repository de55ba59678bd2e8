/**
 * `SubagentStop` → `run_end` of a sub-agent's completed run (the matcher is its agent type,
 * hookwise's sub-agent id). Exit 2 or `decision: "block"` keeps the sub-agent working, the
 * reason as its next instruction, as on `Stop`.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import type { ClaudeEvent } from "./claude-event.js";
import { continueVerdict } from "./stop.js";

export const subagentStop: ClaudeEvent = {
  name: "SubagentStop",
  event: "run_end",
  kind: "transform",
  scope: "children",
  subject: (call) => [call.context.agentName],
  fires: (payload) => (payload as EventPayload<"run_end">).outcome === "completed",
  input(call) {
    const payload = call.payload as EventPayload<"run_end">;
    return {
      stop_hook_active: payload.continuations > 0,
      agent_id: call.context.runId,
      agent_type: call.context.agentName,
      last_assistant_message: payload.output,
    };
  },
  verdict: continueVerdict,
};
