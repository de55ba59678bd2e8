/**
 * Calls one hook and checks its answer. A synchronous handler runs with no timer at all
 * (the common case costs one call); a promise races the hook's timeout in the run's
 * `HookDeadlines`. The engine's hot path is `callHandler` then, only for an answer other
 * than nothing, `settleNow` or the deadlines (see hook-runner.ts).
 */

import { HookError } from "../errors/hook-error.js";
import type { AnyEventPayload } from "../events/payloads.js";
import { copyFlow } from "./copy-flow.js";
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
  try {
    if (typeof value === "object" && value !== null && "type" in value)
      return `flow.${String((value as Flow).type)}()`;
    return typeof value === "object" ? (JSON.stringify(value)?.slice(0, 80) ?? "an object") : String(value);
  } catch {
    return "a value that cannot be shown";
  }
}

export function check(hook: RegisteredHook, value: unknown): Invocation {
  if (value === undefined || value === null) return CONTINUE;
  if (value === NOT_FIRED) return SILENT;
  if (hook.kind === "inspect") return CONTINUE;
  const accepted = acceptedResults(hook.event, hook.kind);
  // Read once into a plain copy: nothing of the hook's own object is read after this.
  let answer: unknown = value;
  if (typeof value === "object") {
    const copied = copyFlow(value);
    if (!copied.ok) {
      return {
        ok: false,
        error: new HookError({
          hook: hook.name,
          event: hook.event,
          reason: "invalid_result",
          field: copied.field,
          message: `returned an answer that cannot be read: ${copied.field}: ${copied.message}`,
        }),
      };
    }
    answer = copied.flow;
  }
  const type = typeof answer === "object" ? (answer as { type?: unknown }).type : undefined;
  if (typeof type === "string" && accepted.includes(type as Flow["type"])) {
    const checked = checkFlow(answer as Flow, hook.name);
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
        `returned ${describe(answer)}, which a ${hook.kind} hook on ${hook.event} cannot return ` +
        `(expected ${accepted.length ? accepted.map((name) => `flow.${name}()`).join(", ") : "nothing"} or undefined)`,
    }),
  };
}

/** What a hook threw, as text: a thrown value may have no `toString`, or one that throws. */
function thrownText(error: unknown): string {
  try {
    const message = error instanceof Error ? error.message : String(error);
    return typeof message === "string" ? message : "a value that is not an error";
  } catch {
    return "a value that is not an error (it cannot be shown as text)";
  }
}

/**
 * What a config hook's own signal is aborted with once the hook's timeout has passed. Its
 * action may end on it before the run's deadlines do (a command killed at that signal): a
 * hook that throws it has timed out, and fails as a timed-out hook, never with an answer.
 * Named `TimeoutError`, as `AbortSignal.timeout()`'s reason is.
 */
export class HookTimedOut extends Error {
  override readonly name = "TimeoutError";

  constructor() {
    super("the hook timed out");
  }
}

export function thrown(hook: RegisteredHook, error: unknown): Invocation {
  if (error instanceof HookTimedOut) return failure(hook, "timeout", `timed out after ${hook.timeoutMs} ms`);
  const message = thrownText(error);
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

export function failure(hook: RegisteredHook, reason: "timeout" | "aborted", message: string): Invocation {
  return { ok: false, error: new HookError({ hook: hook.name, event: hook.event, reason, message }) };
}

/**
 * Calls the hook's handler (with the hook definition as `this`, as ever) and returns its raw
 * answer. Never throws: a throw comes back as a value only `settleNow` understands.
 */
export function callHandler(hook: RegisteredHook, payload: AnyEventPayload, context: HookContext): unknown {
  try {
    const value = (hook.definition.handler as Handler)(payload, context);
    // A thenable that is no promise is read as a promise of it: its `then` runs later, as a
    // promise's reaction would, so a `then` that throws (or answers at once, before the
    // runner reads it) settles like a promise and fails closed naming the hook.
    if (typeof value === "object" && value !== null && !(value instanceof Promise) && isThenable(value))
      return Promise.resolve(value);
    return value;
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

/** A raw answer from `callHandler` that is no promise, checked (a throw is a failure naming the hook). */
export function settleNow(hook: RegisteredHook, value: unknown): Invocation {
  return value instanceof Threw ? thrown(hook, value.error) : check(hook, value);
}

/** Whether a raw answer from `callHandler` is a promise (raced against the hook's timeout: hook-deadlines.ts). */
export function isPending(value: unknown): value is PromiseLike<unknown> {
  return !(value instanceof Threw) && isThenable(value);
}

/**
 * Calls a hook and checks its answer, awaiting it when it is a promise (no timeout: the
 * runner's deadlines do that in a run). For checking a hook's answers on their own.
 */
export async function invokeHook(
  hook: RegisteredHook,
  payload: AnyEventPayload,
  context: HookContext,
): Promise<Invocation> {
  const value = callHandler(hook, payload, context);
  if (!isPending(value)) return settleNow(hook, value);
  try {
    return check(hook, await value);
  } catch (error) {
    return thrown(hook, error);
  }
}
