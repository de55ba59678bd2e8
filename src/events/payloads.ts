/**
 * Event payloads. Every event has `type` (its canonical name) and
 * `agentPath` (the agent lineage, e.g. ["main", "reviewer"]).
 */
import type { ModelMessage } from "@ai-sdk/provider-utils";
import type { EventName } from "./catalogue.js";

export type { ModelMessage };

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; toolName: string };

/** A provider request as hooks see it and as `RunResult.requests` records it. */
export interface ModelRequest {
  step: number;
  attempt: number;
  system: string | undefined;
  messages: readonly ModelMessage[];
  tools: readonly ToolSpec[];
  toolChoice: ToolChoice;
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  providerOptions?: Record<string, Record<string, unknown>>;
  /** The model this attempt goes to, `provider:modelId` (a fallback shows here). */
  model?: string;
}

export interface ToolCallSummary {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

export interface ErrorInfo {
  /** rate_limit | context_overflow | billing | timeout | auth | network | internal | … */
  type: string;
  message: string;
  status?: number;
  /** The provider's own error code or type (`context_length_exceeded`, `overloaded_error`, …). */
  code?: string;
  retryable: boolean;
}

interface Base<T extends EventName> {
  readonly type: T;
  readonly agentPath: readonly string[];
}

export interface EventPayloads {
  session_start: Base<"session_start"> & { sessionId: string };
  session_end: Base<"session_end"> & { sessionId: string; reason: string };
  run_start: Base<"run_start"> & { input: string };
  step_start: Base<"step_start"> & { step: number };
  model_request: Base<"model_request"> & {
    request: ModelRequest;
    userMessage: string;
    history: readonly ModelMessage[];
    isFirstStep: boolean;
  };
  model_response: Base<"model_response"> & {
    request: ModelRequest;
    text: string;
    toolCalls: readonly ToolCallSummary[];
    finishReason: string;
    usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  };
  model_error: Base<"model_error"> & {
    error: ErrorInfo;
    attempt: number;
    request: ModelRequest;
    cause: unknown;
  };
  model_turn_finished: Base<"model_turn_finished"> & {
    text: string;
    toolCalls: readonly ToolCallSummary[];
    content: readonly unknown[];
  };
  tool_call: Base<"tool_call"> & {
    toolName: string;
    qualifiedName: string;
    toolCallId: string;
    args: unknown;
    original?: unknown;
  };
  tool_result: Base<"tool_result"> & {
    toolName: string;
    qualifiedName: string;
    toolCallId: string;
    args: unknown;
    result: unknown;
    /** True when the tool threw (then `result` is the error text the model will see). */
    isError: boolean;
    /** The error message when the tool threw. */
    error?: string;
    original?: unknown;
  };
  tool_error: Base<"tool_error"> & {
    toolName: string;
    qualifiedName: string;
    toolCallId: string;
    args: unknown;
    error: unknown;
  };
  invalid_tool_call: Base<"invalid_tool_call"> & {
    toolName: string;
    toolCallId: string;
    args: unknown;
    reason: "unknown_tool" | "invalid_args";
    message: string;
    availableTools: readonly string[];
  };
  step_end: Base<"step_end"> & { step: number; text: string; toolCalls: readonly ToolCallSummary[] };
  run_end: Base<"run_end"> & {
    output: string;
    outcome: string;
    /** How many times a `run_end` hook sent this run back to work (`flow.retry`) so far; 0 at first. */
    continuations: number;
  };
  pre_compact: Base<"pre_compact"> & {
    /** The transcript before compaction. */
    messages: readonly ModelMessage[];
    /** Its tokens (token accounting: provider-reported where known, else estimated). */
    tokens: number;
    /** The messages the compaction would remove (archived with the session, not lost). */
    remove: readonly ModelMessage[];
  };
  approval_request: Base<"approval_request"> & {
    approvalId: string;
    /** The call waiting for the approval. */
    toolCallId: string;
    toolName: string;
    qualifiedName: string;
    args: unknown;
    reason?: string;
  };
  agent_spawn: Base<"agent_spawn"> & { agentId: string; task: string };
  agent_complete: Base<"agent_complete"> & { agentId: string; task: string; output: string; outcome: string };
  text_delta: Base<"text_delta"> & { delta: string };
  reasoning_delta: Base<"reasoning_delta"> & { delta: string };
  tool_call_delta: Base<"tool_call_delta"> & { toolCallId: string; toolName: string; delta: string };
  activation: Base<"activation"> & { source: string; message: string };
}

export type EventPayload<E extends EventName> = EventPayloads[E];

export type AnyEventPayload = EventPayloads[EventName];

/** Tool names an event is about, for `match` patterns. */
export function toolNamesOf(payload: AnyEventPayload): readonly string[] | undefined {
  if ("qualifiedName" in payload) return [payload.qualifiedName, payload.toolName];
  if (payload.type === "invalid_tool_call") return [payload.toolName];
  return undefined;
}
