/**
 * `flow.*`: what a hook returns. A hook never receives `next()`; it returns a decision
 * (or `undefined` to continue), so nothing can silently drop the rest of the chain.
 */
import type { ModelMessage } from "../events/payloads.js";
import type { LanguageModel } from "../models/language-model.js";
import type { RequestPatch } from "./request-patch.js";

export type FlowPatch = { readonly type: "patch"; readonly patch: RequestPatch };
export type FlowRewriteArgs = { readonly type: "rewriteArgs"; readonly args: unknown };
export type FlowRewriteResult = { readonly type: "rewriteResult"; readonly result: unknown };
export type FlowSkip = { readonly type: "skip"; readonly result: unknown };
export type FlowAllow = { readonly type: "allow" };
export type FlowDeny = { readonly type: "deny"; readonly reason: string };
export type FlowAsk = { readonly type: "ask"; readonly request: { reason?: string } };
export type FlowTerminate = { readonly type: "terminate"; readonly reason: string };
export type FlowRetry = { readonly type: "retry"; readonly feedback?: string };
export type FlowRepair = { readonly type: "repair"; readonly call: { toolName?: string; args: unknown } };
export type FlowRewriteInput = { readonly type: "rewriteInput"; readonly input: string };
export type FlowRewriteOutput = { readonly type: "rewriteOutput"; readonly output: string };
export type FlowInject = { readonly type: "inject"; readonly messages: readonly ModelMessage[] };
export type FlowFallback = { readonly type: "fallback"; readonly model: LanguageModel | string };

export type Flow =
  | FlowPatch
  | FlowRewriteArgs
  | FlowRewriteResult
  | FlowSkip
  | FlowAllow
  | FlowDeny
  | FlowAsk
  | FlowTerminate
  | FlowRetry
  | FlowRepair
  | FlowRewriteInput
  | FlowRewriteOutput
  | FlowInject
  | FlowFallback;

export type FlowType = Flow["type"];

export const flow = {
  /** `model_request`: change this attempt's outbound request. */
  patch: (patch: RequestPatch): FlowPatch => ({ type: "patch", patch }),
  /** `tool_call`: run the tool with these arguments (validated against its schema first). */
  rewriteArgs: (args: unknown): FlowRewriteArgs => ({ type: "rewriteArgs", args }),
  /** `tool_result` / `tool_error`: the model sees this result instead. */
  rewriteResult: (result: unknown): FlowRewriteResult => ({ type: "rewriteResult", result }),
  /** `tool_call` / `invalid_tool_call`: do not run the tool; the model gets `result` verbatim. */
  skip: (result: unknown): FlowSkip => ({ type: "skip", result }),
  allow: (): FlowAllow => ({ type: "allow" }),
  deny: (reason: string): FlowDeny => ({ type: "deny", reason }),
  /** `tool_call` decide: ask a human (or an `approval_request` hook). */
  ask: (request: { reason?: string } = {}): FlowAsk => ({ type: "ask", request }),
  /** End the run with outcome `terminated`; nothing half-done is committed. */
  terminate: (reason: string): FlowTerminate => ({ type: "terminate", reason }),
  /** `invalid_tool_call`: re-ask the model with feedback; `model_error`: retry the attempt. */
  retry: (feedback?: string): FlowRetry =>
    feedback === undefined ? { type: "retry" } : { type: "retry", feedback },
  /** `invalid_tool_call`: run this call instead. */
  repair: (call: { toolName?: string; args: unknown }): FlowRepair => ({ type: "repair", call }),
  /** `run_start`: replace the user's input. */
  rewriteInput: (input: string): FlowRewriteInput => ({ type: "rewriteInput", input }),
  /** `run_end`: replace the final output. */
  rewriteOutput: (output: string): FlowRewriteOutput => ({ type: "rewriteOutput", output }),
  /** `session_start` / `run_start` / `step_start` / `step_end`: add messages to the transcript. */
  inject: (messages: ModelMessage | readonly ModelMessage[]): FlowInject => ({
    type: "inject",
    messages: Array.isArray(messages) ? messages : [messages as ModelMessage],
  }),
  /** `model_error`: retry this step on another model. */
  fallback: (model: LanguageModel | string): FlowFallback => ({ type: "fallback", model }),
} as const;
