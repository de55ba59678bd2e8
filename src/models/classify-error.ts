/**
 * Classifies a failed attempt into an error type — rate_limit, context_overflow,
 * billing, timeout, auth, network, internal (plus bad_request and aborted) — and decides
 * whether a retry is worth it. The provider's own error code or type decides first (OpenAI
 * `error.code`, Anthropic `error.type`, Google `error.status` and `details[].reason`), then
 * the message (a generic `invalid_request_error` may say "prompt is too long"), then the
 * HTTP status. Works on thrown errors and on error parts of a stream (plain objects).
 */
import { HookwiseError } from "../errors/hookwise-error.js";
import type { ErrorInfo } from "../events/payloads.js";
import { aiSdkProvider } from "./ai-sdk-provider.js";

type ErrorType = "rate_limit" | "context_overflow" | "billing" | "timeout" | "auth" | "network" | "internal";

/** Provider codes and types (lower case) that name the class outright. */
const BY_CODE: Record<string, ErrorType> = {
  context_length_exceeded: "context_overflow", // OpenAI
  string_above_max_length: "context_overflow", // OpenAI: one input longer than allowed
  request_too_large: "context_overflow", // Anthropic 413
  exceed_context_size_error: "context_overflow", // llama.cpp server
  insufficient_quota: "billing", // OpenAI (sent with status 429: not a rate limit)
  billing_error: "billing", // Anthropic
  billing_hard_limit_reached: "billing",
  billing_not_active: "billing",
  rate_limit_exceeded: "rate_limit", // OpenAI
  rate_limit_error: "rate_limit", // Anthropic
  overloaded_error: "rate_limit", // Anthropic 529: capacity, retry later
  resource_exhausted: "rate_limit", // Google 429
  invalid_api_key: "auth", // OpenAI
  authentication_error: "auth", // Anthropic
  permission_error: "auth", // Anthropic
  unauthenticated: "auth", // Google
  permission_denied: "auth", // Google
  api_key_invalid: "auth", // Google details[].reason (sent with status 400)
  deadline_exceeded: "timeout", // Google
  timeout_error: "timeout",
  server_error: "internal", // OpenAI
  api_error: "internal", // Anthropic
  internal: "internal", // Google
  unavailable: "internal", // Google 503
};

const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|context (window|length|size)|maximum context|prompt is too long|too many tokens|input token count.*exceeds|exceeds? the (maximum|available) (number of tokens|context)|reduce the length of the (messages|prompt)/i;
// Not a bare "billing": Google's free-tier rate limit says "check your plan and billing details".
const BILLING =
  /insufficient[_ ]quota|credit balance|payment required|billing[_ ](hard[_ ]limit|not[_ ]active)|add a payment method/i;
const AUTH = /api key not valid|invalid api[_ -]?key|incorrect api key|invalid x-api-key/i;
const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/;
/** AI SDK errors for a provider answer that does not parse: a server fault, worth a retry. */
const MALFORMED = new Set(["AI_JSONParseError", "AI_TypeValidationError", "AI_InvalidResponseDataError"]);

interface Facts {
  message: string;
  status: number | undefined;
  /** The provider's codes and types, most specific first. */
  codes: string[];
  /** Message and body, for the message rules. */
  text: string;
}

export function classifyError(error: unknown): ErrorInfo {
  const message = messageOf(error);
  if (HookwiseError.isInstance(error)) return { type: "internal", message, retryable: false };
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return error.name === "TimeoutError"
      ? { type: "timeout", message, retryable: true }
      : { type: "aborted", message, retryable: false };
  }
  const facts = factsOf(error, message);
  const base: Omit<ErrorInfo, "type" | "retryable"> = { message };
  if (facts.status !== undefined) base.status = facts.status;
  for (const code of facts.codes) {
    const type = BY_CODE[code.toLowerCase()];
    if (type) return info({ ...base, code }, type);
  }
  if (facts.codes[0] !== undefined) base.code = facts.codes[0];
  if (CONTEXT_OVERFLOW.test(facts.text)) return info(base, "context_overflow");
  if (BILLING.test(facts.text)) return info(base, "billing");
  if (AUTH.test(facts.text)) return info(base, "auth");
  const status = facts.status;
  if (status !== undefined) {
    if (status === 401 || status === 403) return info(base, "auth");
    if (status === 402) return info(base, "billing");
    if (status === 408 || status === 504) return info(base, "timeout");
    if (status === 413) return info(base, "context_overflow");
    if (status === 429 || status === 529) return info(base, "rate_limit");
    if (status >= 500) return info(base, "internal");
    // Other 4xx: the provider's verdict (the AI SDK marks 409 retryable; a provider may
    // flag one answer as worth retrying). 2xx: an answer that did not parse.
    if (status >= 400)
      return {
        ...base,
        type: "bad_request",
        retryable: aiSdkProvider().APICallError.isInstance(error) && error.isRetryable,
      };
    return info(base, "internal");
  }
  if (aiSdkProvider().APICallError.isInstance(error))
    return { ...base, type: "network", retryable: error.isRetryable };
  if (networkCode(error)) return info(base, "network");
  if (error instanceof Error && MALFORMED.has(error.name)) return info(base, "internal");
  // An error part of a stream (a plain object): the provider reported a failure mid-answer.
  if (!(error instanceof Error) && typeof error === "object" && error !== null) return info(base, "internal");
  return { ...base, type: "internal", retryable: false };
}

const RETRYABLE: Record<ErrorType, boolean> = {
  rate_limit: true,
  timeout: true,
  network: true,
  internal: true,
  context_overflow: false,
  billing: false,
  auth: false,
};

function info(base: Omit<ErrorInfo, "type" | "retryable">, type: ErrorType): ErrorInfo {
  return { ...base, type, retryable: RETRYABLE[type] };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const value = error as { message?: unknown; error?: { message?: unknown } };
    if (typeof value.message === "string") return value.message;
    if (typeof value.error?.message === "string") return value.error.message;
    return JSON.stringify(error);
  }
  return String(error);
}

function factsOf(error: unknown, message: string): Facts {
  if (aiSdkProvider().APICallError.isInstance(error)) {
    const body = parseJson(error.responseBody) ?? error.data;
    return {
      message,
      status: error.statusCode,
      codes: codesOf(body),
      text: `${message} ${error.responseBody ?? ""}`,
    };
  }
  if (error instanceof Error) return { message, status: undefined, codes: [], text: message };
  return { message, status: undefined, codes: codesOf(error), text: `${message} ${safeJson(error)}` };
}

/**
 * Codes from the shapes providers send: OpenAI `{ error: { code, type } }`, Anthropic
 * `{ type: "error", error: { type } }`, Google `{ error: { status, details: [{ reason }] } }`,
 * and a stream's error part (the inner object itself).
 */
function codesOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const outer = body as { error?: unknown };
  const inner = (typeof outer.error === "object" && outer.error !== null ? outer.error : body) as {
    code?: unknown;
    type?: unknown;
    status?: unknown;
    details?: unknown;
  };
  const codes: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value && value !== "error") codes.push(value);
  };
  if (Array.isArray(inner.details)) {
    for (const detail of inner.details) add((detail as { reason?: unknown })?.reason);
  }
  add(inner.code);
  add(inner.status);
  add(inner.type);
  return codes;
}

function networkCode(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/**
 * Milliseconds the provider asked to wait before a retry, if it said: `retry-after-ms`,
 * `Retry-After` (seconds or an HTTP date), or Google's `RetryInfo.retryDelay` ("37s").
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!aiSdkProvider().APICallError.isInstance(error)) return undefined;
  const headers = lowerCased(error.responseHeaders ?? {});
  const ms = Number(headers["retry-after-ms"]);
  if (headers["retry-after-ms"] !== undefined && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers["retry-after"]?.trim();
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return googleRetryDelay(parseJson(error.responseBody) ?? error.data);
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) result[key.toLowerCase()] = value;
  return result;
}

function googleRetryDelay(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown })?.retryDelay;
    const match = typeof delay === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}
