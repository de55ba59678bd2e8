/**
 * One step's provider request, attempt by attempt (DESIGN §4, seed 004): every attempt
 * rebuilds the baseline from the transcript, re-runs `model_request` hooks, merges their
 * patches into an outbound copy, validates it locally, records it, then calls the model.
 * A failed attempt fires `model_error`; hooks may retry, fall back or terminate.
 */

import type { HookError } from "../errors/hook-error.js";
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import { mergeRequestPatches } from "../hooks/merge-request-patch.js";
import { isSupportedModel, type LanguageModel, type ModelTurn } from "../models/language-model.js";
import { abortable } from "./abortable.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { backoffDelay, sleep } from "./backoff.js";
import { applyPatch, RequestValidationError, toolSpecs, validateRequest } from "./build-request.js";
import { classifyError } from "./classify-error.js";
import { contextFor, payload, type RunState } from "./run-state.js";
import type { Surface } from "./surface.js";
import { toPrompt } from "./to-prompt.js";

export type StepRequestOutcome =
  | { kind: "turn"; turn: ModelTurn; request: ModelRequest; attempts: number }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "error"; error: Error; hook?: string };

function baseline(
  runtime: AgentRuntime,
  state: RunState,
  attempt: number,
  ephemeral: readonly ModelMessage[],
): ModelRequest {
  const options = runtime.options;
  const request: ModelRequest = {
    step: state.step,
    attempt,
    system: options.instructions,
    messages: ephemeral.length ? [...state.messages, ...ephemeral] : state.messages.slice(),
    tools: toolSpecs(runtime.tools),
    toolChoice: options.toolChoice ?? "auto",
  };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  if (options.providerOptions !== undefined) request.providerOptions = options.providerOptions;
  return request;
}

function callOptions(request: ModelRequest, signal: AbortSignal) {
  const choice = request.toolChoice;
  return {
    prompt: toPrompt(request.system, request.messages),
    tools: request.tools.length
      ? request.tools.map((tool) => ({
          type: "function" as const,
          ...tool,
          inputSchema: tool.inputSchema as never,
        }))
      : undefined,
    toolChoice: request.tools.length ? (typeof choice === "string" ? { type: choice } : choice) : undefined,
    temperature: request.temperature,
    maxOutputTokens: request.maxOutputTokens,
    topP: request.topP,
    seed: request.seed,
    stopSequences: request.stopSequences,
    providerOptions: request.providerOptions as never,
    abortSignal: signal,
  };
}

function resolveFallback(runtime: AgentRuntime, model: LanguageModel | string): LanguageModel | undefined {
  if (typeof model !== "string") return isSupportedModel(model) ? model : undefined;
  const models = runtime.options.models;
  return typeof models === "function" ? models(model) : models?.[model];
}

export async function requestStep(
  runtime: AgentRuntime,
  state: RunState,
  surface: Surface,
  ephemeral: readonly ModelMessage[],
): Promise<StepRequestOutcome> {
  let model = runtime.model;
  let retries = 0;
  for (let attempt = 1; ; attempt++) {
    const base = baseline(runtime, state, attempt, ephemeral);
    const context = contextFor(state, attempt);
    const event = payload(state, "model_request", {
      request: base,
      userMessage: state.input,
      // A snapshot: inspections read it after the transcript has moved on.
      history: state.messages.slice(),
      isFirstStep: state.step === 0,
    });
    const selection = state.runner.select(event);
    const decided = await state.runner.blocking(event, context, selection);
    if (decided.failure)
      return { kind: "error", error: decided.failure as HookError, hook: decided.failure.hook };
    const terminal = decided.terminal;
    if (terminal?.flow.type === "terminate" || terminal?.flow.type === "deny") {
      return { kind: "terminate", reason: terminal.flow.reason, hook: terminal.hook };
    }
    let request = base;
    if (decided.patches.length) {
      const merged = mergeRequestPatches(decided.patches, runtime.canonicalTool);
      for (const warning of merged.warnings) state.log.warn(warning);
      request = applyPatch(base, merged, runtime.tools, state.userMessageIndex);
      try {
        validateRequest(request, merged, base.tools);
      } catch (error) {
        if (error instanceof RequestValidationError) return { kind: "error", error, hook: error.hook };
        throw error;
      }
    } else {
      validateRequest(request, { patch: {}, setBy: {}, activeToolsBy: [], warnings: [] }, base.tools);
    }
    state.requests.push(request);
    // Inspections run after the operation (DESIGN §3): after this attempt answered or failed.
    // The payload is built field by field: on Node 20 a `{ ...event, request }` literal costs
    // about a microsecond (spread-then-property objects take a slow path); see bench/loop.
    const inspectRequest = () =>
      state.runner.inspect(
        payload(state, "model_request", {
          request,
          userMessage: event.userMessage,
          history: event.history,
          isFirstStep: event.isFirstStep,
        }),
        context,
        selection,
      );

    try {
      const pending = surface.callModel(model, callOptions(request, state.signal), (signal) => {
        if (state.signal.aborted) return;
        if (signal.type === "text-delta") {
          surface.emit({ type: "text-delta", step: state.step, delta: signal.delta });
          state.runner.inspect(payload(state, "text_delta", { delta: signal.delta }), context);
        } else if (signal.type === "reasoning-delta") {
          surface.emit({ type: "reasoning-delta", step: state.step, delta: signal.delta });
          state.runner.inspect(payload(state, "reasoning_delta", { delta: signal.delta }), context);
        } else if (signal.type === "tool-call-delta") {
          state.runner.inspect(payload(state, "tool_call_delta", { ...signal }), context);
        }
      });
      // A model that ignores its abortSignal must not keep an aborted run alive.
      const turn = await abortable(pending, state.signal);
      inspectRequest();
      const response = payload(state, "model_response", {
        request,
        text: turn.text,
        toolCalls: turn.toolCalls.map((call) => ({
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          args: call.rawInput,
        })),
        finishReason: turn.finishReason,
        usage: turn.usage,
      });
      state.runner.inspect(response, context);
      return { kind: "turn", turn, request, attempts: attempt };
    } catch (error) {
      inspectRequest();
      if (state.signal.aborted) return { kind: "error", error: abortError(state.signal) };
      const info = classifyError(error);
      const errorEvent = payload(state, "model_error", { error: info, attempt, request, cause: error });
      const handled = await state.runner.blocking(errorEvent, context);
      state.runner.inspect(errorEvent, context);
      const flow = handled.terminal?.flow;
      if (flow?.type === "terminate")
        return { kind: "terminate", reason: flow.reason, hook: handled.terminal!.hook };
      if (flow?.type === "fallback") {
        const next = resolveFallback(runtime, flow.model);
        if (!next) {
          return {
            kind: "error",
            error: new Error(`fallback model ${String(flow.model)} is not known`),
            hook: handled.terminal!.hook,
          };
        }
        model = next;
        continue;
      }
      const wantsRetry = flow?.type === "retry" || (handled.failure === undefined && info.retryable);
      if (!wantsRetry || retries >= runtime.maxRetries) {
        return { kind: "error", error: error instanceof Error ? error : new Error(String(error)) };
      }
      retries++;
      try {
        await sleep(backoffDelay(retries, error, runtime.retry), state.signal);
      } catch {
        return { kind: "error", error: abortError(state.signal) };
      }
    }
  }
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === "string" ? reason : "the run was aborted");
  error.name = "AbortError";
  return error;
}
