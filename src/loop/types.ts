/**
 * Types the loop's files share, and what the rooms above it (approvals/, agent/) hand it.
 * The loop never imports agent/: `LoopRuntime` is the runtime as the loop reads it, and
 * agent/'s `LoopRuntime` extends it with the options the agent was made from.
 */

import type { ModelMessage, ModelRequest, ToolChoice, ToolSpec } from "../events/payloads.js";
import type { HookContext, HookLogger } from "../hooks/hook-context.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { Scratchpad } from "../hooks/scratchpad.js";
import type { LanguageModel, ModelTurn } from "../models/language-model.js";
import type { ResolvedSessionOptions } from "../sessions/session-lease.js";
import type { StateStore, StoreWrite } from "../state/state-store.js";
import type { TelemetrySettings } from "../telemetry/types.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import type { RetryOptions } from "./backoff.js";
import type { PendingApproval, RunOutcome, RunResult } from "./run-result.js";
import type { OutputSpec } from "./structured-output.js";

/** The agent's options the loop reads (as `AgentOptions` documents them). */
export interface RunSettings {
  instructions?: string;
  toolChoice?: ToolChoice;
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: Record<string, Record<string, unknown>>;
  models?: Record<string, LanguageModel> | ((name: string) => LanguageModel | undefined);
  contextWindow?: number;
  /**
   * Prompt-cache breakpoints for providers that want them marked (Anthropic, Claude on
   * Bedrock): `auto` (default) marks the end of the stable history, `off` marks nothing.
   */
  cache?: { breakpoints?: "auto" | "off" };
}

/** An agent's options resolved once at `createAgent`: tools named, hooks indexed, defaults set. */
export interface LoopRuntime {
  readonly name: string;
  readonly model: LanguageModel;
  readonly options: RunSettings;
  readonly tools: readonly ResolvedTool[];
  /** The tools as requests carry them, built once. */
  readonly toolSpecs: readonly ToolSpec[];
  /** By function name (what the model calls). */
  readonly toolsByName: ReadonlyMap<string, ResolvedTool>;
  /** Qualified and function names → function name. */
  readonly canonicalTool: (name: string) => string;
  readonly registry: HookRegistry;
  readonly toolConcurrency: number;
  readonly maxSteps: number;
  readonly maxRetries: number;
  readonly retry: RetryOptions;
  readonly store: StateStore;
  /** How runs of one session take turns (waits, lease, one-shot sessions' lifetime). */
  readonly sessions: ResolvedSessionOptions;
  readonly log: HookLogger;
  /** Session scratchpads live in the process, keyed by session id. */
  readonly sessionScratch: Map<string, Scratchpad>;
  /** `provider:modelId` of `model` (how requests name it). */
  readonly modelLabel: string;
  /** Room made up front for a run's trace: the longest trace of this agent's runs so far. */
  traceCapacity: number;
  /** Spans for this agent's runs; undefined: telemetry is off and the loop calls none of it. */
  readonly telemetry?: TelemetrySettings;
  /** The final answer's schema (`output`), when the agent has one. */
  readonly output?: OutputSpec;
  /**
   * Told every answer a provider gave one of this agent's own runs (not its sub-agents'),
   * as it is accepted and before its hooks see it: how a recording agent keeps each attempt
   * without a hook, so a run pays no event, trace entry or history copy for it.
   */
  onAnswer?: (answer: ModelAnswer) => void;
  /**
   * Told as each step of one of this agent's own runs begins, before its `step_start` hooks,
   * with where the step's hooks begin in the run's trace (`RunResult.events`): how a
   * recording agent places hook decisions by step without a hook of its own.
   */
  onStepStart?: (runId: string, at: number) => void;
  /**
   * Told as a tool call of one of this agent's own runs reaches its `tool_call` hooks (its
   * tool resolved), with where the call's hooks begin in the run's trace.
   */
  onToolCallStart?: (runId: string, toolCallId: string, at: number) => void;
  /**
   * Told when a run of this agent that began its steps ends without a result: its session's
   * commit refused or its store failing. What was kept for the run from `onStepStart`,
   * `onToolCallStart` and `onAnswer` can go (its result, which would have taken it, never comes).
   */
  onRunFailed?: (runId: string) => void;
  /**
   * Asked, when the store commits extra writes with a session (`saveSessionWith`), for what
   * to write with the commit of one of this agent's own runs (not a resumed one): how a
   * recording agent writes a run's record in its session's transaction. Told the result
   * the run will resolve to, its start and its input's text.
   */
  onCommit?: (result: RunResult, run: { startedAt: number; input: string }) => StoreWrite[] | undefined;
}

/** An attempt's answer, as `LoopRuntime.onAnswer` is told it. */
export interface ModelAnswer {
  runId: string;
  /** The step (0-based) and attempt (1-based) it answered. */
  step: number;
  attempt: number;
  /** The model the attempt went to, as its request names it (`provider:modelId`; a fallback shows here). */
  model: string | undefined;
  turn: ModelTurn;
}

export interface RunOptions {
  sessionId?: string;
  signal?: AbortSignal;
  /**
   * The transcript to continue, instead of the stored session's (a stateless server passes
   * back what its client holds: `RunResult.messages` of the previous run). Messages a
   * compaction archived in the store stay archived. With messages, the run is not a new
   * session (`session_start` does not fire) unless the list is empty.
   */
  messages?: readonly ModelMessage[];
}

/** `stream()`'s options: a run's, and what the stream carries. */
export interface StreamOptions extends RunOptions {
  /**
   * Whether each hook firing is also a `hook` event in the stream. Default true. With many
   * hooks a stream carries a `hook` event per hook per event; a consumer that only shows
   * text and tools can leave them out (and their cost: each is one step of `for await`).
   * The run's trace (`RunResult.events`) keeps every firing either way.
   */
  hookEvents?: boolean;
}

/** How a run ended, before `finishRun` turns it into its RunResult. */
export interface RunEnd {
  outcome: RunOutcome;
  text: string;
  reason?: string;
  hook?: string;
  error?: Error;
  /** `suspended`: the approvals waited for. */
  approvals?: PendingApproval[];
  /**
   * `suspended`: writes the suspended run to the store. `finishRun` calls it once the run's
   * inspections settled, so the saved trace is complete.
   */
  saveSuspension?: (oneShot: boolean) => Promise<void>;
}

export type StepRequestOutcome =
  | {
      kind: "turn";
      turn: ModelTurn;
      request: ModelRequest;
      attempts: number;
      /** The baseline's history: a snapshot of the transcript this attempt was built from. */
      sent: readonly ModelMessage[];
      /** The accepted attempt's hook context (one model call: one operation), made on first need. */
      context?: { context(): HookContext };
    }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "error"; error: Error; hook?: string };
