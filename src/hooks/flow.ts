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
/**
 * `handler` (a policy's `askUser` handler) answers this ask before the agent's approval
 * channel; it runs outside the hook timeout, since a human may take long.
 */
export type AskRequest = {
  reason?: string;
  handler?: (call: {
    toolName: string;
    qualifiedName: string;
    toolCallId: string;
    args: unknown;
  }) => boolean | Promise<boolean>;
};
export type FlowAsk = { readonly type: "ask"; readonly request: AskRequest };
export type FlowTerminate = { readonly type: "terminate"; readonly reason: string };
export type FlowRetry = { readonly type: "retry"; readonly feedback?: string };
export type FlowRepair = { readonly type: "repair"; readonly call: { toolName?: string; args: unknown } };
export type FlowRewriteInput = { readonly type: "rewriteInput"; readonly input: string };
export type FlowRewriteOutput = { readonly type: "rewriteOutput"; readonly output: string };
export type FlowInject = { readonly type: "inject"; readonly messages: readonly ModelMessage[] };
export type FlowFallback = { readonly type: "fallback"; readonly model: LanguageModel | string };

/**
 * One change to messages already in the transcript. Targets are message objects the hook
 * read from `ctx.messages` (found by identity, so an earlier edit shifting indices does not
 * misplace a later one). An edit must not leave a tool call without its result, or a result
 * without its call (it fails closed).
 */
export type MessageEdit =
  | {
      /** An update in place: `messages` take the place of the first target; the targets go. */
      readonly kind: "replace";
      readonly targets: readonly ModelMessage[];
      readonly messages: readonly ModelMessage[];
    }
  | {
      /**
       * A compaction: the loop first fires `pre_compact` (a decide hook may veto it, a
       * transform may skip it); then `replacement` takes the place of the first removed
       * message and the removed messages are archived with the session (nothing is lost;
       * one the replacement puts back was moved, and is not archived). A function is
       * called only once no hook vetoed, so a summary is never made in vain.
       */
      readonly kind: "compact";
      readonly remove: readonly ModelMessage[];
      readonly replacement:
        | readonly ModelMessage[]
        | ((removed: readonly ModelMessage[]) => readonly ModelMessage[] | Promise<readonly ModelMessage[]>);
      /** Why, for the trace and logs. */
      readonly reason?: string;
    };

/** Edits of the transcript, applied in order; `append` is added at the end like `flow.inject`. */
export type FlowEditMessages = {
  readonly type: "editMessages";
  readonly edits: readonly MessageEdit[];
  readonly append?: readonly ModelMessage[];
};

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
  | FlowFallback
  | FlowEditMessages;

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
  ask: (request: AskRequest = {}): FlowAsk => ({ type: "ask", request }),
  /** End the run with outcome `terminated`; nothing half-done is committed. */
  terminate: (reason: string): FlowTerminate => ({ type: "terminate", reason }),
  /**
   * `invalid_tool_call`: re-ask the model with feedback; `model_error`: retry the attempt;
   * `run_end` (a completed run): do not finish yet — `feedback` (default "Continue.") is
   * appended as a user message and the run takes another step, counted against `maxSteps`.
   * The next `run_end` payload's `continuations` says how often this happened in the run.
   */
  retry: (feedback?: string): FlowRetry =>
    feedback === undefined ? { type: "retry" } : { type: "retry", feedback },
  /** `invalid_tool_call`: run this call instead. */
  repair: (call: { toolName?: string; args: unknown }): FlowRepair => ({ type: "repair", call }),
  /** `run_start`: replace the user's input. */
  rewriteInput: (input: string): FlowRewriteInput => ({ type: "rewriteInput", input }),
  /** `run_end`: replace the final output. */
  rewriteOutput: (output: string): FlowRewriteOutput => ({ type: "rewriteOutput", output }),
  /**
   * `session_start` / `run_start` / `step_start` / `step_end` / `run_end`: add messages to the
   * transcript (on `run_end`, after the final answer: the session's next run sees them).
   */
  inject: (messages: ModelMessage | readonly ModelMessage[]): FlowInject => ({
    type: "inject",
    messages: Array.isArray(messages) ? messages : [messages as ModelMessage],
  }),
  /**
   * `run_start` / `step_start` / `step_end` / `run_end`: update transcript messages in
   * place (`targets`, objects from `ctx.messages`, are replaced by `messages`, which take the
   * first target's place). Persisted, not archived: for a refreshed injection, not for
   * removing history (that is `flow.compact`).
   */
  replaceMessages: (
    targets: ModelMessage | readonly ModelMessage[],
    messages: ModelMessage | readonly ModelMessage[],
  ): FlowEditMessages => ({
    type: "editMessages",
    edits: [{ kind: "replace", targets: listOf(targets), messages: listOf(messages) }],
  }),
  /**
   * `run_start` / `step_start` / `step_end` / `run_end`: compact the transcript. `pre_compact`
   * fires first (veto / skip); the removed messages are archived with the session.
   */
  compact: (compaction: Omit<Extract<MessageEdit, { kind: "compact" }>, "kind">): FlowEditMessages => ({
    type: "editMessages",
    edits: [{ kind: "compact", ...compaction }],
  }),
  /** `model_error`: retry this step on another model. */
  fallback: (model: LanguageModel | string): FlowFallback => ({ type: "fallback", model }),
} as const;

function listOf(messages: ModelMessage | readonly ModelMessage[]): readonly ModelMessage[] {
  return Array.isArray(messages) ? messages : [messages as ModelMessage];
}
