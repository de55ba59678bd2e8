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
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
