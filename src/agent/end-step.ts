/** A step's end: `step_end` hooks (which may stop the run or edit the transcript), then `step-finish`. */
import type { EventPayload } from "../events/payloads.js";
import type { BlockingOutcome } from "../hooks/hook-runner.js";
import { applyMessageEdits, editsEnd } from "./apply-message-edits.js";
import type { RunEnd } from "./finish-run.js";
import { contextFor, type RunState } from "./run-state.js";
import type { Surface } from "./surface.js";

type StepEnd = Omit<RunEnd, "text"> | undefined;

/** Synchronous while the `step_end` hooks answer synchronously and edit nothing. */
export function endStep(
  state: RunState,
  surface: Surface,
  text: string,
  toolCalls: { toolCallId: string; toolName: string; args: unknown }[],
): StepEnd | Promise<StepEnd> {
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
  const settle = (ended: BlockingOutcome<EventPayload<"step_end">>): StepEnd | Promise<StepEnd> => {
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
    const finish = (): undefined => {
      state.messages.push(...ended.injected);
      state.runner.inspect(event, context, selection);
      return undefined;
    };
    if (ended.edits.length === 0) return finish();
    return applyMessageEdits(state, "step_end", ended.edits).then(
      (applied) => editsEnd(applied, text) ?? finish(),
    );
  };
  return dispatched instanceof Promise ? dispatched.then(settle) : settle(dispatched);
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
