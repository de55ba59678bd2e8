/** Per-run bookkeeping shared by the loop's pieces: identity, scratchpads, trace, results. */
import type { EventName } from "../events/catalogue.js";
import type { EventPayload, ModelMessage, ModelRequest } from "../events/payloads.js";
import type { HookContext, HookLogger } from "../hooks/hook-context.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import type { HookTraceEntry } from "../hooks/trace.js";
import type { AgentEvent, StepRecord, Usage } from "./run-result.js";

export interface RunState {
  readonly runId: string;
  readonly sessionId: string;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  readonly isStreaming: boolean;
  readonly signal: AbortSignal;
  readonly log: HookLogger;
  readonly runner: HookRunner;
  readonly sessionScratch: Scratchpad;
  readonly runScratch: Scratchpad;
  stepScratch: Scratchpad;
  step: number;
  /** The session transcript; committed messages are never mutated, only appended. */
  messages: ModelMessage[];
  /** Index in `messages` of this run's user message. */
  userMessageIndex: number;
  input: string;
  /** The run's index in its session (0 = first run). */
  turn: number;
  readonly requests: ModelRequest[];
  readonly steps: StepRecord[];
  readonly events: HookTraceEntry[];
  readonly usage: Usage;
  emit(event: AgentEvent): void;
}

/** A fresh context for one operation (its own operation scratchpad). */
export function contextFor(state: RunState, attempt = 1): HookContext {
  return {
    sessionId: state.sessionId,
    runId: state.runId,
    step: state.step,
    attempt,
    agentName: state.agentName,
    agentPath: state.agentPath,
    isStreaming: state.isStreaming,
    signal: state.signal,
    scratch: {
      session: state.sessionScratch,
      run: state.runScratch,
      step: state.stepScratch,
      operation: new Scratchpad(state.stepScratch),
    },
    log: state.log,
    input: state.input,
    messages: state.messages,
    usage: state.usage,
    turn: state.turn,
  };
}

/** Builds a payload with the run's lineage. */
export function payload<E extends EventName>(
  state: RunState,
  type: E,
  fields: Omit<EventPayload<E>, "type" | "agentPath">,
): EventPayload<E> {
  return { type, agentPath: state.agentPath, ...fields } as EventPayload<E>;
}
