/** A step's end: `step_end` hooks (which may stop the run or edit the transcript), then `step-finish`. */
import type { EventPayload } from "../events/payloads.js";
import type { BlockingOutcome } from "../hooks/blocking.js";
import type { HookContext } from "../hooks/hook-context.js";
import type { HookSelection } from "../hooks/hook-registry.js";
import { applyMessageEdits, editsEnd } from "./apply-message-edits.js";
import { contextFor, type RunState } from "./run-state.js";
import { lastStepFinish } from "./step-slots.js";
import type { Surface } from "./surface.js";
import type { RunEnd } from "./types.js";

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
  const selection = state.runner.select(event, "step_end");
  const dispatched = state.runner.dispatch(event, context, selection);
  if (dispatched instanceof Promise)
    return endStepLater(state, surface, text, event, context, selection, dispatched);
  return afterStepEnd(state, surface, text, event, context, selection, dispatched);
}

/** A function of its own: a closure in `endStep` would cost every step a context object. */
function endStepLater(
  state: RunState,
  surface: Surface,
  text: string,
  event: EventPayload<"step_end">,
  context: HookContext,
  selection: HookSelection,
  dispatched: Promise<BlockingOutcome<EventPayload<"step_end">>>,
): Promise<StepEnd> {
  return dispatched.then((ended) => afterStepEnd(state, surface, text, event, context, selection, ended));
}

/** What the `step_end` hooks answered: a stop, transcript edits, injected messages; then inspections. */
function afterStepEnd(
  state: RunState,
  surface: Surface,
  text: string,
  event: EventPayload<"step_end">,
  context: HookContext,
  selection: HookSelection,
  ended: BlockingOutcome<EventPayload<"step_end">>,
): StepEnd | Promise<StepEnd> {
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
  if (ended.edits.length === 0) return stepEnded(state, event, context, selection, ended);
  return editStepLater(state, text, event, context, selection, ended);
}

function editStepLater(
  state: RunState,
  text: string,
  event: EventPayload<"step_end">,
  context: HookContext,
  selection: HookSelection,
  ended: BlockingOutcome<EventPayload<"step_end">>,
): Promise<StepEnd> {
  return applyMessageEdits(state, "step_end", ended.edits).then(
    (applied) => editsEnd(applied, text) ?? stepEnded(state, event, context, selection, ended),
  );
}

function stepEnded(
  state: RunState,
  event: EventPayload<"step_end">,
  context: HookContext,
  selection: HookSelection,
  ended: BlockingOutcome<EventPayload<"step_end">>,
): undefined {
  if (ended.injected.length) state.messages.push(...ended.injected);
  state.runner.inspect(event, context, selection);
  return undefined;
}

/** Surfaces `step-finish` (only the stream surfaces items; run() builds none). */
export function stepFinished(state: RunState, surface: Surface, text: string): undefined {
  if (!surface.streaming) return;
  const record = lastStepFinish(state);
  surface.emit({
    type: "step-finish",
    step: state.step,
    text,
    finishReason: record.finishReason,
    usage: record.usage,
  });
}
