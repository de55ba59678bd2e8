/**
 * `UserPromptSubmit` → `run_start` of the agent's own runs (a sub-agent's task is not a
 * user's prompt: that is `SubagentStart`). Exit 2, `decision: "block"` or `continue: false`
 * ends the run before any step (`terminated`, the reason as `reason`); `additionalContext`,
 * or plain stdout, is added to the transcript after the user's message (persisted: every
 * later request of the session sees it). Claude Code's default timeout here is 30 s.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextMessage, contextOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const userPromptSubmit: ClaudeEvent = {
  name: "UserPromptSubmit",
  event: "run_start",
  kind: "transform",
  scope: "self",
  timeout: 30,
  input: (call) => ({ prompt: (call.payload as EventPayload<"run_start">).input }),
  verdict(answer) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { flow: flow.terminate(stop) };
    const block = blockOf(answer);
    if (block)
      return { flow: flow.terminate(block.reason ?? "the prompt was blocked by a UserPromptSubmit hook") };
    const context = contextOf(answer, true);
    return context ? { flow: flow.inject(contextMessage(context)) } : {};
  },
};
