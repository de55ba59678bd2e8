/**
 * Calls one hook with its timeout and checks its answer. A synchronous handler runs with
 * no timer at all (the common case costs one call); a promise races the hook's timeout.
 * The engine's hot path is `callHandler` then, only for an answer other than nothing,
 * `settleAnswer` (see hook-runner.ts).
 */

import { HookError } from "../errors/hook-error.js";
import type { AnyEventPayload } from "../events/payloads.js";
import type { Flow } from "./flow.js";
import { checkFlow } from "./flow-schema.js";
import type { HookContext } from "./hook-context.js";
import type { RegisteredHook } from "./hook-registry.js";
import { acceptedResults } from "./hook-result.js";

export type Invocation =
  | { ok: true; result: Flow | undefined; notFired?: boolean }
  | { ok: false; error: HookError };

/**
 * What a hook returns when its own guard did not match (a config hook whose condition is
 * false, a limit reached): like `undefined`, but the hook did not fire, so it leaves no
 * entry in `RunResult.events`.
 */
export const NOT_FIRED: unique symbol = Symbol.for("hookwise.not_fired") as never;

const CONTINUE: Invocation = Object.freeze({ ok: true, result: undefined });
const SILENT: Invocation = Object.freeze({ ok: true, result: undefined, notFired: true });

/** A handler's throw, as `callHandler` returns it (never a value a handler can return). */
class Threw {
  constructor(readonly error: unknown) {}
}

type Handler = (event: AnyEventPayload, context: HookContext) => unknown;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

function describe(value: unknown): string {
  if (typeof value === "object" && value !== null && "type" in value)
    return `flow.${String((value as Flow).type)}()`;
  return typeof value === "object" ? (JSON.stringify(value)?.slice(0, 80) ?? "an object") : String(value);
}

function check(hook: RegisteredHook, value: unknown): Invocation {
  if (value === undefined || value === null) return CONTINUE;
  if (value === NOT_FIRED) return SILENT;
  if (hook.kind === "inspect") return CONTINUE;
  const accepted = acceptedResults(hook.event, hook.kind);
  const type = typeof value === "object" ? (value as { type?: unknown }).type : undefined;
  if (typeof type === "string" && accepted.includes(type as Flow["type"])) {
    const checked = checkFlow(value as Flow, hook.name);
    if (checked.ok) return { ok: true, result: checked.flow };
    return {
      ok: false,
      error: new HookError({
        hook: hook.name,
        event: hook.event,
        reason: "invalid_result",
        field: checked.field,
        message: `returned a malformed flow.${type}(): ${checked.field}: ${checked.message}`,
      }),
    };
  }
  return {
    ok: false,
    error: new HookError({
      hook: hook.name,
      event: hook.event,
      reason: "invalid_result",
      message:
        `returned ${describe(value)}, which a ${hook.kind} hook on ${hook.event} cannot return ` +
        `(expected ${accepted.length ? accepted.map((name) => `flow.${name}()`).join(", ") : "nothing"} or undefined)`,
    }),
  };
}

function thrown(hook: RegisteredHook, error: unknown): Invocation {
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    error: new HookError({
      hook: hook.name,
      event: hook.event,
      reason: "threw",
      message: `threw: ${message}`,
      cause: error,
    }),
  };
}

function failure(hook: RegisteredHook, reason: "timeout" | "aborted", message: string): Invocation {
  return { ok: false, error: new HookError({ hook: hook.name, event: hook.event, reason, message }) };
}

/**
 * Races a pending answer against the hook's timeout and the run's signal: an aborted run
 * does not wait for a hook that ignores `ctx.signal` (its late answer is dropped).
 */
function withTimeout(
  hook: RegisteredHook,
  pending: PromiseLike<unknown>,
  signal: AbortSignal,
): Promise<Invocation> {
  return new Promise<Invocation>((resolve) => {
    const finish = (invocation: Invocation) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(invocation);
    };
    const onAbort = () => finish(failure(hook, "aborted", "was cancelled: the run was aborted"));
    const timer = setTimeout(
      () => finish(failure(hook, "timeout", `timed out after ${hook.timeoutMs} ms`)),
      hook.timeoutMs,
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => finish(check(hook, value)),
      (error: unknown) => finish(thrown(hook, error)),
    );
  });
}

/**
 * Calls the hook's handler (with the hook definition as `this`, as ever) and returns its raw
 * answer. Never throws: a throw comes back as a value only `settleAnswer` understands.
 */
export function callHandler(hook: RegisteredHook, payload: AnyEventPayload, context: HookContext): unknown {
  try {
    return (hook.definition.handler as Handler)(payload, context);
  } catch (error) {
    return new Threw(error);
  }
}

/**
 * Whether a raw answer from `callHandler` is an inspect hook's common case: anything but a
 * throw, a promise or `NOT_FIRED` (all `CONTINUE` for an inspect hook, which answers nothing).
 */
export function isPlainAnswer(value: unknown): boolean {
  if (typeof value === "object") return value === null || (!(value instanceof Threw) && !isThenable(value));
  return value !== NOT_FIRED;
}

/**
 * What a raw answer from `callHandler` amounts to: checked synchronously, or once a promise
 * settled (raced against the hook's timeout and the run's signal).
 */
export function settleAnswer(
  hook: RegisteredHook,
  value: unknown,
  signal: AbortSignal,
): Invocation | Promise<Invocation> {
  if (value instanceof Threw) return thrown(hook, value.error);
  return isThenable(value) ? withTimeout(hook, value, signal) : check(hook, value);
}

/** Never throws: failures come back as `{ ok: false, error }` for the caller's fail-closed rule. */
export function invokeHook(
  hook: RegisteredHook,
  payload: AnyEventPayload,
  context: HookContext,
): Invocation | Promise<Invocation> {
  return settleAnswer(hook, callHandler(hook, payload, context), context.signal);
}
