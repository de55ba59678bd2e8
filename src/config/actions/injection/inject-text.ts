/**
 * Where an action's text goes so the model sees it, by event (`call_tool_inject`, `shell`
 * with `on_error: inject`):
 * - `tool_result`: appended to the result the model receives (append-note.ts);
 * - `model_request`: `extraContext` of this attempt's outbound copy only;
 * - `session_start`, `run_start`, `step_start`, `step_end`, `activation`: a user message
 *   persisted in the transcript (user, like inject_message's `auto`: every provider takes it);
 * - anywhere else there is nothing to inject into: the text is logged instead.
 */
import type { ModelMessage } from "../../../events/payloads.js";
import { type Flow, flow } from "../../../hooks/flow.js";
import type { ActionServices, Evaluation } from "../../build/evaluation.js";
import { appendNote } from "../notes/append-note.js";

/** The events where `injectText` injects (others log). */
export const INJECTABLE_EVENTS = [
  "tool_result",
  "model_request",
  "session_start",
  "run_start",
  "step_start",
  "step_end",
  "activation",
] as const;

export function injectText(evaluation: Evaluation, services: ActionServices, text: string): Flow | undefined {
  const event = evaluation.event;
  switch (event.type) {
    case "tool_result":
      return flow.rewriteResult(appendNote(evaluation.tool?.result ?? event.result, text));
    case "model_request":
      return flow.patch({ extraContext: [{ id: evaluation.hookId, text }] });
    case "session_start":
    case "run_start":
    case "step_start":
    case "step_end":
    case "activation":
      return flow.inject([{ role: "user", content: text } as ModelMessage]);
    default:
      services.log.info(`hook "${evaluation.hookId}" (${event.type}, nothing to inject into): ${text}`, {
        hook: evaluation.hookId,
      });
      return undefined;
  }
}
