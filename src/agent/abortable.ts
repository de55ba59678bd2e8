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
  // A value that is not a promise (a synchronous tool) has nothing to race.
  if (!isThenable(promise)) return Promise.resolve(promise);
  const pending = Promise.resolve(promise);
  // A rejection that loses the race (the run was aborted first) must not go unhandled.
  pending.catch(() => {});
  return Promise.race([pending, abortedPromise(signal)]);
}

/**
 * One promise per signal that rejects when it aborts: racing against it costs no listener
 * per call (a run races every model call and every async tool).
 */
const abortedPromises = new WeakMap<AbortSignal, Promise<never>>();

function abortedPromise(signal: AbortSignal): Promise<never> {
  let aborted = abortedPromises.get(signal);
  if (aborted === undefined) {
    aborted = new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => {});
    abortedPromises.set(signal, aborted);
  }
  return aborted;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
