/**
 * `SubagentStart` → `run_start` of a sub-agent's run (the matcher is its agent type).
 * `additionalContext` is added to the sub-agent's transcript after its task; it cannot
 * block (an exit 2 is only reported), as in Claude Code.
 */
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextMessage, contextOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const subagentStart: ClaudeEvent = {
  name: "SubagentStart",
  event: "run_start",
  kind: "transform",
  scope: "children",
  subject: (call) => [call.context.agentName],
  input: (call) => ({ agent_id: call.context.runId, agent_type: call.context.agentName }),
  verdict(answer) {
    const block = blockOf(answer);
    const context = contextOf(answer);
    return {
      flow: context ? flow.inject(contextMessage(context)) : undefined,
      notice: block ? `SubagentStart cannot block (exit 2 reported): ${block.reason ?? ""}` : undefined,
    };
  },
};
