/**
 * Builds the Evaluation a config hook's condition and action see, with lazy statistics.
 * `tokens` and `pressure` come from the loop's token accounting (`ctx.contextWindow`:
 * provider-reported usage where known, a tokenizer estimate for the rest); outside a loop,
 * from the tokenizer alone.
 */
import { contextWindowFor } from "../../context/context-window.js";
import { estimateTokens } from "../../context/count-tokens.js";
import type { AnyEventPayload, ModelMessage } from "../../events/payloads.js";
import type { HookContext } from "../../hooks/hook-context.js";
import { HookTimedOut } from "../../hooks/invoke-hook.js";
import type { Evaluation, RunStats, ToolView } from "./evaluation.js";

export interface StatsOptions {
  /**
   * The model's context window in tokens (models.<name>.context_window). Default: the
   * loop's (the agent's `contextWindow`, or the known window of its model), else 128 000.
   */
  contextWindow?: number;
  maxTurns?: number;
}

export { DEFAULT_CONTEXT_WINDOW } from "../../context/context-window.js";
export { estimateTokens };

function countToolCalls(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === "tool-call") count++;
    }
  }
  return count;
}

function toolView(event: AnyEventPayload): ToolView | undefined {
  switch (event.type) {
    case "tool_call":
      return { name: event.toolName, fqn: event.qualifiedName, params: event.args };
    case "tool_result":
      return {
        name: event.toolName,
        fqn: event.qualifiedName,
        params: event.args,
        result: event.result,
        ...(event.isError ? { error: event.error ?? String(event.result) } : {}),
      };
    case "tool_error":
      return {
        name: event.toolName,
        fqn: event.qualifiedName,
        params: event.args,
        error: event.error instanceof Error ? event.error.message : String(event.error),
      };
    case "invalid_tool_call":
      return { name: event.toolName, fqn: event.toolName, params: event.args, error: event.message };
    case "approval_request":
      return { name: event.toolName, fqn: event.qualifiedName, params: event.args };
    default:
      return undefined;
  }
}

/**
 * Run statistics read when a condition or template asks: the history is a copy of the
 * transcript (as long as the session), and most hooks never look at it. One object per
 * firing, its getters on the prototype: a hook firing on every tool call makes no closures.
 */
class LazyRunStats implements RunStats {
  readonly turn: number;
  readonly max_turns: number;
  readonly #event: AnyEventPayload;
  readonly #context: HookContext;
  readonly #contextWindow: number | undefined;
  #messages: readonly ModelMessage[] | undefined = undefined;
  #tokens: number | undefined = undefined;

  constructor(event: AnyEventPayload, context: HookContext, options: StatsOptions) {
    this.#event = event;
    this.#context = context;
    this.#contextWindow = options.contextWindow;
    this.turn = context.turn;
    this.max_turns = options.maxTurns ?? 20;
  }

  history(): readonly ModelMessage[] {
    const event = this.#event;
    this.#messages ??= event.type === "model_request" ? event.history : this.#context.messages;
    return this.#messages;
  }

  get tools(): number {
    return countToolCalls(this.history());
  }

  get messages(): number {
    return this.history().length;
  }

  get tokens(): number {
    const context = this.#context;
    this.#tokens ??= context.contextWindow
      ? context.contextWindow.tokens(this.history())
      : estimateTokens(this.history());
    return this.#tokens;
  }

  get pressure(): number {
    const context = this.#context;
    const window =
      this.#contextWindow ?? context.contextWindow?.window ?? contextWindowFor(context.model?.modelId);
    return this.tokens / window;
  }
}

/** An evaluation whose hook's clock its hook starts (see `FiringEvaluation`). */
export interface HookEvaluation extends Evaluation {
  /** Starts the hook's clock, once: before its limits and its action, after its condition. */
  startClock(): void;
}

/**
 * The evaluation of one firing. `signal` (when a timeout is given) aborts with the run or
 * once the hook has timed out, counted from `startClock()` (the hook calls it once its
 * condition holds, before the engine, which counts from when the hook answers with a promise,
 * starts its own count) or else from its first use; made at first use. It fires just after
 * the engine's own deadline, which checks at most a tenth of the timeout (at most 1 s) late:
 * the hook has failed closed as timed out by then, and what it started (a shell command and
 * its children) is killed. Firing first instead would let the action answer in time with the
 * command's failure, and the guarded operation go on. A condition that does not hold reads
 * no clock at all, and no statistics are gathered until one is read.
 */
class FiringEvaluation implements HookEvaluation {
  readonly event: AnyEventPayload;
  readonly context: HookContext;
  readonly tool: ToolView | undefined;
  readonly error: { type: string; message: string } | undefined;
  readonly hookId: string;
  readonly #options: StatsOptions;
  readonly #timeoutMs: number | undefined;
  #stats: LazyRunStats | undefined = undefined;
  #deadline: number | undefined = undefined;
  #signal: AbortSignal | undefined = undefined;

  constructor(
    event: AnyEventPayload,
    context: HookContext,
    hookId: string,
    options: StatsOptions,
    timeoutMs: number | undefined,
  ) {
    this.event = event;
    this.context = context;
    this.tool = toolView(event);
    this.error =
      event.type === "model_error" ? { type: event.error.type, message: event.error.message } : undefined;
    this.hookId = hookId;
    this.#options = options;
    this.#timeoutMs = timeoutMs;
  }

  get stats(): LazyRunStats {
    this.#stats ??= new LazyRunStats(this.event, this.context, this.#options);
    return this.#stats;
  }

  startClock(): void {
    const timeoutMs = this.#timeoutMs;
    if (this.#deadline === undefined && timeoutMs !== undefined)
      this.#deadline = Date.now() + timeoutMs + Math.min(timeoutMs / 10, 1_000) + 50;
  }

  get messages(): readonly ModelMessage[] {
    return this.stats.history();
  }

  get signal(): AbortSignal | undefined {
    if (this.#signal !== undefined || this.#timeoutMs === undefined) return this.#signal;
    this.startClock();
    this.#signal = hookSignal(this.context.signal, this.#deadline!);
    return this.#signal;
  }
}

/**
 * A controller and a timer, not AbortSignal.any/timeout: the timer holds the controller, so
 * the abort happens even once nothing else refers to the signal (the engine gave up on the
 * hook; its command still runs).
 */
function hookSignal(run: AbortSignal, deadline: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new HookTimedOut()), Math.max(0, deadline - Date.now()));
  // Never keeps a finished process alive.
  timer.unref();
  const onRunAbort = () => {
    clearTimeout(timer);
    controller.abort(run.reason);
  };
  if (run.aborted) onRunAbort();
  else run.addEventListener("abort", onRunAbort, { once: true });
  controller.signal.addEventListener("abort", () => run.removeEventListener("abort", onRunAbort), {
    once: true,
  });
  return controller.signal;
}

/**
 * What a config hook's condition and action see when it fires. `timeoutMs`: the hook's
 * timeout, for `signal` (see `FiringEvaluation`); without it, `signal` is undefined (the
 * run's applies).
 */
export function makeEvaluation(
  event: AnyEventPayload,
  context: HookContext,
  hookId: string,
  options: StatsOptions = {},
  timeoutMs?: number,
): HookEvaluation {
  return new FiringEvaluation(event, context, hookId, options, timeoutMs);
}
