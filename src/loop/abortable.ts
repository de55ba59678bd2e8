import { setMaxListeners } from "node:events";

/**
 * The signal of a run whose caller passed none: nothing can abort it, so there is nothing
 * to race. Shared by those runs (tools and hooks may listen to it: no listener limit).
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/** A run's own signal, and how to let go of the caller's when the run is over. */
export interface RunSignal {
  readonly signal: AbortSignal;
  /** Whether anything can abort the run (a caller passed a signal). */
  readonly abortable: boolean;
  /** Stops following the caller's signal (the run is over). */
  release(): void;
}

const NEVER: RunSignal = { signal: NEVER_ABORTED, abortable: false, release() {} };

/**
 * The run's own signal: the caller's composed once. Everything the run does (hooks, tools,
 * the model, `ctx.signal`) listens to the run's signal, which dies with the run. The
 * caller's signal gets one listener, whatever the number of runs following it (a server's
 * shutdown signal shared by every request), and a run stops following it when it is over.
 * The run's signal has no listener limit: a run may have any number of hooks or tools
 * waiting on it. A run given no signal shares `NEVER_ABORTED` (nothing to listen to).
 */
export function runSignal(caller: AbortSignal | undefined): RunSignal {
  if (caller === undefined) return NEVER;
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (caller.aborted) {
    controller.abort(caller.reason);
    return { signal: controller.signal, abortable: true, release() {} };
  }
  const followers = followersOf(caller);
  followers.add(controller);
  return { signal: controller.signal, abortable: true, release: () => followers.delete(controller) };
}

/** The runs following each caller's signal, aborted together by its one listener. */
const following = new WeakMap<AbortSignal, Set<AbortController>>();

function followersOf(caller: AbortSignal): Set<AbortController> {
  let followers = following.get(caller);
  if (followers === undefined) {
    const set = new Set<AbortController>();
    followers = set;
    following.set(caller, set);
    caller.addEventListener(
      "abort",
      () => {
        for (const controller of [...set]) controller.abort(caller.reason);
        set.clear();
      },
      { once: true },
    );
  }
  return followers;
}

/** What an aborted run throws: the signal's reason when it is an Error, else an AbortError saying so. */
export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === "string" ? reason : "the run was aborted");
  error.name = "AbortError";
  return error;
}

/**
 * Races a promise against the run's AbortSignal: an aborted run ends now, even when a tool
 * or a model ignores its signal (its late result is dropped, never committed).
 */
export function abortable<T>(promise: T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The late outcome is dropped, but a rejection of it must not go unhandled.
    Promise.resolve(promise).catch(() => {});
    return Promise.reject(signal.reason);
  }
  // A value that is not a promise (a synchronous tool), or a run nothing can abort: no race.
  if (signal === NEVER_ABORTED || !isThenable(promise)) return Promise.resolve(promise);
  const gate = gateOf(signal);
  return new Promise<T>((resolve, reject) => {
    gate.enter(reject);
    promise.then(
      (value) => {
        gate.leave();
        resolve(value);
      },
      (error: unknown) => {
        gate.leave();
        reject(error);
      },
    );
  });
}

/**
 * What a signal's abort rejects: the promises still racing it. One listener per signal,
 * not one per call (a run races every model call and every async tool); the list is
 * emptied whenever nothing is in flight, so a long run does not accumulate it. A promise
 * that settled before the abort ignores its late rejection.
 */
class AbortGate {
  #rejects: ((reason: unknown) => void)[] = [];
  #inFlight = 0;

  constructor(signal: AbortSignal) {
    signal.addEventListener(
      "abort",
      () => {
        const rejects = this.#rejects;
        this.#rejects = [];
        for (const reject of rejects) reject(signal.reason);
      },
      { once: true },
    );
  }

  enter(reject: (reason: unknown) => void): void {
    this.#rejects.push(reject);
    this.#inFlight++;
  }

  leave(): void {
    if (--this.#inFlight === 0) this.#rejects.length = 0;
  }
}

const gates = new WeakMap<AbortSignal, AbortGate>();

function gateOf(signal: AbortSignal): AbortGate {
  let gate = gates.get(signal);
  if (gate === undefined) {
    gate = new AbortGate(signal);
    gates.set(signal, gate);
  }
  return gate;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
