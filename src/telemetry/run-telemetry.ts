/**
 * One run's spans (OpenTelemetry, GenAI semantic conventions where they name a thing):
 *
 *   invoke_agent <agent>            the run
 *     hookwise.step                 one per step
 *       chat <model>                one per provider request attempt
 *         hookwise.hook <id>        model_request / model_response / model_error hooks
 *       execute_tool <tool>         one per tool call
 *         hookwise.hook <id>        tool_call / tool_result / tool_error hooks
 *       hookwise.hook <id>          step_start / step_end / model_turn_finished hooks
 *     hookwise.hook <id>            run_start / run_end / session hooks
 *
 * Spans are parented explicitly (no context manager needed). Content — prompts,
 * completions, tool arguments and results, the run's input and output — is recorded only
 * when asked for, and only as it stands after the hooks that rewrite it ran.
 */
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import { lazy, loadPackage } from "../deps/load-package.js";
import type { AnyEventPayload, ModelRequest } from "../events/payloads.js";
import type { HookContext } from "../hooks/hook-context.js";
import type { HookObserver } from "../hooks/hook-observer.js";
import type { RegisteredHook } from "../hooks/hook-registry.js";
import type { HookTraceEntry } from "../hooks/trace.js";
import type { LanguageModel, ModelToolCall, ModelTurn } from "../models/language-model.js";
import { inputMessages, outputMessages, systemInstructions } from "./genai-messages.js";
import { effectOf, reasonOf, rewriteDigests } from "./hook-effect.js";
import type { RunSummary, TelemetrySettings, ToolSummary } from "./types.js";

/** The OpenTelemetry API, loaded when the first run with telemetry starts. */
const otel = lazy(() => loadPackage<typeof import("@opentelemetry/api")>("@opentelemetry/api"));

/** The given tracer, else the registered provider's (asked per run: a provider may be registered or replaced at any time). */
function tracerOf(settings: TelemetrySettings): Tracer {
  return settings.tracer ?? otel().trace.getTracer("hookwise");
}

/** A span and the context that makes it a parent. */
interface Scope {
  readonly span: Span;
  readonly context: Context;
}

/** A hook about to fire: when, and under which span. */
interface HookFiring {
  readonly hook: RegisteredHook;
  readonly payload: AnyEventPayload;
  readonly parent: Context;
  readonly started: number;
}

/** Wall-clock milliseconds with sub-millisecond precision (hooks often take microseconds). */
function now(): number {
  return performance.timeOrigin + performance.now();
}

function json(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `openai.responses` → `openai`: the provider as the GenAI conventions name it. */
function providerName(provider: string): string {
  const dot = provider.indexOf(".");
  return dot === -1 ? provider : provider.slice(0, dot);
}

/** The events whose hooks belong to a model call, and those that belong to a step. */
const ATTEMPT_EVENTS = new Set([
  "model_request",
  "model_response",
  "model_error",
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
]);
const STEP_EVENTS = new Set([
  "step_start",
  "step_end",
  "model_turn_finished",
  "invalid_tool_call",
  "approval_request",
]);

export interface RunIdentity {
  readonly agentName: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly agentPath: readonly string[];
  readonly resumed: boolean;
  /** A resumed run's suspended part: its span, which the resumed run's span links to. */
  readonly suspendedSpan?: TraceLink | undefined;
}

/** A span elsewhere (another trace, another process): what a link names. */
export interface TraceLink {
  traceId: string;
  spanId: string;
}

/** Hooks hookwise adds to record a run: internal bookkeeping, never exported as spans. */
function isInternalHook(name: string): boolean {
  return name.startsWith("hookwise:record-");
}

/**
 * A run's span, or undefined when nothing would record it (telemetry off, no provider
 * registered, or the run not sampled): the loop then calls nothing more of telemetry.
 */
export function startRunTelemetry(
  settings: TelemetrySettings | undefined,
  run: RunIdentity,
): RunTelemetry | undefined {
  if (settings === undefined) return undefined;
  const tracer = tracerOf(settings);
  const attributes: Attributes = {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": run.agentName,
    "gen_ai.conversation.id": run.sessionId,
    "hookwise.run.id": run.runId,
    "hookwise.agent.path": run.agentPath.join("/"),
  };
  if (settings.functionId !== undefined) attributes["hookwise.function_id"] = settings.functionId;
  if (run.resumed) attributes["hookwise.run.resumed"] = true;
  const links =
    run.suspendedSpan === undefined
      ? undefined
      : [
          {
            context: { ...run.suspendedSpan, traceFlags: otel().TraceFlags.SAMPLED },
            attributes: { "hookwise.link": "suspended_run" },
          },
        ];
  const span = tracer.startSpan(
    `invoke_agent ${run.agentName}`,
    { kind: otel().SpanKind.INTERNAL, attributes, ...(links ? { links } : {}) },
    otel().context.active(),
  );
  if (!span.isRecording()) {
    span.end();
    return undefined;
  }
  return new RunTelemetry(tracer, settings, span);
}

export class RunTelemetry implements HookObserver<HookFiring> {
  readonly #tracer: Tracer;
  readonly #settings: TelemetrySettings;
  readonly #run: Scope;
  #step: Scope | undefined;
  #attempt: Scope | undefined;
  readonly #tools = new Map<string, Scope>();
  /** Attributes every span carries (`hookwise.function_id`). */
  readonly #common: Attributes;

  constructor(tracer: Tracer, settings: TelemetrySettings, span: Span) {
    this.#tracer = tracer;
    this.#settings = settings;
    this.#run = { span, context: otel().trace.setSpan(otel().context.active(), span) };
    this.#common = settings.functionId === undefined ? {} : { "hookwise.function_id": settings.functionId };
  }

  /** Adds attributes to the run's span (what a caller outside the loop knows of the run). */
  annotate(attributes: Attributes): void {
    this.#run.span.setAttributes(attributes);
  }

  /** The run's span, for a later part of the run (resumed after a suspension) to link to. */
  get link(): TraceLink {
    const { traceId, spanId } = this.#run.span.spanContext();
    return { traceId, spanId };
  }

  #start(
    name: string,
    parent: Context,
    attributes: Attributes,
    startTime?: number,
    kind: "INTERNAL" | "CLIENT" = "INTERNAL",
  ): Scope {
    const span = this.#tracer.startSpan(
      name,
      { kind: otel().SpanKind[kind], attributes: { ...this.#common, ...attributes }, startTime },
      parent,
    );
    return { span, context: otel().trace.setSpan(parent, span) };
  }

  /** The span steps' children hang under: the current step's, else the run's. */
  #stepOrRun(): Scope {
    return this.#step ?? this.#run;
  }

  // ── steps ──────────────────────────────────────────────────────────────────────────

  stepStarted(step: number): void {
    this.stepEnded();
    this.#step = this.#start("hookwise.step", this.#run.context, { "hookwise.step": step });
  }

  stepEnded(): void {
    this.#attempt = undefined;
    const step = this.#step;
    if (step === undefined) return;
    this.#step = undefined;
    step.span.end();
  }

  // ── model attempts ─────────────────────────────────────────────────────────────────

  /** A provider request attempt begins (its model_request hooks are next). */
  attemptStarted(attempt: number): Span {
    // A call to the model's provider: a CLIENT span, as the GenAI conventions have it.
    const scope = this.#start(
      "chat",
      this.#stepOrRun().context,
      { "gen_ai.operation.name": "chat", "hookwise.attempt": attempt },
      undefined,
      "CLIENT",
    );
    this.#attempt = scope;
    return scope.span;
  }

  /** The attempt's request, as its hooks left it, goes to `model`. */
  attemptSent(span: Span, model: LanguageModel, request: ModelRequest): void {
    const provider = providerName(model.provider);
    span.updateName(`chat ${model.modelId}`);
    const attributes: Attributes = {
      "gen_ai.provider.name": provider,
      "gen_ai.system": provider,
      "gen_ai.request.model": model.modelId,
    };
    if (request.temperature !== undefined) attributes["gen_ai.request.temperature"] = request.temperature;
    if (request.maxOutputTokens !== undefined)
      attributes["gen_ai.request.max_tokens"] = request.maxOutputTokens;
    if (request.topP !== undefined) attributes["gen_ai.request.top_p"] = request.topP;
    if (request.seed !== undefined) attributes["gen_ai.request.seed"] = request.seed;
    if (this.#settings.recordInputs) {
      if (request.system !== undefined)
        attributes["gen_ai.system_instructions"] = json(systemInstructions(request.system));
      attributes["gen_ai.input.messages"] = json(inputMessages(request.messages));
    }
    span.setAttributes(attributes);
  }

  attemptAnswered(span: Span, turn: ModelTurn): void {
    const { usage } = turn;
    const attributes: Attributes = { "gen_ai.response.finish_reasons": [turn.finishReason] };
    if (usage.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = usage.inputTokens;
    if (usage.outputTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = usage.outputTokens;
    if (turn.response?.id !== undefined) attributes["gen_ai.response.id"] = turn.response.id;
    if (turn.response?.modelId !== undefined) attributes["gen_ai.response.model"] = turn.response.modelId;
    if (this.#settings.recordOutputs) attributes["gen_ai.output.messages"] = json(outputMessages(turn));
    span.setAttributes(attributes);
    span.end();
  }

  /** The attempt failed (`errorType`: how hookwise classified the provider's error). */
  attemptFailed(span: Span, error: unknown, errorType: string): void {
    span.setAttribute("error.type", errorType);
    span.setStatus({
      code: otel().SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    span.end();
  }

  /** The attempt was never sent: a hook denied or terminated it, or it failed its checks. */
  attemptStopped(span: Span, reason: string, hook: string | undefined): void {
    span.setAttribute("hookwise.attempt.sent", false);
    if (hook !== undefined) span.setAttribute("hookwise.stopped_by", hook);
    span.setStatus({ code: otel().SpanStatusCode.ERROR, message: reason });
    span.end();
  }

  // ── tool calls ─────────────────────────────────────────────────────────────────────

  toolStarted(call: Pick<ModelToolCall, "toolCallId" | "toolName">): void {
    this.#tools.set(
      call.toolCallId,
      this.#start(`execute_tool ${call.toolName}`, this.#stepOrRun().context, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.toolName,
        "gen_ai.tool.call.id": call.toolCallId,
        "gen_ai.tool.type": "function",
      }),
    );
  }

  /**
   * Runs a tool's body with its call's span as the active context, so that spans the body
   * starts (a sub-agent's run, instrumented HTTP or database calls) nest under it. Takes
   * effect when a context manager is registered (the Node SDK registers one).
   */
  inTool<T>(toolCallId: string, body: () => T): T {
    const scope = this.#tools.get(toolCallId);
    return scope === undefined ? body() : otel().context.with(scope.context, body);
  }

  toolEnded(toolCallId: string, outcome: ToolSummary): void {
    const scope = this.#tools.get(toolCallId);
    if (scope === undefined) return;
    this.#tools.delete(toolCallId);
    const { span } = scope;
    const attributes: Attributes = { "hookwise.tool.outcome": outcome.kind };
    if (outcome.qualifiedName !== undefined)
      attributes["hookwise.tool.qualified_name"] = outcome.qualifiedName;
    if (outcome.executed !== undefined) attributes["hookwise.tool.executed"] = outcome.executed;
    if (outcome.hook !== undefined) attributes["hookwise.stopped_by"] = outcome.hook;
    if (this.#settings.recordInputs && outcome.args !== undefined)
      attributes["gen_ai.tool.call.arguments"] = json(outcome.args);
    if (this.#settings.recordOutputs && outcome.kind === "result" && outcome.result !== undefined)
      attributes["gen_ai.tool.call.result"] = json(outcome.result);
    span.setAttributes(attributes);
    if (outcome.isError) span.setStatus({ code: otel().SpanStatusCode.ERROR });
    if (outcome.reason !== undefined)
      span.setStatus({ code: otel().SpanStatusCode.ERROR, message: outcome.reason });
    span.end();
  }

  toolFailed(toolCallId: string, error: unknown): void {
    const scope = this.#tools.get(toolCallId);
    if (scope === undefined) return;
    this.#tools.delete(toolCallId);
    scope.span.setStatus({
      code: otel().SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    scope.span.end();
  }

  // ── hooks: one span per firing ─────────────────────────────────────────────────────

  calling(hook: RegisteredHook, payload: AnyEventPayload, _context: HookContext): HookFiring {
    return { hook, payload, parent: this.#parentOf(payload), started: now() };
  }

  fired(firing: HookFiring, entry: HookTraceEntry, after: AnyEventPayload | undefined): void {
    if (isInternalHook(entry.hook)) return;
    const ended = now();
    const effect = effectOf(entry);
    const attributes: Attributes = {
      "hookwise.hook.id": entry.hook,
      "hookwise.hook.event": entry.event,
      "hookwise.hook.kind": entry.kind,
      "hookwise.hook.effect": effect,
      "hookwise.hook.result": entry.effect,
      "hookwise.hook.duration_ms": ended - firing.started,
    };
    const reason = reasonOf(entry);
    if (reason !== undefined) attributes["hookwise.hook.reason"] = reason;
    // A firing about a tool call names it, answered or not (approval_request's too).
    const { toolCallId, toolName } = firing.payload as { toolCallId?: unknown; toolName?: unknown };
    if (typeof toolCallId === "string") {
      attributes["gen_ai.tool.call.id"] = toolCallId;
      if (typeof toolName === "string") attributes["gen_ai.tool.name"] = toolName;
    }
    const digests = rewriteDigests(entry, firing.payload, after);
    if (digests) {
      attributes["hookwise.hook.before_digest"] = digests.before;
      attributes["hookwise.hook.after_digest"] = digests.after;
    }
    const { span } = this.#start(`hookwise.hook ${entry.hook}`, firing.parent, attributes, firing.started);
    if (effect === "failed")
      span.setStatus({ code: otel().SpanStatusCode.ERROR, message: reason ?? entry.effect });
    span.end(ended);
  }

  /** Which span a hook's firing belongs under: its tool call's, its attempt's, its step's or the run's. */
  #parentOf(payload: AnyEventPayload): Context {
    const type = payload.type;
    const toolCallId = (payload as { toolCallId?: unknown }).toolCallId;
    if (typeof toolCallId === "string" && type !== "tool_call_delta") {
      const tool = this.#tools.get(toolCallId);
      if (tool) return tool.context;
    }
    if (ATTEMPT_EVENTS.has(type)) return (this.#attempt ?? this.#stepOrRun()).context;
    if (STEP_EVENTS.has(type) || typeof toolCallId === "string") return this.#stepOrRun().context;
    return this.#run.context;
  }

  // ── the run ────────────────────────────────────────────────────────────────────────

  runEnded(summary: RunSummary): void {
    this.stepEnded();
    for (const [id] of this.#tools) this.toolFailed(id, "the run ended first");
    const { span } = this.#run;
    const attributes: Attributes = {
      "hookwise.run.outcome": summary.outcome,
      "hookwise.run.steps": summary.steps,
      "gen_ai.usage.input_tokens": summary.usage.inputTokens,
      "gen_ai.usage.output_tokens": summary.usage.outputTokens,
    };
    if (summary.hook !== undefined) attributes["hookwise.stopped_by"] = summary.hook;
    if (summary.reason !== undefined) attributes["hookwise.run.reason"] = summary.reason;
    if (this.#settings.recordInputs) attributes["hookwise.run.input"] = summary.input;
    if (this.#settings.recordOutputs) attributes["hookwise.run.output"] = summary.text;
    span.setAttributes(attributes);
    if (summary.outcome === "error")
      span.setStatus({ code: otel().SpanStatusCode.ERROR, message: summary.reason ?? "the run failed" });
    span.end();
  }
}
