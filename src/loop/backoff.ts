/** Exponential backoff with full jitter, honouring Retry-After when the provider sends one. */
import { retryAfterMs } from "../models/classify-error.js";

export interface RetryOptions {
  /** Delay before the first retry, in ms (default 500). 0 retries at once (tests). */
  initialDelayMs?: number;
  /** Upper bound of one delay (default 30 000 ms). */
  maxDelayMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
}

export function backoffDelay(attempt: number, error: unknown, options: RetryOptions = {}): number {
  const maxDelay = options.maxDelayMs ?? 30_000;
  const asked = retryAfterMs(error);
  if (asked !== undefined) return Math.min(asked, maxDelay);
  const initial = options.initialDelayMs ?? 500;
  const ceiling = Math.min(maxDelay, initial * (options.factor ?? 2) ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
