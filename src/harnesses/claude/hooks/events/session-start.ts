/**
 * `SessionStart` → `session_start`: the first run of a session (`source: "startup"`; the
 * matcher is the source). `additionalContext`, or plain stdout, is added to the transcript
 * before the run's user message; `continue: false` ends the run.
 */
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextMessage, contextOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const sessionStart: ClaudeEvent = {
  name: "SessionStart",
  event: "session_start",
  kind: "transform",
  scope: "self",
  subject: () => ["startup"],
  input: (call) => ({
    source: "startup",
    ...(call.context.model ? { model: call.context.model.modelId } : {}),
  }),
  verdict(answer) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { flow: flow.terminate(stop) };
    const block = blockOf(answer);
    const context = contextOf(answer, true);
    return {
      flow: context ? flow.inject(contextMessage(context)) : undefined,
      notice: block ? `SessionStart cannot block (exit 2 reported): ${block.reason ?? ""}` : undefined,
    };
  },
};
