/**
 * A run's state (`RunState`) as `drive` makes it. A server holds as many of these as it has
 * runs in flight, so each holds only what its run uses: the scratchpads and `ctx.model` are
 * made on first use (most runs have no hook that reads them), what a run reads from its
 * agent (name, logger) is read from there, and what few runs ever change (the output, the
 * count of continuations, an archive of compacted messages…) is read from the prototype's
 * defaults until a run writes its own.
 */
import type { ContextMeter } from "../context/context-meter.js";
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import type { HookLogger, HookModel } from "../hooks/hook-context.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import type { RunTelemetry } from "../telemetry/run-telemetry.js";
import type { HookContextView } from "../tools/tool-context.js";
import { createHookModel } from "./hook-model.js";
import type { SplitInput } from "./run-input.js";
import type { AgentEvent, StepRecord, Usage } from "./run-result.js";
import {
  type ApprovalFlow,
  type GoverningRegistry,
  NO_MESSAGES,
  NO_REQUESTS,
  NO_STEPS,
  type RunState,
} from "./run-state.js";
import type { PromptBuilder } from "./to-prompt.js";
import type { LoopRuntime } from "./types.js";

/** What a run's state starts from (the fields `drive` decides). */
export interface LoopStateInit {
  runId: string;
  sessionId: string;
  agentPath: readonly string[];
  registries: readonly GoverningRegistry[];
  isStreaming: boolean;
  signal: AbortSignal;
  runner: HookRunner;
  telemetry: RunTelemetry | undefined;
  approvals: ApprovalFlow;
  messages: ModelMessage[];
  input: string;
  inputParts: SplitInput | undefined;
  turn: number;
  emit: (event: AgentEvent) => void;
  prompts: PromptBuilder;
}

export class LoopState implements RunState {
  readonly #runtime: LoopRuntime;
  /** The scratchpads and `ctx.model`, made with the first of them a hook reads. */
  #scopes: Scopes | undefined;

  readonly runId: string;
  readonly sessionId: string;
  readonly agentPath: readonly string[];
  readonly registries: readonly GoverningRegistry[];
  readonly signal: AbortSignal;
  readonly runner: HookRunner;
  readonly approvals: ApprovalFlow;
  step = -1;
  messages: ModelMessage[];
  userMessageIndex = -1;
  input: string;
  turn: number;
  lastStep: unknown[] | undefined = undefined;
  lastRequest: ModelRequest | undefined = undefined;
  readonly usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  /** Set right after construction: the meter reads this state's transcript. */
  readonly meter: ContextMeter = undefined as unknown as ContextMeter;
  readonly prompts: PromptBuilder;
  readonly emit: (event: AgentEvent) => void;

  // Read from the prototype's defaults (below) until the run writes its own.
  declare sentLength: number;
  declare requests: ModelRequest[];
  declare steps: StepRecord[];
  declare readonly isStreaming: boolean;
  declare readonly telemetry: RunTelemetry | undefined;
  declare inputParts?: SplitInput;
  declare offeredTools?: ReadonlySet<string>;
  declare archived: readonly ModelMessage[];
  declare continuations: number;
  declare output?: unknown;
  declare outputMisses: number;
  declare patchedSystem: string | undefined;
  declare systemCacheWarned: boolean;
  declare toolView?: HookContextView;

  constructor(runtime: LoopRuntime, init: LoopStateInit) {
    this.#runtime = runtime;
    this.runId = init.runId;
    this.sessionId = init.sessionId;
    this.agentPath = init.agentPath;
    this.registries = init.registries;
    this.signal = init.signal;
    this.runner = init.runner;
    this.approvals = init.approvals;
    this.messages = init.messages;
    this.input = init.input;
    this.turn = init.turn;
    this.prompts = init.prompts;
    // The surface's own function (both surfaces' `emit` is a plain function): no closure per run.
    this.emit = init.emit;
    if (init.isStreaming) (this as { isStreaming: boolean }).isStreaming = true;
    if (init.telemetry !== undefined) (this as { telemetry: RunTelemetry }).telemetry = init.telemetry;
    if (init.inputParts !== undefined) this.inputParts = init.inputParts;
  }

  get agentName(): string {
    return this.#runtime.name;
  }

  get log(): HookLogger {
    return this.#runtime.log;
  }

  /**
   * The session's scope: the one its earlier runs' hooks wrote to, or a new one, kept for
   * the session's next runs once a hook writes to it (a run whose hooks never do leaves
   * nothing behind in the agent's memory).
   */
  get sessionScratch(): Scratchpad {
    this.#scopes ??= newScopes();
    const scopes = this.#scopes;
    if (scopes.session === undefined) {
      const { sessionScratch } = this.#runtime;
      const sessionId = this.sessionId;
      let scratch = sessionScratch.get(sessionId);
      if (scratch === undefined) {
        const made: Scratchpad = new Scratchpad(undefined, () => sessionScratch.set(sessionId, made));
        scratch = made;
      }
      scopes.session = scratch;
    }
    return scopes.session;
  }

  get runScratch(): Scratchpad {
    this.#scopes ??= newScopes();
    const scopes = this.#scopes;
    scopes.run ??= new Scratchpad(this.sessionScratch);
    return scopes.run;
  }

  /** The current step's scope: a new step sets it to undefined, and it is made on first use. */
  get stepScratch(): Scratchpad {
    this.#scopes ??= newScopes();
    const scopes = this.#scopes;
    scopes.step ??= new Scratchpad(this.runScratch);
    return scopes.step;
  }

  set stepScratch(scratch: Scratchpad | undefined) {
    if (this.#scopes !== undefined) this.#scopes.step = scratch;
    else if (scratch !== undefined) {
      this.#scopes = newScopes();
      this.#scopes.step = scratch;
    }
  }

  /** The agent's model for hooks (`ctx.model`). */
  get model(): HookModel {
    this.#scopes ??= newScopes();
    const scopes = this.#scopes;
    scopes.model ??= createHookModel(this.#runtime, this.usage, this.signal);
    return scopes.model;
  }
}

// No private method here: a class with one gives each instance a field of its own for it.
function newScopes(): Scopes {
  return { session: undefined, run: undefined, step: undefined, model: undefined };
}

/** What a run's hooks made of its state: its scratchpads and its model for hooks. */
interface Scopes {
  session: Scratchpad | undefined;
  run: Scratchpad | undefined;
  step: Scratchpad | undefined;
  model: HookModel | undefined;
}

// The defaults most runs keep (frozen empties and plain values, shared by every run).
Object.assign(LoopState.prototype, {
  requests: NO_REQUESTS,
  sentLength: 0,
  steps: NO_STEPS,
  isStreaming: false,
  telemetry: undefined,
  inputParts: undefined,
  offeredTools: undefined,
  archived: NO_MESSAGES,
  continuations: 0,
  output: undefined,
  outputMisses: 0,
  patchedSystem: undefined,
  systemCacheWarned: false,
  toolView: undefined,
});
