/** Per-run bookkeeping shared by the loop's pieces: identity, scratchpads, trace, results. */
import type { ContextMeter } from "../context/context-meter.js";
import type { EventName } from "../events/catalogue.js";
import type { EventPayload, ModelMessage, ModelRequest } from "../events/payloads.js";
import type { HookContext, HookLogger, HookModel } from "../hooks/hook-context.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import type { HookContextView } from "../tools/tool-context.js";
import type { AgentEvent, StepRecord, Usage } from "./run-result.js";
import type { PromptBuilder } from "./to-prompt.js";

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
  readonly usage: Usage;
  /** Token accounting of the context window (`ctx.contextWindow`). */
  readonly meter: ContextMeter;
  /** The agent's model for hooks (`ctx.model`). */
  readonly model: HookModel;
  /** Messages compaction removed during this run; saved with the session. */
  readonly archived: ModelMessage[];
  emit(event: AgentEvent): void;
  /** The run's provider prompts, built step after step (to-prompt.ts). */
  readonly prompts: PromptBuilder;
  /** How many times a `run_end` hook sent this run back to work (`flow.retry`). */
  continuations: number;
  /** What the current step's tools see of the run (made by their first call; see calling-run.ts). */
  toolView?: HookContextView;
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

/**
 * A class, not a literal with getters: one is made for every operation that has hooks.
 * What moves during a run (step, attempt, input, the committed transcript, the step's
 * scratchpad) is captured when the operation begins; what a run never changes is read
 * from the run, and the scratchpads are put together on first use.
 */
class OperationContext implements HookContext {
  readonly step: number;
  readonly input: string;
  readonly #state: RunState;
  readonly #committed: number;
  readonly #stepScratch: Scratchpad;
  #messages: readonly ModelMessage[] | undefined;
  #scratch: OperationScratch | undefined;

  constructor(
    state: RunState,
    readonly attempt: number,
  ) {
    this.step = state.step;
    this.input = state.input;
    this.#state = state;
    this.#committed = state.messages.length;
    this.#stepScratch = state.stepScratch;
  }

  /** The run's index in its session: fixed when the run starts. */
  get turn(): number {
    return this.#state.turn;
  }
  get sessionId(): string {
    return this.#state.sessionId;
  }
  get runId(): string {
    return this.#state.runId;
  }
  get agentName(): string {
    return this.#state.agentName;
  }
  get agentPath(): readonly string[] {
    return this.#state.agentPath;
  }
  get isStreaming(): boolean {
    return this.#state.isStreaming;
  }
  get signal(): AbortSignal {
    return this.#state.signal;
  }
  get log(): HookContext["log"] {
    return this.#state.log;
  }
  get usage(): HookContext["usage"] {
    return this.#state.usage;
  }
  get contextWindow(): ContextMeter {
    return this.#state.meter;
  }
  get model(): HookModel {
    return this.#state.model;
  }

  get scratch(): OperationScratch {
    const state = this.#state;
    this.#scratch ??= new OperationScratch(state.sessionScratch, state.runScratch, this.#stepScratch);
    return this.#scratch;
  }

  /** What was committed when the operation began, even if a slow inspect hook reads it later. */
  get messages(): readonly ModelMessage[] {
    this.#messages ??= this.#state.messages.slice(0, this.#committed);
    return this.#messages;
  }

  /** The context as plain data (JSON, logs): its fields, not the run behind it. */
  toJSON(): Record<string, unknown> {
    return {
      sessionId: this.sessionId,
      runId: this.runId,
      step: this.step,
      attempt: this.attempt,
      agentName: this.agentName,
      agentPath: this.agentPath,
      isStreaming: this.isStreaming,
      input: this.input,
      turn: this.turn,
      usage: this.usage,
    };
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
