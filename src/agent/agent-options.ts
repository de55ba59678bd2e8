/** Options of `createAgent` (DESIGN §11) and of one run. */

import type { ModelMessage, ToolChoice } from "../events/payloads.js";
import type { AnyHook } from "../hooks/define-hook.js";
import type { HookLogger } from "../hooks/hook-context.js";
import type { LanguageModel } from "../models/language-model.js";
import type { Policy } from "../policy/policy.js";
import type { SessionOptions } from "../sessions/session-lease.js";
import type { StateStore } from "../state/state-store.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import type { ToolDefinition } from "../tools/tool.js";
import type { RetryOptions } from "./backoff.js";
import type { Agent } from "./create-agent.js";

export interface ApprovalRequest {
  approvalId: string;
  toolName: string;
  qualifiedName: string;
  toolCallId: string;
  args: unknown;
  reason?: string;
}

export type ApprovalAnswer = boolean | { approved: boolean; reason?: string };

/**
 * The approval channel (DESIGN §7b). An `ask` that no `approval_request` hook answered goes
 * to `handler` when there is one; otherwise the run suspends (`outcome: "suspended"`) and
 * `agent.resume(runId, decisions)` continues it later, in any process sharing the store.
 */
export interface ApprovalOptions {
  /** Decides in-process: receives the full tool call, returns approve / deny (or a reason). */
  handler?(request: ApprovalRequest): ApprovalAnswer | Promise<ApprovalAnswer>;
  /**
   * How long a pending approval can be approved, in ms (config: `approval_ttl`, seconds).
   * Default 24 h. After it, the call can still be denied, never approved.
   */
  ttlMs?: number;
  /**
   * Suspend when no handler answers (default true). With `false` an unanswered ask is
   * denied, and an `askUser` policy without a handler is a construction-time error.
   */
  suspend?: boolean;
  /**
   * HMAC key that signs approval tokens and binding hashes. Default: the environment's
   * `HOOKWISE_APPROVAL_KEY`. Without a key, no tokens are issued. Never logged.
   */
  key?: string | Uint8Array;
}

/** A decision for a pending approval: by id (whoever holds the agent), or by a signed token (a client). */
export type ApprovalDecision =
  | { id: string; approved: boolean; reason?: string }
  | { token: string; approved: boolean; reason?: string };

export interface AgentOptions {
  /** Default "agent". The first element of every event's `agentPath`. */
  name?: string;
  model: LanguageModel;
  instructions?: string;
  /** Tools by function name (`tool()` or plain objects), or tools already resolved from toolsets. */
  tools?: Record<string, ToolDefinition> | readonly ResolvedTool[];
  /**
   * Sub-agents by id: each is the tool `agents.<id>` (function `agents_<id>`, input
   * `{ task }`), run under this agent's hooks and policies as well as its own (DESIGN §5).
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
  retry?: RetryOptions;
  /** Sessions and hook bookkeeping. Default: a new in-memory store. */
  store?: StateStore;
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
