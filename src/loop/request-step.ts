/**
 * One step's provider request, attempt by attempt: every attempt
 * rebuilds the baseline from the transcript, re-runs `model_request` hooks, merges their
 * patches into an outbound copy, validates it locally, records it, then calls the model.
 * A failed attempt fires `model_error`; hooks may retry, fall back or terminate.
 */

import type { LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { HookError } from "../errors/hook-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { ErrorInfo, ModelMessage, ModelRequest, ToolSpec } from "../events/payloads.js";
import { classifyError } from "../models/classify-error.js";
import {
  type CallOptions,
  isSupportedModel,
  type LanguageModel,
  type ModelTurn,
} from "../models/language-model.js";
import { ModelError } from "../models/model-error.js";
import { modelLabel, modelSettings } from "../models/model-settings.js";
import { readsPrompt } from "../models/reads-prompt.js";
import { abortable, abortError, NEVER_ABORTED } from "./abortable.js";
import { Attempt, inspectResponse, type Prepared, prepareAttempt } from "./attempt.js";
import { backoffDelay, sleep } from "./backoff.js";
import { breakpointMark, markBreakpoints, stablePrefix } from "./cache-breakpoints.js";
import { payload, type RunState } from "./run-state.js";
import { detachHistory, recordRequest } from "./step-slots.js";
import type { Surface } from "./surface.js";
import type { LoopRuntime, StepRequestOutcome } from "./types.js";

/**
 * Whether a request's history can be the live transcript itself until it is recorded
 * (step-slots.ts): only when nothing outside the loop is handed the request (no hook on
 * `model_request` or `model_response`, no telemetry), so nothing else reads its list
 * meanwhile. A `model_error` hook does not count: a failed request gets a history of its
 * own before its hooks are handed it, and they are handed no other (a recorded run has
 * such a hook, and would otherwise copy its history at every step).
 */
function sharesHistory(state: RunState): boolean {
  const runner = state.runner;
  return state.telemetry === undefined && !runner.wants("model_request") && !runner.wants("model_response");
}

function baseline(
  runtime: LoopRuntime,
  state: RunState,
  attempt: number,
  ephemeral: readonly ModelMessage[],
  model: LanguageModel,
): ModelRequest {
  const options = runtime.options;
  const request: ModelRequest = {
    step: state.step,
    attempt,
    system: options.instructions,
    messages: ephemeral.length
      ? [...state.messages, ...ephemeral]
      : sharesHistory(state)
        ? state.messages
        : state.messages.slice(),
    tools: runtime.toolSpecs,
    toolChoice: options.toolChoice ?? "auto",
    // The agent's own model's label is made once; a fallback's when it is used.
    model: model === runtime.model ? runtime.modelLabel : modelLabel(model),
  };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  if (options.providerOptions !== undefined) request.providerOptions = options.providerOptions;
  return request;
}

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

/** The provider's form of each named tool choice, made once (frozen: providers only read them). */
const PROVIDER_CHOICES = {
  auto: Object.freeze({ type: "auto" as const }),
  none: Object.freeze({ type: "none" as const }),
  required: Object.freeze({ type: "required" as const }),
};

/** What a model that reads no prompt is sent (a replay's model: its answers are recorded). */
const NO_PROMPT: LanguageModelV3Prompt = Object.freeze([]) as unknown as LanguageModelV3Prompt;

/** The provider prompt of an attempt, with cache breakpoints where `model` wants them. */
function promptOf(runtime: LoopRuntime, model: LanguageModel, request: ModelRequest, state: RunState) {
  if (!readsPrompt(model)) return NO_PROMPT;
  // The run's own messages (from its user message on) are converted for this run only.
  const prompt = state.prompts.build(request.system, request.messages, state.userMessageIndex);
  if (runtime.options.cache?.breakpoints === "off") return prompt;
  const mark = breakpointMark(model);
  if (mark === undefined) return prompt;
  return markBreakpoints(
    prompt,
    mark,
    stablePrefix(request.messages, state.messages),
    Boolean(request.system),
  );
}

/**
 * The provider's call options: the prompt, and each setting that has a value (a parked run's
 * provider holds this object while it answers; no field for what was not set).
 */
function callOptions(runtime: LoopRuntime, model: LanguageModel, request: ModelRequest, state: RunState) {
  const choice = request.toolChoice;
  const signal = state.signal;
  // The tools' fields are made with the object (in it, not added to it later).
  const offersTools = request.tools.length > 0;
  const options: CallOptions = {
    prompt: promptOf(runtime, model, request, state),
    tools: offersTools ? providerToolsOf(request.tools) : undefined,
    toolChoice: offersTools ? (typeof choice === "string" ? PROVIDER_CHOICES[choice] : choice) : undefined,
  };
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) options.maxOutputTokens = request.maxOutputTokens;
  if (request.topP !== undefined) options.topP = request.topP;
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.stopSequences !== undefined) options.stopSequences = request.stopSequences;
  if (request.providerOptions !== undefined) options.providerOptions = request.providerOptions as never;
  const responseFormat = runtime.output?.responseFormat;
  if (responseFormat !== undefined) options.responseFormat = responseFormat;
  // A run nothing can abort gives the provider no signal to listen to.
  if (signal !== NEVER_ABORTED) options.abortSignal = signal;
  return options;
}

function resolveFallback(runtime: LoopRuntime, model: LanguageModel | string): LanguageModel | undefined {
  if (typeof model !== "string") return isSupportedModel(model) ? model : undefined;
  const models = runtime.options.models;
  return typeof models === "function" ? models(model) : models?.[model];
}

/** The answer of an accepted attempt: its inspections run, the step gets its turn. */
function accepted(runtime: LoopRuntime, attempt: Attempt, turn: ModelTurn): StepRequestOutcome {
  if (runtime.onAnswer !== undefined) {
    runtime.onAnswer({
      runId: attempt.state.runId,
      step: attempt.state.step,
      attempt: attempt.number,
      model: attempt.request.model,
      turn,
    });
  }
  // A hook added meanwhile gets a history of its own.
  if (attempt.state.runner.wants("model_response")) detachHistory(attempt.state, attempt.request);
  attempt.inspectRequest();
  inspectResponse(attempt, turn);
  if (attempt.span) attempt.state.telemetry!.attemptAnswered(attempt.span, turn);
  return {
    kind: "turn",
    turn,
    request: attempt.request,
    attempts: attempt.number,
    sent: attempt.baseline.messages,
    context: attempt,
  };
}

/**
 * One step's provider request, up to its first attempt's call. The first attempt, when its
 * hooks answer synchronously, is returned ready to send (`sendFirst`): the common path (one
 * model call) has no async frame and no closure of its own here; the caller awaits the model.
 * Anything else (hooks that await, a stopped attempt) comes back as the step's outcome.
 */
export function requestStep(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  ephemeral: readonly ModelMessage[],
): Attempt | Promise<StepRequestOutcome> {
  const attempt = new Attempt(state, surface, 1, baseline(runtime, state, 1, ephemeral, runtime.model));
  const preparing = prepareAttempt(runtime, attempt);
  if (preparing instanceof Promise)
    return requestAttempts(runtime, state, surface, ephemeral, attempt, preparing);
  if (preparing.kind !== "ready") {
    attempt.stopped(preparing);
    return Promise.resolve(preparing);
  }
  recordRequest(state, attempt.request);
  return attempt;
}

/**
 * Sends a step's first attempt (`requestStep` made it ready); a throwing model rejects. The
 * caller reads the answer with `attempt.surface.turnOf` where it awaits it, in the same
 * `try` (an answer that is no turn fails the attempt as a rejection would).
 */
export function sendFirst(runtime: LoopRuntime, attempt: Attempt): PromiseLike<unknown> {
  try {
    return callAttempt(runtime, runtime.model, attempt);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The first attempt answered: the step's outcome. */
export function firstAnswered(runtime: LoopRuntime, attempt: Attempt, turn: ModelTurn): StepRequestOutcome {
  return accepted(runtime, attempt, turn);
}

/** The first attempt failed: `model_error` hooks, retries and fallbacks take the step on. */
export function firstFailed(
  runtime: LoopRuntime,
  attempt: Attempt,
  ephemeral: readonly ModelMessage[],
  error: unknown,
): Promise<StepRequestOutcome> {
  return requestAttempts(runtime, attempt.state, attempt.surface, ephemeral, attempt, undefined, { error });
}

/** Issues one attempt. A model that ignores its abortSignal must not keep an aborted run alive. */
function callAttempt(runtime: LoopRuntime, model: LanguageModel, attempt: Attempt): PromiseLike<unknown> {
  const { state } = attempt;
  if (attempt.span) state.telemetry!.attemptSent(attempt.span, model, attempt.request);
  return abortable(
    attempt.surface.callModel(model, callOptions(runtime, model, attempt.request, state), attempt),
    state.signal,
  );
}

/**
 * Attempts from the first on: `first` is the step's first attempt, still being prepared
 * (`preparing`) or already failed (`failed`). Retries, fallbacks and `model_error` hooks.
 */
async function requestAttempts(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  ephemeral: readonly ModelMessage[],
  first: Attempt,
  preparing?: Promise<Prepared>,
  failed?: { error: unknown },
): Promise<StepRequestOutcome> {
  let model = runtime.model;
  // Retries of the current model; a fallback starts its own count.
  let retries = 0;
  // The models this step has used; made on the first failure (the common path never needs it).
  let tried: Set<LanguageModel> | undefined;
  for (let number = 1; ; number++) {
    const attempt =
      number === 1
        ? first
        : new Attempt(state, surface, number, baseline(runtime, state, number, ephemeral, model));
    let error: unknown;
    if (number === 1 && failed) error = failed.error;
    else {
      const prepared = number === 1 && preparing ? await preparing : await prepareAttempt(runtime, attempt);
      if (prepared.kind !== "ready") {
        attempt.stopped(prepared);
        return prepared;
      }
      recordRequest(state, attempt.request);
      try {
        return accepted(runtime, attempt, surface.turnOf(await callAttempt(runtime, model, attempt)));
      } catch (thrown) {
        error = thrown;
      }
    }
    // The failed request is handed to model_error hooks: a history of its own.
    detachHistory(state, attempt.request);
    const request = attempt.request;
    attempt.inspectRequest();
    if (state.signal.aborted) {
      if (attempt.span) state.telemetry!.attemptFailed(attempt.span, error, "aborted");
      return { kind: "error", error: abortError(state.signal) };
    }
    tried ??= new Set([model]);
    const info = classifyError(error);
    const errorEvent = payload(state, "model_error", {
      error: info,
      attempt: number,
      request,
      cause: error,
    });
    const handled = await state.runner.blocking(errorEvent, attempt.context());
    state.runner.inspect(errorEvent, attempt.context());
    // Its model_error hooks' spans hang under the failed attempt's, which ends after them.
    if (attempt.span) state.telemetry!.attemptFailed(attempt.span, error, info.type);
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
        model = next;
        retries = 0;
        tried.add(next);
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
      const next = fallbackModel(runtime, target, `the fallback of ${modelLabel(model)}`);
      if (next instanceof Error) return { kind: "error", error: next };
      if (!tried.has(next)) {
        state.log.warn(
          `${modelLabel(model)} failed (${info.type}); continuing on its fallback ${modelLabel(next)}`,
        );
        model = next;
        retries = 0;
        tried.add(next);
        continue;
      }
    }
    return { kind: "error", error: finalError(model, info, retries + 1, error) };
  }
}

const NO_FALLBACK = new Set(["auth", "bad_request", "aborted"]);

/** A fallback target as a model: itself, or a name resolved through the agent's `models`. */
function fallbackModel(
  runtime: LoopRuntime,
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
