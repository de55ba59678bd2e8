/**
 * The event catalogue: canonical names, every alias, and which hook kinds
 * each event accepts. This module is data only; payload types live in `payloads.ts`.
 */

export const EVENT_NAMES = [
  "session_start",
  "session_end",
  "run_start",
  "step_start",
  "model_request",
  "model_response",
  "model_error",
  "model_turn_finished",
  "tool_call",
  "tool_result",
  "tool_error",
  "invalid_tool_call",
  "step_end",
  "run_end",
  "pre_compact",
  "approval_request",
  "agent_spawn",
  "agent_complete",
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
  "activation",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export type HookKind = "inspect" | "decide" | "transform";

/** Every other accepted name for an event, mapped to the canonical one. */
export const EVENT_ALIASES: Readonly<Record<string, EventName>> = {
  turn_start: "run_start",
  user_prompt: "run_start",
  on_request_start: "run_start",
  pre_turn: "run_start",
  on_pre_llm: "step_start",
  pre_api_request: "model_request",
  completion_call: "model_request",
  pre_llm_call: "model_request",
  post_api_request: "model_response",
  completion_response: "model_response",
  error: "model_error",
  tool_start: "tool_call",
  pre_tool_use: "tool_call",
  on_pre_tool_use: "tool_call",
  tool_end: "tool_result",
  post_tool_use: "tool_result",
  on_post_tool_use: "tool_result",
  on_iteration_end: "step_end",
  turn_end: "run_end",
  on_completion: "run_end",
  stop: "run_end",
};

/** Which hook kinds each event accepts. */
export const EVENT_KINDS: Readonly<Record<EventName, readonly HookKind[]>> = {
  session_start: ["transform", "inspect"],
  session_end: ["inspect"],
  run_start: ["transform", "decide", "inspect"],
  step_start: ["transform", "inspect"],
  model_request: ["transform", "decide", "inspect"],
  model_response: ["inspect"],
  model_error: ["transform", "inspect"],
  model_turn_finished: ["inspect"],
  tool_call: ["transform", "decide", "inspect"],
  tool_result: ["transform", "inspect"],
  tool_error: ["transform", "inspect"],
  invalid_tool_call: ["transform", "inspect"],
  step_end: ["transform", "inspect"],
  run_end: ["transform", "decide", "inspect"],
  pre_compact: ["transform", "decide", "inspect"],
  approval_request: ["transform", "inspect"],
  agent_spawn: ["decide", "inspect"],
  agent_complete: ["inspect"],
  text_delta: ["inspect"],
  reasoning_delta: ["inspect"],
  tool_call_delta: ["inspect"],
  activation: ["transform", "inspect"],
};

/** Events whose hooks get a `match` pattern over tool names. */
export const TOOL_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  "tool_call",
  "tool_result",
  "tool_error",
  "invalid_tool_call",
  "approval_request",
]);

/** High-frequency streaming events: hooks opt in by registering for them explicitly. */
export const DELTA_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
]);

const canonical = new Set<string>(EVENT_NAMES);

export function isEventName(name: string): name is EventName {
  return canonical.has(name);
}

/** Canonical name of an event or alias; `undefined` when the name is unknown. */
export function canonicalEventName(name: string): EventName | undefined {
  if (canonical.has(name)) return name as EventName;
  // Own keys only: "toString" or "__proto__" must not resolve through Object.prototype.
  return Object.hasOwn(EVENT_ALIASES, name) ? EVENT_ALIASES[name] : undefined;
}

/** Every accepted spelling (canonical names and aliases), for error messages and schemas. */
export const ALL_EVENT_SPELLINGS: readonly string[] = [...EVENT_NAMES, ...Object.keys(EVENT_ALIASES)];
