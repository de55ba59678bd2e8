/** Per-run bookkeeping shared by the loop's pieces: identity, scratchpads, trace, results. */
import type { ContextMeter } from "../context/context-meter.js";
import type { EventName } from "../events/catalogue.js";
import type { EventPayload, ModelMessage, ModelRequest } from "../events/payloads.js";
import type { HookContext, HookLogger, HookModel } from "../hooks/hook-context.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import { OperationContext } from "../hooks/operation-context.js";
import type { Scratchpad } from "../hooks/scratchpad.js";
import type { RunTelemetry } from "../telemetry/run-telemetry.js";
import type { HookContextView } from "../tools/tool-context.js";
import type { ApprovalCall, ApprovalOutcome, PendingCall, ResultOutcome } from "./batch/types.js";
import type { SplitInput } from "./run-input.js";
import type { AgentEvent, StepRecord, Usage } from "./run-result.js";
import type { PromptBuilder } from "./to-prompt.js";
import type { LoopRuntime, RunEnd, StepRequestOutcome } from "./types.js";

/** A registry and its owner's depth in `agentPath` (0 = the top-level agent). */
export interface GoverningRegistry {
  readonly registry: HookRegistry;
  readonly depth: number;
}

/**
 * What the loop needs of the approval flow: approvals/ implements it and `createAgent` hands
 * it to every run. The loop never imports approvals/, which builds on the loop (a resume
 * drives it).
 */
export interface ApprovalFlow {
  /** An `ask` decision for one call: the channel approves, denies, or leaves it pending. */
  ask(runtime: LoopRuntime, state: RunState, call: ApprovalCall): Promise<ApprovalOutcome>;
  /** Ends the run as `suspended`: its batch has calls waiting for a human. */
  suspend(
    runtime: LoopRuntime,
    state: RunState,
    requested: Extract<StepRequestOutcome, { kind: "turn" }>,
    outcomes: readonly (ResultOutcome | PendingCall)[],
    text: string,
  ): RunEnd;
  /** A stored session waiting on a suspended run takes no new run: the end saying so, if it waits. */
  waiting(runtime: LoopRuntime, state: RunState): Promise<RunEnd | undefined>;
}

export interface RunState {
  readonly runId: string;
  readonly sessionId: string;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  /** The hook registries dispatched to: a sub-agent's start with its ancestors'. */
  readonly registries: readonly GoverningRegistry[];
  readonly isStreaming: boolean;
  readonly signal: AbortSignal;
  readonly log: HookLogger;
  readonly runner: HookRunner;
  /** The run's spans; undefined when nothing records them (telemetry off, no tracer provider). */
  readonly telemetry: RunTelemetry | undefined;
  /** Asks for approvals and suspends the run (approvals/ implements it). */
  readonly approvals: ApprovalFlow;
  readonly sessionScratch: Scratchpad;
  readonly runScratch: Scratchpad;
  /** The current step's scope; a new step sets undefined and the next read makes a fresh one. */
  get stepScratch(): Scratchpad;
  set stepScratch(scratch: Scratchpad | undefined);
  step: number;
  /** The session transcript; committed messages are never mutated, only appended. */
  messages: ModelMessage[];
  /** Index in `messages` of this run's user message. */
  userMessageIndex: number;
  input: string;
  /** The run's input message with its parts (text, images, files), when it had parts. */
  inputParts?: SplitInput;
  /** The run's index in its session (0 = first run). */
  turn: number;
  /** The function names this step's request offered, when a patch narrowed them (activeTools). */
  offeredTools?: ReadonlySet<string>;
  /**
   * The requests sent, in order, once the steps are settled (step-slots.ts `settleSteps`).
   * Shared and empty (`NO_REQUESTS`) until the run records one: add with `ownRequests`.
   */
  requests: ModelRequest[];
  /**
   * The step records, once settled: committed steps wait as slots chained from `lastStep`.
   * Shared and empty (`NO_STEPS`) until the run settles one: add with `ownSteps`.
   */
  steps: StepRecord[];
  /** The last committed step not settled yet, as slots (step-slots.ts). */
  lastStep: unknown[] | undefined;
  /** The last request sent, until the next one or its step's settlement records it (step-slots.ts). */
  lastRequest: ModelRequest | undefined;
  /**
   * How many messages `lastRequest` sent while its history is the live transcript itself
   * (`messages === state.messages`: nothing but the loop reads it before it is recorded;
   * step-slots.ts `detachHistory` makes it a list of its own).
   */
  sentLength: number;
  readonly usage: Usage;
  /** Token accounting of the context window (`ctx.contextWindow`). */
  readonly meter: ContextMeter;
  /** The agent's model for hooks (`ctx.model`). */
  readonly model: HookModel;
  /**
   * Messages compaction removed during this run; saved with the session. Replaced, never
   * written to (a run that compacts nothing shares `NO_MESSAGES`).
   */
  archived: readonly ModelMessage[];
  emit(event: AgentEvent): void;
  /** The run's provider prompts, built step after step (to-prompt.ts). */
  readonly prompts: PromptBuilder;
  /** How many times a `run_end` hook sent this run back to work (`flow.retry`). */
  continuations: number;
  /** The final answer's validated value (an agent with an `output` schema). */
  output?: unknown;
  /** Final answers that missed the `output` schema so far. */
  outputMisses: number;
  /**
   * The system prompt the last attempt's hooks patched in: one that changes between
   * attempts defeats the provider's prompt cache, and is warned about once per run.
   */
  patchedSystem: string | undefined;
  systemCacheWarned: boolean;
  /** What the current step's tools see of the run (made by their first call; see batch/calling-run.ts). */
  toolView?: HookContextView;
}

/** The empty list a run's lists start as until something is added (frozen: shared by every run). */
export const NO_MESSAGES: readonly ModelMessage[] = Object.freeze([]);

/** The requests of a run that recorded none yet (frozen; shared by every such run). */
export const NO_REQUESTS: ModelRequest[] = Object.freeze([]) as unknown as ModelRequest[];
/** The steps of a run that settled none yet (frozen; shared by every such run). */
export const NO_STEPS: StepRecord[] = Object.freeze([]) as unknown as StepRecord[];

/** The run's own list of requests, to add to (made at the first). */
export function ownRequests(state: Pick<RunState, "requests">): ModelRequest[] {
  if (state.requests === NO_REQUESTS) state.requests = [];
  return state.requests;
}

/** The run's own list of step records, to add to (made at the first). */
export function ownSteps(state: Pick<RunState, "steps">): StepRecord[] {
  if (state.steps === NO_STEPS) state.steps = [];
  return state.steps;
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
