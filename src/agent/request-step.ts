/**
 * One step's provider request, attempt by attempt (DESIGN §4, seed 004): every attempt
 * rebuilds the baseline from the transcript, re-runs `model_request` hooks, merges their
 * patches into an outbound copy, validates it locally, records it, then calls the model.
 * A failed attempt fires `model_error`; hooks may retry, fall back or terminate.
 */

import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { HookError } from "../errors/hook-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { ErrorInfo, EventPayload, ModelMessage, ModelRequest, ToolSpec } from "../events/payloads.js";
import type { HookContext } from "../hooks/hook-context.js";
import { EMPTY_SELECTION, type HookSelection } from "../hooks/hook-registry.js";
import { mergeRequestPatches } from "../hooks/merge-request-patch.js";
import { isSupportedModel, type LanguageModel, type ModelTurn } from "../models/language-model.js";
import { ModelError } from "../models/model-error.js";
import { modelLabel, modelSettings } from "../models/model-settings.js";
import { abortable } from "./abortable.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { backoffDelay, sleep } from "./backoff.js";
import { applyPatch, RequestValidationError, validateRequest } from "./build-request.js";
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
  model: string,
): ModelRequest {
  const options = runtime.options;
  const request: ModelRequest = {
    step: state.step,
    attempt,
    system: options.instructions,
    messages: ephemeral.length ? [...state.messages, ...ephemeral] : state.messages.slice(),
    tools: runtime.toolSpecs,
    toolChoice: options.toolChoice ?? "auto",
    model,
  };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  if (options.providerOptions !== undefined) request.providerOptions = options.providerOptions;
  return request;
}

const NO_PATCH = { patch: {}, setBy: {}, activeToolsBy: [], warnings: [] };

/** Provider tool lists, made once per tool-spec list (the agent's list is shared by every step). */
const providerTools = new WeakMap<readonly ToolSpec[], LanguageModelV3FunctionTool[]>();

function providerToolsOf(tools: readonly ToolSpec[]): LanguageModelV3FunctionTool[] {
  let converted = providerTools.get(tools);
  if (converted === undefined) {
    converted = tools.map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    }));
    providerTools.set(tools, converted);
  }
  return converted;
}

function callOptions(request: ModelRequest, signal: AbortSignal) {
  const choice = request.toolChoice;
  return {
    prompt: toPrompt(request.system, request.messages),
    tools: request.tools.length ? providerToolsOf(request.tools) : undefined,
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
  let label = modelLabel(model);
  // Retries of the current model; a fallback starts its own count.
  let retries = 0;
  // The models this step has used; made on the first failure (the common path never needs it).
  let tried: Set<LanguageModel> | undefined;
  const switchTo = (next: LanguageModel) => {
    model = next;
    label = modelLabel(next);
    retries = 0;
    tried?.add(next);
  };
  for (let attempt = 1; ; attempt++) {
    const base = baseline(runtime, state, attempt, ephemeral, label);
    // Made when a hook first needs it: an attempt nobody hooks builds no context.
    let hookContext: HookContext | undefined;
    const context = () => (hookContext ??= contextFor(state, attempt));
    let request = base;
    let event: EventPayload<"model_request"> | undefined;
    let selection: HookSelection = EMPTY_SELECTION;
    if (state.runner.wants("model_request")) {
      event = payload(state, "model_request", {
        request: base,
        userMessage: state.input,
        // A snapshot: inspections read it after the transcript has moved on.
        history: state.messages.slice(),
        isFirstStep: state.step === 0,
      });
      selection = state.runner.select(event);
      // Transforms see the baseline and accumulate patches...
      const patching = state.runner.dispatch(event, context(), {
        transforms: selection.transforms,
        decides: EMPTY_SELECTION.decides,
        inspects: EMPTY_SELECTION.inspects,
      });
      const patched = patching instanceof Promise ? await patching : patching;
      if (patched.failure)
        return { kind: "error", error: patched.failure as HookError, hook: patched.failure.hook };
      if (patched.terminal?.flow.type === "terminate") {
        return { kind: "terminate", reason: patched.terminal.flow.reason, hook: patched.terminal.hook };
      }
      if (patched.patches.length) {
        const merged = mergeRequestPatches(patched.patches, runtime.canonicalTool);
        for (const warning of merged.warnings) state.log.warn(warning);
        request = applyPatch(base, merged, runtime.tools, state.userMessageIndex);
        try {
          validateRequest(request, merged, base.tools);
        } catch (error) {
          if (error instanceof RequestValidationError) return { kind: "error", error, hook: error.hook };
          throw error;
        }
      }
      // ...and decides judge the request that will really be sent (TOCTOU-safe, DESIGN §3).
      if (selection.decides.length) {
        const effective = payload(state, "model_request", {
          request,
          userMessage: event.userMessage,
          history: event.history,
          isFirstStep: event.isFirstStep,
        });
        const deciding = state.runner.dispatch(effective, context(), {
          transforms: EMPTY_SELECTION.transforms,
          decides: selection.decides,
          inspects: EMPTY_SELECTION.inspects,
        });
        const decided = deciding instanceof Promise ? await deciding : deciding;
        if (decided.failure)
          return { kind: "error", error: decided.failure as HookError, hook: decided.failure.hook };
        if (decided.terminal?.flow.type === "deny") {
          return { kind: "terminate", reason: decided.terminal.flow.reason, hook: decided.terminal.hook };
        }
      }
    }
    if (request === base) validateRequest(request, NO_PATCH, base.tools);
    state.requests.push(request);
    // Inspections run after the operation (DESIGN §3): after this attempt answered or failed.
    // The payload is built field by field: on Node 20 a `{ ...event, request }` literal costs
    // about a microsecond (spread-then-property objects take a slow path); see bench/loop.
    const inspectRequest = () => {
      if (event === undefined || selection.inspects.length === 0) return;
      state.runner.inspect(
        payload(state, "model_request", {
          request,
          userMessage: event.userMessage,
          history: event.history,
          isFirstStep: event.isFirstStep,
        }),
        context(),
        selection,
      );
    };

    try {
      const pending = surface.callModel(model, callOptions(request, state.signal), (signal) => {
        if (state.signal.aborted) return;
        if (signal.type === "text-delta") {
          surface.emit({ type: "text-delta", step: state.step, delta: signal.delta });
          if (state.runner.wants("text_delta"))
            state.runner.inspect(payload(state, "text_delta", { delta: signal.delta }), context());
        } else if (signal.type === "reasoning-delta") {
          surface.emit({ type: "reasoning-delta", step: state.step, delta: signal.delta });
          if (state.runner.wants("reasoning_delta"))
            state.runner.inspect(payload(state, "reasoning_delta", { delta: signal.delta }), context());
        } else if (signal.type === "tool-call-delta" && state.runner.wants("tool_call_delta")) {
          state.runner.inspect(payload(state, "tool_call_delta", { ...signal }), context());
        }
      });
      // A model that ignores its abortSignal must not keep an aborted run alive.
      const turn = await abortable(pending, state.signal);
      inspectRequest();
      if (state.runner.wants("model_response")) {
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
        state.runner.inspect(response, context());
      }
      return { kind: "turn", turn, request, attempts: attempt };
    } catch (error) {
      inspectRequest();
      if (state.signal.aborted) return { kind: "error", error: abortError(state.signal) };
      tried ??= new Set([model]);
      const info = classifyError(error);
      const errorEvent = payload(state, "model_error", { error: info, attempt, request, cause: error });
      const handled = await state.runner.blocking(errorEvent, context());
      state.runner.inspect(errorEvent, context());
      // A failing model_error hook fails closed: no retry, no fallback.
      if (handled.failure)
        return { kind: "error", error: handled.failure as HookError, hook: handled.failure.hook };
      const flow = handled.terminal?.flow;
      if (flow?.type === "terminate")
        return { kind: "terminate", reason: flow.reason, hook: handled.terminal!.hook };
      if (flow?.type === "fallback") {
        const next = fallbackModel(runtime, flow.model, "flow.fallback");
        if (next instanceof Error) return { kind: "error", error: next, hook: handled.terminal!.hook };
        // Each model once per step: a hook that keeps falling back between failing models
        // must end the step, not loop (with no backoff) forever.
        if (!tried.has(next)) {
          switchTo(next);
          continue;
        }
        return {
          kind: "error",
          error: finalError(model, info, retries + 1, error),
          hook: handled.terminal!.hook,
        };
      }
      const maxRetries = modelSettings(model).maxRetries ?? runtime.maxRetries;
      if ((flow?.type === "retry" || info.retryable) && retries < maxRetries) {
        retries++;
        try {
          await sleep(backoffDelay(retries, error, runtime.retry), state.signal);
        } catch {
          return { kind: "error", error: abortError(state.signal) };
        }
        continue;
      }
      // Given up on this model: continue on its fallback, unless the request itself is at
      // fault (auth, bad request), which another model would not fix.
      const target = modelSettings(model).fallback;
      if (target !== undefined && !NO_FALLBACK.has(info.type)) {
        const next = fallbackModel(runtime, target, `the fallback of ${label}`);
        if (next instanceof Error) return { kind: "error", error: next };
        if (!tried.has(next)) {
          state.log.warn(`${label} failed (${info.type}); continuing on its fallback ${modelLabel(next)}`);
          switchTo(next);
          continue;
        }
      }
      return { kind: "error", error: finalError(model, info, retries + 1, error) };
    }
  }
}

const NO_FALLBACK = new Set(["auth", "bad_request", "aborted"]);

/** A fallback target as a model: itself, or a name resolved through the agent's `models`. */
function fallbackModel(
  runtime: AgentRuntime,
  target: LanguageModel | string,
  what: string,
): LanguageModel | Error {
  try {
    const next = resolveFallback(runtime, target);
    if (next) return next;
  } catch (error) {
    // Building the fallback failed (a missing key names its variable).
    return error instanceof Error ? error : new HookwiseError(String(error));
  }
  const name = typeof target === "string" ? `"${target}"` : "(an object that is not a language model)";
  return new HookwiseError(
    `${what}: model ${name} is not known; declare it in the agent's models option (or under models: in config)`,
  );
}

/** The step's error: hookwise's own errors as they are, provider errors named by provider and class. */
function finalError(model: LanguageModel, info: ErrorInfo, attempts: number, error: unknown): Error {
  if (HookwiseError.isInstance(error)) return error;
  return new ModelError({
    provider: model.provider,
    modelId: model.modelId,
    errorType: info.type,
    message: info.message,
    ...(info.status === undefined ? {} : { status: info.status }),
    ...(info.code === undefined ? {} : { code: info.code }),
    attempts,
    cause: error,
  });
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === "string" ? reason : "the run was aborted");
  error.name = "AbortError";
  return error;
}
