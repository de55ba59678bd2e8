/** Per-run bookkeeping shared by the loop's pieces: identity, scratchpads, trace, results. */
import type { ContextMeter } from "../context/context-meter.js";
import type { EventName } from "../events/catalogue.js";
import type { EventPayload, ModelMessage, ModelRequest } from "../events/payloads.js";
import type { HookContext, HookLogger, HookModel } from "../hooks/hook-context.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import type { HookTraceEntry } from "../hooks/trace.js";
import type { AgentEvent, StepRecord, Usage } from "./run-result.js";

/** A registry and its owner's depth in `agentPath` (0 = the top-level agent). */
export interface GoverningRegistry {
  readonly registry: HookRegistry;
  readonly depth: number;
}

export interface RunState {
  readonly runId: string;
  readonly sessionId: string;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  /** The hook registries dispatched to: a sub-agent's start with its ancestors' (DESIGN §5). */
  readonly registries: readonly GoverningRegistry[];
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
  /** The function names this step's request offered, when a patch narrowed them (activeTools). */
  offeredTools?: ReadonlySet<string>;
  readonly requests: ModelRequest[];
  readonly steps: StepRecord[];
  readonly events: HookTraceEntry[];
  readonly usage: Usage;
  /** Token accounting of the context window (`ctx.contextWindow`). */
  readonly meter: ContextMeter;
  /** The agent's model for hooks (`ctx.model`). */
  readonly model: HookModel;
  /** Messages compaction removed during this run; saved with the session. */
  readonly archived: ModelMessage[];
  emit(event: AgentEvent): void;
}

class OperationScratch {
  #operation: Scratchpad | undefined;

  constructor(
    readonly session: Scratchpad,
    readonly run: Scratchpad,
    readonly step: Scratchpad,
  ) {}

  get operation(): Scratchpad {
    this.#operation ??= new Scratchpad(this.step);
    return this.#operation;
  }
}

/** A class, not a literal with getters: it is made for every operation that has hooks. */
class OperationContext implements HookContext {
  readonly sessionId: string;
  readonly runId: string;
  readonly step: number;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  readonly isStreaming: boolean;
  readonly signal: AbortSignal;
  readonly scratch: OperationScratch;
  readonly log: HookContext["log"];
  readonly input: string;
  readonly usage: HookContext["usage"];
  readonly turn: number;
  readonly contextWindow: ContextMeter;
  readonly model: HookModel;
  readonly #state: RunState;
  readonly #committed: number;
  #messages: readonly ModelMessage[] | undefined;

  constructor(
    state: RunState,
    readonly attempt: number,
  ) {
    this.sessionId = state.sessionId;
    this.runId = state.runId;
    this.step = state.step;
    this.agentName = state.agentName;
    this.agentPath = state.agentPath;
    this.isStreaming = state.isStreaming;
    this.signal = state.signal;
    this.scratch = new OperationScratch(state.sessionScratch, state.runScratch, state.stepScratch);
    this.log = state.log;
    this.input = state.input;
    this.usage = state.usage;
    this.turn = state.turn;
    this.contextWindow = state.meter;
    this.model = state.model;
    this.#state = state;
    this.#committed = state.messages.length;
  }

  /** What was committed when the operation began, even if a slow inspect hook reads it later. */
  get messages(): readonly ModelMessage[] {
    this.#messages ??= this.#state.messages.slice(0, this.#committed);
    return this.#messages;
  }
}

/** A fresh context for one operation; its operation scratchpad is made on first use. */
export function contextFor(state: RunState, attempt = 1): HookContext {
  return new OperationContext(state, attempt);
}

/** Builds a payload with the run's lineage. */
export function payload<E extends EventName>(
  state: RunState,
  type: E,
  fields: Omit<EventPayload<E>, "type" | "agentPath">,
): EventPayload<E> {
  // Object.assign, not a spread literal: the spread form takes a slow path on Node 20.
  return Object.assign({ type, agentPath: state.agentPath }, fields) as unknown as EventPayload<E>;
}
