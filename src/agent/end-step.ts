/** A step's end: `step_end` hooks (which may stop the run or edit the transcript), then `step-finish`. */
import type { EventPayload } from "../events/payloads.js";
import { applyMessageEdits, editsEnd } from "./apply-message-edits.js";
import type { RunEnd } from "./finish-run.js";
import { contextFor, type RunState } from "./run-state.js";
import type { Surface } from "./surface.js";

export async function endStep(
  state: RunState,
  surface: Surface,
  text: string,
  toolCalls: { toolCallId: string; toolName: string; args: unknown }[],
): Promise<Omit<RunEnd, "text"> | undefined> {
  if (!state.runner.wants("step_end")) {
    stepFinished(state, surface, text);
    return undefined;
  }
  const event: EventPayload<"step_end"> = {
    type: "step_end",
    agentPath: state.agentPath,
    step: state.step,
    text,
    toolCalls,
  };
  const context = contextFor(state);
  const selection = state.runner.select(event);
  const dispatched = state.runner.dispatch(event, context, selection);
  const ended = dispatched instanceof Promise ? await dispatched : dispatched;
  stepFinished(state, surface, text);
  if (ended.failure)
    return {
      outcome: "error",
      reason: ended.failure.message,
      hook: ended.failure.hook,
      error: ended.failure,
    };
  if (ended.terminal?.flow.type === "terminate") {
    return { outcome: "terminated", reason: ended.terminal.flow.reason, hook: ended.terminal.hook };
  }
  if (ended.edits.length) {
    const edited = editsEnd(await applyMessageEdits(state, "step_end", ended.edits), text);
    if (edited) return edited;
  }
  state.messages.push(...ended.injected);
  state.runner.inspect(event, context, selection);
  return undefined;
}

/** Surfaces `step-finish` (only the stream surfaces items; run() builds none). */
export function stepFinished(state: RunState, surface: Surface, text: string): undefined {
  if (!surface.streaming) return;
  const record = state.steps.at(-1)!;
  surface.emit({
    type: "step-finish",
    step: state.step,
    text,
    finishReason: record.finishReason,
    usage: record.usage,
  });
}
