/**
 * The HookContext every operation's hooks receive, built over the state of what runs them:
 * a run (the loop's RunState) or a session outside any run (`session_end`). The source is
 * read live for what never changes during a run, and captured when the operation begins
 * for what does.
 */
import type { ModelMessage } from "../events/payloads.js";
import type { ContextWindowUsage, HookContext, HookLogger, HookModel } from "./hook-context.js";
import { Scratchpad } from "./scratchpad.js";

/** What an operation's context reads: the loop's RunState has all of it. */
export interface ContextSource {
  readonly runId: string;
  readonly sessionId: string;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  readonly isStreaming: boolean;
  readonly signal: AbortSignal;
  readonly log: HookLogger;
  readonly sessionScratch: Scratchpad;
  readonly runScratch: Scratchpad;
  readonly stepScratch: Scratchpad;
  readonly step: number;
  readonly input: string;
  readonly turn: number;
  /** The committed transcript; an operation sees it as it was when the operation began. */
  readonly messages: readonly ModelMessage[];
  readonly usage: HookContext["usage"];
  /** Token accounting (`ctx.contextWindow`); none outside a run. */
  readonly meter?: ContextWindowUsage;
  /** The agent's model for hooks (`ctx.model`); none outside a run. */
  readonly model?: HookModel;
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
export class OperationContext implements HookContext {
  readonly step: number;
  readonly input: string;
  readonly #state: ContextSource;
  readonly #committed: number;
  readonly #stepScratch: Scratchpad;
  #messages: readonly ModelMessage[] | undefined;
  #scratch: OperationScratch | undefined;

  constructor(
    state: ContextSource,
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
  get contextWindow(): ContextWindowUsage | undefined {
    return this.#state.meter;
  }
  get model(): HookModel | undefined {
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
