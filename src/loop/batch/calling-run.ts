/**
 * The run that calls a tool, handed to the tool through its execution options under a
 * symbol: a sub-agent tool needs its caller's lineage and hook registries (the parent's
 * decide hooks and policies govern the sub-agent); ordinary tools never see
 * it. Internal to the loop and agent/sub-agent-tool.ts.
 */
import type { ModelMessage } from "../../events/payloads.js";
import type { ToolExecutionOptions } from "../../tools/tool.js";
import type { HookContextView } from "../../tools/tool-context.js";
import type { RunState } from "../run-state.js";

const CALLING_RUN = Symbol("hookwise.callingRun");

type WithCallingRun = ToolExecutionOptions & { [CALLING_RUN]?: RunState };

/**
 * Execution options for one call, with the calling run attached under a symbol key: JSON
 * and Object.keys skip it, so tools that log their options stay clean. A class: its
 * instances share one shape (a literal with a computed symbol key is built slowly).
 */
class CallOptions implements ToolExecutionOptions {
  readonly [CALLING_RUN]: RunState;
  readonly abortSignal: AbortSignal;

  constructor(
    readonly toolCallId: string,
    readonly signal: AbortSignal,
    readonly context: HookContextView,
    run: RunState,
  ) {
    this.abortSignal = signal;
    this[CALLING_RUN] = run;
  }

  /** The transcript the model saw (made on first read: most tools never look). */
  get messages(): ModelMessage[] {
    return sentMessages(this[CALLING_RUN]);
  }
}

/** The run's transcript without this step's assistant message (the one holding the calls). */
export function sentMessages(state: RunState): ModelMessage[] {
  const messages = state.messages;
  const last = messages[messages.length - 1];
  return last?.role === "assistant" ? messages.slice(0, -1) : messages.slice();
}

/** The identity a step's tools see: one frozen object per step, shared by its calls. */
function stepView(state: RunState): HookContextView {
  let view = state.toolView;
  if (view === undefined || view.step !== state.step) {
    view = Object.freeze({
      sessionId: state.sessionId,
      runId: state.runId,
      step: state.step,
      agentName: state.agentName,
    });
    state.toolView = view;
  }
  return view;
}

export function toolOptions(toolCallId: string, state: RunState): ToolExecutionOptions {
  return new CallOptions(toolCallId, state.signal, stepView(state), state);
}

/** The run calling this tool, when the loop called it (a hook's `call_tool` does not). */
export function callingRunOf(options: ToolExecutionOptions): RunState | undefined {
  return (options as WithCallingRun)[CALLING_RUN];
}
