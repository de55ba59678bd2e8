/**
 * The public agent's types: what `createAgent` takes and returns, and the runtime it
 * resolves. One file: an agent's options name other agents (`agents`), an agent carries its
 * runtime, and the runtime carries the options.
 */

import type { SuspendedRunSummary, SuspendedRunsOptions } from "../approvals/list-suspended-runs.js";
import type { ApprovalDecision, ApprovalOptions } from "../approvals/types.js";
import type { ToolChoice } from "../events/payloads.js";
import type { AgentHook, AnyHook } from "../hooks/define-hook.js";
import type { HookLogger } from "../hooks/hook-context.js";
import type { RetryOptions } from "../loop/backoff.js";
import type { RunInput } from "../loop/run-input.js";
import type { AgentEvent, PendingApproval, RunResult } from "../loop/run-result.js";
import type { LoopRuntime, RunOptions, StreamOptions } from "../loop/types.js";
import type { LanguageModel } from "../models/language-model.js";
import type { Policy } from "../policy/policy.js";
import type { EndSessionOptions } from "../sessions/end-session.js";
import type { SessionOptions } from "../sessions/session-lease.js";
import type { StateStore } from "../state/state-store.js";
import type { TelemetryOptions } from "../telemetry/types.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import type { AgentTool } from "../tools/tool.js";
import type { RunRecord } from "./run-record.js";

export interface AgentOptions {
  /** Default "agent". The first element of every event's `agentPath`. */
  name?: string;
  model: LanguageModel;
  instructions?: string;
  /** Tools by function name (`tool()` or plain objects), or tools already resolved from toolsets. */
  tools?: Record<string, AgentTool> | readonly ResolvedTool[];
  /**
   * Sub-agents by id: each is the tool `agents.<id>` (function `agents_<id>`, input
   * `{ task }`), run under this agent's hooks and policies as well as its own.
   * The same as adding `subAgentTool(agent, { name: id })` to `tools`.
   */
  agents?: Readonly<Record<string, Agent>>;
  hooks?: readonly AnyHook[];
  /** Timeout of every hook that sets none of its own (default 30 000 ms). A blocking hook that times out fails closed. */
  hookTimeoutMs?: number;
  policies?: readonly Policy[];
  /** How many tool calls of one step run at once. Default 1 (sequential). */
  toolConcurrency?: number;
  /** Maximum steps (model calls that are accepted) per run. Default 20. */
  maxSteps?: number;
  /** Retries of a failed provider request (each a new attempt). Default 2. */
  maxRetries?: number;
  /**
   * The final answer's schema (zod, a Standard Schema with a JSON Schema converter, the AI
   * SDK's `jsonSchema()`, or a JSON Schema): the provider is asked for JSON, the answer is
   * parsed and validated, and `result.output` holds the value. An answer that misses is sent
   * back with what was wrong (`outputRetries` times, default 2); then the run ends with
   * outcome "error" and an `OutputValidationError`.
   */
  output?: unknown;
  outputRetries?: number;
  retry?: RetryOptions;
  /** Sessions and hook bookkeeping. Default: a new in-memory store. */
  store?: StateStore;
  /**
   * Keep a record of every run in `store` (each attempt's model answer, each tool call and
   * result, each hook decision): what `hookwise trace`, `history --jsonl` and `replay` read.
   * Default: on when `store` is given and shared beyond this process (SQLite, Redis, your
   * own), off otherwise. Records are kept 30 days.
   */
  recordRuns?: boolean;
  /** Receives each run's record when it ends (whether or not it is saved). */
  onRunRecord?: (record: RunRecord) => void;
  /**
   * How runs of one session take turns — in this process and across every process sharing
   * `store`: how long a run waits for its session before failing with SessionBusyError,
   * the lease that frees the session of a process that died, how long a session started
   * without a `sessionId` is kept.
   */
  sessions?: SessionOptions;
  logger?: HookLogger;
  /** The approval channel for `ask` decisions that no `approval_request` hook answered. */
  approvals?: ApprovalOptions;
  /** Resolves a model named by a `flow.fallback("name")`. */
  models?: Record<string, LanguageModel> | ((name: string) => LanguageModel | undefined);
  temperature?: number;
  maxOutputTokens?: number;
  toolChoice?: ToolChoice;
  providerOptions?: Record<string, Record<string, unknown>>;
  /**
   * The model's context window in tokens, for token accounting (`ctx.contextWindow`,
   * `context_pressure`). Default: the known window of the model's family (gpt-4.1, gpt-4o,
   * o*, claude-*, gemini-*…), else 128 000.
   */
  contextWindow?: number;
  /**
   * The provider's prompt cache. `breakpoints: "auto"` (default) marks where the stable
   * history ends for providers that want it marked (Anthropic, Claude on Bedrock), so each
   * step reads everything before from the cache; `"off"` leaves requests unmarked.
   */
  cache?: { breakpoints?: "auto" | "off" };
  /**
   * OpenTelemetry spans for runs, steps, model calls, tool calls and every hook firing,
   * through the tracer provider you register (or `telemetry.tracer`). Off by default.
   * Prompts, completions, tool arguments and results are recorded only with
   * `recordInputs` / `recordOutputs`, and only after the hooks that rewrite them ran.
   */
  telemetry?: TelemetryOptions;
}

/**
 * An agent's options resolved once at `createAgent`: tools named, hooks indexed, defaults
 * set. The loop reads it as a `LoopRuntime`; here it keeps the options it was made from.
 */
export interface AgentRuntime extends LoopRuntime {
  readonly options: AgentOptions;
}

export interface AgentStream<OUTPUT = unknown> extends AsyncIterable<AgentEvent> {
  /** The run's result; resolves after the last event. */
  readonly result: Promise<RunResult<OUTPUT>>;
}

/**
 * The value a schema validates to: zod 3 and 4 (`_output`), or any Standard Schema
 * (`~standard.types.output`); `unknown` for a schema whose type is not known (a JSON Schema).
 */
export type OutputOf<SCHEMA> = SCHEMA extends { readonly _output: infer T }
  ? T
  : SCHEMA extends { readonly "~standard": { readonly types?: infer TYPES } }
    ? NonNullable<TYPES> extends { readonly output: infer T }
      ? T
      : unknown
    : unknown;

/**
 * An agent; `OUTPUT` is the type of `result.output` (from the `output` schema it was made
 * with), `TOOLS` the tools it was given (they type `event.args` in hooks added with `use`).
 */
export interface Agent<OUTPUT = unknown, TOOLS = unknown> {
  readonly name: string;
  /** Runs a turn: a string, or one user message with text, image and file parts. */
  run(input: RunInput, options?: RunOptions): Promise<RunResult<OUTPUT>>;
  /** `run`, surfacing events as they happen. */
  stream(input: RunInput, options?: StreamOptions): AgentStream<OUTPUT>;
  /**
   * Continues a suspended run from the StateStore, in this or any process
   * sharing it. Decisions name pending approvals by id, or carry signed tokens. Undecided
   * approvals keep the run suspended (the result lists them). Rejects with an
   * ApprovalError — having run nothing, the run still resumable — when the run is not
   * suspended, an id is unknown, a token is forged or for another call, or an approval
   * expired.
   */
  resume(
    runId: string,
    decisions: readonly ApprovalDecision[],
    options?: Pick<RunOptions, "signal">,
  ): Promise<RunResult<OUTPUT>>;
  /** `resume`, surfacing events as they happen (starts with `run-start` with `resumed: true`). */
  resumeStream(
    runId: string,
    decisions: readonly ApprovalDecision[],
    options?: Pick<StreamOptions, "signal" | "hookEvents">,
  ): AgentStream<OUTPUT>;
  /** The approvals a suspended run waits for; an ApprovalError when it is not suspended. */
  pendingApprovals(runId: string): Promise<PendingApproval[]>;
  /**
   * This agent's suspended runs in its store, oldest first, each with the approvals it
   * waits for — whichever process suspended them (an approval inbox).
   */
  suspendedRuns(options?: SuspendedRunsOptions): Promise<SuspendedRunSummary[]>;
  /**
   * Ends a session: `session_end` hooks fire (inspect), its scratchpad is dropped; the
   * transcript stays in the store unless `delete: true`.
   */
  endSession(sessionId: string, options?: EndSessionOptions): Promise<void>;
  /**
   * Registers a hook on this agent; returns its disposer. In `use(defineHook({ … }))`, a hook
   * whose `match` names one of the agent's tools gets `event.args` typed from its schema.
   */
  use(hook: AgentHook<TOOLS>): () => void;
  /** The resolved runtime (tools, hooks, store), for introspection and the CLI. */
  readonly runtime: AgentRuntime;
}
