/** Options of `createAgent` (DESIGN §11) and of one run. */

import type { ToolChoice } from "../events/payloads.js";
import type { AnyHook } from "../hooks/define-hook.js";
import type { HookLogger } from "../hooks/hook-context.js";
import type { LanguageModel } from "../models/language-model.js";
import type { Policy } from "../policy/policy.js";
import type { StateStore } from "../state/state-store.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import type { ToolDefinition } from "../tools/tool.js";
import type { RetryOptions } from "./backoff.js";

export interface ApprovalRequest {
  approvalId: string;
  toolName: string;
  qualifiedName: string;
  toolCallId: string;
  args: unknown;
  reason?: string;
}

export type ApprovalAnswer = boolean | { approved: boolean; reason?: string };

export interface AgentOptions {
  /** Default "agent". The first element of every event's `agentPath`. */
  name?: string;
  model: LanguageModel;
  instructions?: string;
  /** Tools by function name (`tool()` or plain objects), or tools already resolved from toolsets. */
  tools?: Record<string, ToolDefinition> | readonly ResolvedTool[];
  hooks?: readonly AnyHook[];
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
  logger?: HookLogger;
  /** The approval channel for `ask` decisions that no `approval_request` hook answered. */
  approvals?: { handler(request: ApprovalRequest): ApprovalAnswer | Promise<ApprovalAnswer> };
  /** Resolves a model named by a `flow.fallback("name")`. */
  models?: Record<string, LanguageModel> | ((name: string) => LanguageModel | undefined);
  temperature?: number;
  maxOutputTokens?: number;
  toolChoice?: ToolChoice;
  providerOptions?: Record<string, Record<string, unknown>>;
}

export interface RunOptions {
  sessionId?: string;
  signal?: AbortSignal;
}
