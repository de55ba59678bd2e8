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
import type { KindOutputs } from "../schema/kind-outputs.js";
import type { HookEntry } from "../schema/schema.js";
import type { ActionServices, Evaluation } from "./evaluation.js";
import { makeEvaluation, type StatsOptions } from "./make-evaluation.js";

export interface CompileOptions extends StatsOptions {
  /** The agent whose `hooks:` list declared it; undefined for app-wide hooks. */
  agentId?: string;
  /** Default timeout (seconds) from runtime.hook_timeout. */
  defaultTimeout?: number;
  /** What validation kept of the schemas' outputs (a config from the validation cache). */
  kindOutputs?: KindOutputs;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function limitKey(entry: HookEntry, scopeId: string, sessionId: string, kind: string): string {
  const scope = entry.limit_scope === "global" ? "global" : `session:${sessionId}`;
  return `hook:${scopeId}:${entry.id}:${kind}:${scope}`;
}

export function compileHookEntry(
  entry: HookEntry,
  services: ActionServices,
  options: CompileOptions = {},
): AnyHook {
  // Compiled at the hook's first event: a process that answers one event (`hookwise hook`)
  // compiles only the conditions of the hooks that event reaches. The loader validated it
  // (a condition that did not compile would throw where the hook runs, which fails closed).
  let predicate: ReturnType<typeof compileCondition> | undefined;
  const action = compileAction(entry.action, services, ["action"], options.kindOutputs);
  const scopeId = options.agentId ? `agent:${options.agentId}` : "app";
  const timeout = entry.timeout ?? options.defaultTimeout;
  const timeoutMs = timeout === undefined ? DEFAULT_TIMEOUT_MS : timeout * 1000;
  const event = canonicalEventName(entry.on);
  const limits = entry.max_fires > 0 || entry.cooldown > 0 || Boolean(entry.rate_limit);
  const { store } = services;
  /** The limits (when the entry has any), then the action. */
  const limited = (evaluation: Evaluation, context: { sessionId: string }) =>
    limits
      ? withinLimits(context.sessionId).then((within) => (within ? action.run(evaluation) : NOT_FIRED))
      : action.run(evaluation);
  // Limits in order: a cap already reached (read-only peek), the cooldown, the rate window,
  // then the atomic count — so a trigger held back by cooldown or rate never uses up the cap.
  async function withinLimits(sessionId: string): Promise<boolean> {
    const firesKey = limitKey(entry, scopeId, sessionId, "fires");
    if (entry.max_fires > 0 && ((await store.get<number>(firesKey)) ?? 0) >= entry.max_fires) return false;
    if (entry.cooldown > 0) {
      const key = limitKey(entry, scopeId, sessionId, "cooldown");
      if (!(await store.setIfAbsent(key, Date.now(), { ttlMs: entry.cooldown * 1000 }))) return false;
    }
    if (entry.rate_limit) {
      const allowed = await store.hit(limitKey(entry, scopeId, sessionId, "rate"), {
        max: entry.rate_limit.max,
        windowMs: entry.rate_limit.per_seconds * 1000,
        now: Date.now(),
      });
      if (!allowed) return false;
    }
    // The increment is the arbiter between concurrent fires: the cap holds exactly.
    return !(entry.max_fires > 0 && (await store.increment(firesKey)) > entry.max_fires);
  }
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
    // Synchronous while the condition and the action are (a CEL condition and `gate` are): a
    // hook that needs no promise costs the engine none. Limits read the store, so a hook with
    // one answers with a promise, as does a condition or an action that needs one.
    // The hook's clock starts once its condition holds, or as a condition answers with a
    // promise: either way before the engine starts its own (see make-evaluation.ts).
    handler(
      event: any,
      context: any,
    ): Flow | typeof NOT_FIRED | undefined | Promise<Flow | typeof NOT_FIRED | undefined> {
      const evaluation = makeEvaluation(event, context, entry.id, options, timeoutMs);
      predicate ??= compileCondition(entry.condition, ["condition"], options.kindOutputs);
      const matched = predicate(evaluation);
      if (isThenable(matched)) {
        evaluation.startClock();
        return Promise.resolve(matched).then((yes) => (yes ? limited(evaluation, context) : NOT_FIRED));
      }
      if (!matched) return NOT_FIRED;
      evaluation.startClock();
      return limited(evaluation, context);
    },
  };
  return hook as unknown as AnyHook;
}
