/**
 * A config hook entry → an ordinary engine hook (the engine never imports config).
 * The handler evaluates the condition, then the limits (cooldown,
 * max_fires, rate_limit: atomic in the StateStore, per session or global), then the action.
 */
import { canonicalEventName } from "../../events/catalogue.js";
import type { AnyHook } from "../../hooks/define-hook.js";
import type { Flow } from "../../hooks/flow.js";
import { BEFORE_EVENTS, DEFAULT_TIMEOUT_MS } from "../../hooks/hook-registry.js";
import { NOT_FIRED } from "../../hooks/invoke-hook.js";
import { compileAction } from "../actions/index.js";
import { compileCondition } from "../conditions/index.js";
import type { HookEntry } from "../schema/schema.js";
import type { ActionServices, Evaluation } from "./evaluation.js";
import { makeEvaluation, type StatsOptions } from "./make-evaluation.js";

export interface CompileOptions extends StatsOptions {
  /** The agent whose `hooks:` list declared it; undefined for app-wide hooks. */
  agentId?: string;
  /** Default timeout (seconds) from runtime.hook_timeout. */
  defaultTimeout?: number;
}

function limitKey(entry: HookEntry, scopeId: string, sessionId: string, kind: string): string {
  const scope = entry.limit_scope === "global" ? "global" : `session:${sessionId}`;
  return `hook:${scopeId}:${entry.id}:${kind}:${scope}`;
}

/**
 * The evaluation with a signal that aborts with the run or once the hook has timed out
 * (counted from now, when the engine called the hook), created on first use. It fires just
 * after the engine's own deadline, which checks at most a tenth of the timeout (at most 1 s)
 * late: the hook has failed closed as timed out by then, and what it started (a shell
 * command and its children) is killed. Firing first instead would let the action answer
 * in time with the command's failure, and the guarded operation go on.
 */
function withHookSignal(evaluation: Evaluation, timeoutMs: number): Evaluation {
  const deadline = Date.now() + timeoutMs + Math.min(timeoutMs / 10, 1_000) + 50;
  let signal: AbortSignal | undefined;
  return Object.defineProperty(evaluation, "signal", {
    get() {
      if (signal) return signal;
      // A controller and a timer, not AbortSignal.any/timeout: the timer holds the controller,
      // so the abort happens even once nothing else refers to the signal (the engine gave up
      // on the hook; its command still runs).
      const controller = new AbortController();
      const run = evaluation.context.signal;
      const timer = setTimeout(
        () => controller.abort(new DOMException("the hook timed out", "TimeoutError")),
        Math.max(0, deadline - Date.now()),
      );
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
      signal = controller.signal;
      return signal;
    },
  });
}

export function compileHookEntry(
  entry: HookEntry,
  services: ActionServices,
  options: CompileOptions = {},
): AnyHook {
  const predicate = compileCondition(entry.condition, ["condition"]);
  const action = compileAction(entry.action, services, ["action"]);
  const scopeId = options.agentId ? `agent:${options.agentId}` : "app";
  const timeout = entry.timeout ?? options.defaultTimeout;
  const timeoutMs = timeout === undefined ? DEFAULT_TIMEOUT_MS : timeout * 1000;
  const event = canonicalEventName(entry.on);
  const hook = {
    name: entry.id,
    on: entry.on,
    kind: action.kind,
    // An observer (log, notify, shell, call_tool, pipe) on an event that happens before its
    // operation (`tool_start`: "before a tool executes") runs before it, awaited.
    ...(action.kind === "inspect" && event && BEFORE_EVENTS.has(event) ? { when: "before" } : {}),
    priority: entry.priority,
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    ...(entry.on_error ? { onError: entry.on_error } : {}),
    ...(entry.scope ? { scope: entry.scope } : {}),
    async handler(event: any, context: any): Promise<Flow | typeof NOT_FIRED | undefined> {
      const evaluation = withHookSignal(makeEvaluation(event, context, entry.id, options), timeoutMs);
      if (!(await predicate(evaluation))) return NOT_FIRED;
      const { store } = services;
      // Limits in order: a cap already reached (read-only peek), the cooldown, the rate window,
      // then the atomic count — so a trigger held back by cooldown or rate never uses up the cap.
      const firesKey = limitKey(entry, scopeId, context.sessionId, "fires");
      if (entry.max_fires > 0 && ((await store.get<number>(firesKey)) ?? 0) >= entry.max_fires)
        return NOT_FIRED;
      if (entry.cooldown > 0) {
        const key = limitKey(entry, scopeId, context.sessionId, "cooldown");
        if (!(await store.setIfAbsent(key, Date.now(), { ttlMs: entry.cooldown * 1000 }))) return NOT_FIRED;
      }
      if (entry.rate_limit) {
        const allowed = await store.hit(limitKey(entry, scopeId, context.sessionId, "rate"), {
          max: entry.rate_limit.max,
          windowMs: entry.rate_limit.per_seconds * 1000,
          now: Date.now(),
        });
        if (!allowed) return NOT_FIRED;
      }
      // The increment is the arbiter between concurrent fires: the cap holds exactly.
      if (entry.max_fires > 0 && (await store.increment(firesKey)) > entry.max_fires) return NOT_FIRED;
      return action.run(evaluation);
    },
  };
  return hook as unknown as AnyHook;
}
