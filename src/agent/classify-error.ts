/**
 * Classifies a provider error into seed 003's classes (rate_limit, context_overflow,
 * billing, timeout, auth, network, internal) and decides whether it is worth a retry.
 */
import { APICallError } from "@ai-sdk/provider";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { ErrorInfo } from "../events/payloads.js";

const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|context window|too many tokens|maximum context|prompt is too long/i;
const BILLING = /insufficient[_ ]quota|billing|credit balance|payment/i;

export function classifyError(error: unknown): ErrorInfo {
  const message = error instanceof Error ? error.message : String(error);
  if (HookwiseError.isInstance(error)) return { type: "internal", message, retryable: false };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const body = `${error.responseBody ?? ""} ${message}`;
    const base = { message, ...(status === undefined ? {} : { status }) };
    if (CONTEXT_OVERFLOW.test(body)) return { ...base, type: "context_overflow", retryable: false };
    if (status === 402 || BILLING.test(body)) return { ...base, type: "billing", retryable: false };
    if (status === 401 || status === 403) return { ...base, type: "auth", retryable: false };
    if (status === 429) return { ...base, type: "rate_limit", retryable: true };
    if (status === 408) return { ...base, type: "timeout", retryable: true };
    if (status !== undefined && status >= 500) return { ...base, type: "internal", retryable: true };
    // Other 4xx: the provider's own verdict (the AI SDK marks 409 retryable, and providers
    // may flag a specific answer as worth retrying).
    if (status !== undefined && status >= 400)
      return { ...base, type: "bad_request", retryable: error.isRetryable };
    return { ...base, type: "network", retryable: error.isRetryable };
  }
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return { type: error.name === "TimeoutError" ? "timeout" : "aborted", message, retryable: false };
  }
  const code = (error as { code?: unknown })?.code;
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE)$/.test(code)
  ) {
    return { type: "network", message, retryable: true };
  }
  return { type: "internal", message, retryable: false };
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), if any. */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const value = headers["retry-after"] ?? headers["Retry-After"];
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && Number.isFinite(Number(ms))) return Number(ms);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
