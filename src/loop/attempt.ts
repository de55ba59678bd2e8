/**
 * One provider request attempt's hooks: `model_request` transforms
 * accumulate patches onto an outbound copy, which is validated locally; decides judge the
 * request that will really be sent; inspections follow the attempt, as do `model_response`
 * inspections and the stream's delta events.
 */

import type { Span } from "@opentelemetry/api";
import type { HookError } from "../errors/hook-error.js";
import type { EventPayload, ModelRequest } from "../events/payloads.js";
import type { BlockingOptions, BlockingOutcome } from "../hooks/blocking.js";
import type { HookContext } from "../hooks/hook-context.js";
import { EMPTY_SELECTION, type HookSelection } from "../hooks/hook-registry.js";
import { type MergedPatch, mergeRequestPatches } from "../hooks/merge-request-patch.js";
import type { ModelTurn } from "../models/language-model.js";
import type { StreamSignal } from "../models/read-model-output.js";
import { applyPatch, RequestValidationError, validateRequest } from "./build-request.js";
import { contextFor, payload, type RunState } from "./run-state.js";
import type { DeltaSink, Surface } from "./surface.js";
import type { LoopRuntime, StepRequestOutcome } from "./types.js";

const NO_PATCH = { patch: {}, setBy: {}, activeToolsBy: [], warnings: [], additions: [] };

// Transforms see the baseline and decides the patched request: two dispatches, one phase each.
const TRANSFORMS: BlockingOptions = Object.freeze({ phase: "transforms" });
const DECIDES: BlockingOptions = Object.freeze({ phase: "decides" });

/**
 * One attempt's hook state: its context (made when a hook first needs it), the
 * `model_request` payload and selection when hooks watch the request, and the sink of the
 * stream's deltas. One object per attempt, no closure (the common attempt has no hook).
 */
export class Attempt implements DeltaSink {
  // Read from the prototype's defaults (below) until the attempt sets its own: the common
  // attempt (no hook, no span) holds only what it was made with.
  declare event: EventPayload<"model_request"> | undefined;
  declare selection: HookSelection;
  /** The attempt's span, when the run has telemetry. */
  declare readonly span: Span | undefined;
  /** The context its hooks get, made when a hook first needs it. */
  declare private operation: HookContext | undefined;
  /** The outbound copy its hooks' patches made, if they made one. */
  declare private patched: ModelRequest | undefined;

  constructor(
    readonly state: RunState,
    readonly surface: Surface,
    readonly number: number,
    /** Built from the transcript (its history is a snapshot of it). */
    readonly baseline: ModelRequest,
  ) {
    const span = state.telemetry?.attemptStarted(number);
    if (span !== undefined) (this as { span: Span }).span = span;
  }

  /** What will be sent: the baseline, or the outbound copy its hooks' patches made. */
  get request(): ModelRequest {
    return this.patched ?? this.baseline;
  }

  set request(request: ModelRequest) {
    this.patched = request;
  }

  /** The attempt was not sent (a hook stopped it, or its request failed its checks): its span says why. */
  stopped(prepared: Exclude<Prepared, { kind: "ready" }>): void {
    const span = this.span;
    if (span === undefined) return;
    const reason = prepared.kind === "terminate" ? prepared.reason : prepared.error.message;
    this.state.telemetry!.attemptStopped(span, reason, prepared.hook);
  }

  context(): HookContext {
    this.operation ??= contextFor(this.state, this.number);
    return this.operation;
  }

  /** Inspections run after the operation: after this attempt answered or failed. */
  inspectRequest(): void {
    const { event, selection, state } = this;
    if (event === undefined || selection.inspects.length === 0) return;
    // Built field by field: on Node 20 a `{ ...event, request }` literal takes a slow path.
    state.runner.inspect(
      {
        type: "model_request",
        agentPath: state.agentPath,
        request: this.request,
        userMessage: event.userMessage,
        history: event.history,
        isFirstStep: event.isFirstStep,
      } satisfies EventPayload<"model_request">,
      this.context(),
      selection,
    );
  }

  delta(signal: NonNullable<StreamSignal>): void {
    const { state, surface } = this;
    if (state.signal.aborted) return;
    if (signal.type === "text-delta") {
      surface.emit({ type: "text-delta", step: state.step, delta: signal.delta });
      if (state.runner.wants("text_delta"))
        state.runner.inspect(
          {
            type: "text_delta",
            agentPath: state.agentPath,
            delta: signal.delta,
          } satisfies EventPayload<"text_delta">,
          this.context(),
        );
    } else if (signal.type === "reasoning-delta") {
      surface.emit({ type: "reasoning-delta", step: state.step, delta: signal.delta });
      if (state.runner.wants("reasoning_delta"))
        state.runner.inspect(
          {
            type: "reasoning_delta",
            agentPath: state.agentPath,
            delta: signal.delta,
          } satisfies EventPayload<"reasoning_delta">,
          this.context(),
        );
    } else if (signal.type === "tool-call-delta" && state.runner.wants("tool_call_delta")) {
      state.runner.inspect(payload(state, "tool_call_delta", { ...signal }), this.context());
    }
  }
}

Object.assign(Attempt.prototype, {
  event: undefined,
  selection: EMPTY_SELECTION,
  span: undefined,
  operation: undefined,
  patched: undefined,
});

export type Prepared = { kind: "ready" } | Exclude<StepRequestOutcome, { kind: "turn" }>;
const READY: Prepared = Object.freeze({ kind: "ready" });

/**
 * `model_request` hooks of one attempt: transforms see the baseline and accumulate patches,
 * the merged patch is applied to an outbound copy and validated, and decides judge the
 * request that will really be sent (TOCTOU-safe). Synchronous while the hooks are.
 */
export function prepareAttempt(runtime: LoopRuntime, attempt: Attempt): Prepared | Promise<Prepared> {
  const { state } = attempt;
  const base = attempt.request;
  if (!state.runner.wants("model_request")) {
    validateRequest(base, NO_PATCH, base.tools);
    return READY;
  }
  const event: EventPayload<"model_request"> = {
    type: "model_request",
    agentPath: state.agentPath,
    request: base,
    userMessage: state.input,
    // A snapshot: inspections read it after the transcript has moved on. The baseline's
    // history is one already, unless ephemeral feedback was appended to it.
    history: base.messages.length === state.messages.length ? base.messages : state.messages.slice(),
    isFirstStep: state.step === 0,
  };
  const selection = state.runner.select(event, "model_request");
  attempt.event = event;
  attempt.selection = selection;
  const patching = state.runner.dispatch(event, attempt.context(), selection, TRANSFORMS);
  return patching instanceof Promise
    ? patchLater(runtime, attempt, patching)
    : afterPatches(runtime, attempt, patching);
}

/** Once per run: a `system` patch that differs from the previous attempt's defeats the prompt cache. */
function warnUncachedSystem(state: RunState, merged: MergedPatch): void {
  const previous = state.patchedSystem;
  state.patchedSystem = merged.patch.system;
  if (previous === undefined || previous === merged.patch.system || state.systemCacheWarned) return;
  state.systemCacheWarned = true;
  state.log.warn(
    `hook "${merged.setBy.system}" changes the system prompt between attempts: the provider's prompt cache cannot serve any of the request; put per-attempt text in extraContext (placement: end) instead`,
    { hook: merged.setBy.system },
  );
}

/** A function of its own: a closure in `prepareAttempt` would cost every attempt a context. */
function patchLater(
  runtime: LoopRuntime,
  attempt: Attempt,
  patching: Promise<BlockingOutcome<EventPayload<"model_request">>>,
): Promise<Prepared> {
  return patching.then((patched) => afterPatches(runtime, attempt, patched));
}

function afterPatches(
  runtime: LoopRuntime,
  attempt: Attempt,
  patched: BlockingOutcome<EventPayload<"model_request">>,
): Prepared | Promise<Prepared> {
  const { state, event, selection } = attempt;
  const base = attempt.request;
  if (patched.failure)
    return { kind: "error", error: patched.failure as HookError, hook: patched.failure.hook };
  if (patched.terminal?.flow.type === "terminate") {
    return { kind: "terminate", reason: patched.terminal.flow.reason, hook: patched.terminal.hook };
  }
  if (patched.patches.length) {
    const merged = mergeRequestPatches(patched.patches, runtime.canonicalTool);
    for (const warning of merged.warnings) state.log.warn(warning);
    if (merged.patch.system !== undefined) warnUncachedSystem(state, merged);
    attempt.request = applyPatch(base, merged, runtime.tools, state.userMessageIndex);
    try {
      validateRequest(attempt.request, merged, base.tools);
    } catch (error) {
      if (error instanceof RequestValidationError) return { kind: "error", error, hook: error.hook };
      throw error;
    }
  } else validateRequest(base, NO_PATCH, base.tools);
  if (selection.decides.length === 0) return READY;
  const effective: EventPayload<"model_request"> = {
    type: "model_request",
    agentPath: state.agentPath,
    request: attempt.request,
    userMessage: event!.userMessage,
    history: event!.history,
    isFirstStep: event!.isFirstStep,
  };
  const deciding = state.runner.dispatch(effective, attempt.context(), selection, DECIDES);
  return deciding instanceof Promise ? deciding.then(afterDecides) : afterDecides(deciding);
}

function afterDecides(decided: BlockingOutcome<EventPayload<"model_request">>): Prepared {
  if (decided.failure)
    return { kind: "error", error: decided.failure as HookError, hook: decided.failure.hook };
  if (decided.terminal?.flow.type === "deny") {
    return { kind: "terminate", reason: decided.terminal.flow.reason, hook: decided.terminal.hook };
  }
  return READY;
}

/** `model_response` inspections of an accepted answer. */
export function inspectResponse(attempt: Attempt, turn: ModelTurn): void {
  const { state } = attempt;
  if (!state.runner.wants("model_response")) return;
  const response: EventPayload<"model_response"> = {
    type: "model_response",
    agentPath: state.agentPath,
    request: attempt.request,
    text: turn.text,
    toolCalls: turn.toolCalls.map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args: call.rawInput,
    })),
    finishReason: turn.finishReason,
    usage: turn.usage,
  };
  state.runner.inspect(response, attempt.context(), state.runner.select(response, "model_response"));
}
