import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../loop/backoff.js";
import { classifyError, retryAfterMs } from "./classify-error.js";
import { ScriptExhaustedError } from "./script-exhausted-error.js";

function apiError(
  status: number | undefined,
  body?: unknown,
  options: { message?: string; headers?: Record<string, string>; retryable?: boolean } = {},
) {
  return new APICallError({
    message: options.message ?? "provider error",
    url: "https://example.test/v1/x",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: options.headers,
    responseBody: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    ...(options.retryable === undefined ? {} : { isRetryable: options.retryable }),
  });
}

const openai = (code: string | null, type: string, message = "x") => ({
  error: { message, type, param: null, code },
});
const anthropic = (type: string, message = "x") => ({ type: "error", error: { type, message } });
const google = (code: number, status: string, message = "x", details: unknown[] = []) => ({
  error: { code, message, status, details },
});

describe("classifyError: the provider's codes decide first, then the message, then the status", () => {
  it.each([
    // OpenAI
    [
      "OpenAI context_length_exceeded",
      apiError(400, openai("context_length_exceeded", "invalid_request_error")),
      "context_overflow",
      false,
      "context_length_exceeded",
    ],
    [
      "OpenAI insufficient_quota (a 429)",
      apiError(429, openai("insufficient_quota", "insufficient_quota")),
      "billing",
      false,
      "insufficient_quota",
    ],
    [
      "OpenAI rate_limit_exceeded",
      apiError(429, openai("rate_limit_exceeded", "requests")),
      "rate_limit",
      true,
      "rate_limit_exceeded",
    ],
    [
      "OpenAI invalid_api_key",
      apiError(401, openai("invalid_api_key", "invalid_request_error")),
      "auth",
      false,
      "invalid_api_key",
    ],
    ["OpenAI server_error", apiError(500, openai(null, "server_error")), "internal", true, "server_error"],
    [
      "OpenAI model_not_found",
      apiError(404, openai("model_not_found", "invalid_request_error")),
      "bad_request",
      false,
      "model_not_found",
    ],
    // Anthropic
    [
      "Anthropic overloaded_error (529)",
      apiError(529, anthropic("overloaded_error")),
      "rate_limit",
      true,
      "overloaded_error",
    ],
    [
      "Anthropic rate_limit_error",
      apiError(429, anthropic("rate_limit_error")),
      "rate_limit",
      true,
      "rate_limit_error",
    ],
    [
      "Anthropic authentication_error",
      apiError(401, anthropic("authentication_error")),
      "auth",
      false,
      "authentication_error",
    ],
    [
      "Anthropic permission_error",
      apiError(403, anthropic("permission_error")),
      "auth",
      false,
      "permission_error",
    ],
    [
      "Anthropic prompt too long",
      apiError(400, anthropic("invalid_request_error", "prompt is too long: 208315 tokens > 200000 maximum")),
      "context_overflow",
      false,
      "invalid_request_error",
    ],
    [
      "Anthropic credit balance",
      apiError(
        400,
        anthropic("invalid_request_error", "Your credit balance is too low to access the Anthropic API."),
      ),
      "billing",
      false,
      "invalid_request_error",
    ],
    [
      "Anthropic request_too_large (413)",
      apiError(413, anthropic("request_too_large")),
      "context_overflow",
      false,
      "request_too_large",
    ],
    ["Anthropic api_error", apiError(500, anthropic("api_error")), "internal", true, "api_error"],
    // Google
    [
      "Google RESOURCE_EXHAUSTED (mentions billing)",
      apiError(
        429,
        google(
          429,
          "RESOURCE_EXHAUSTED",
          "You exceeded your current quota, please check your plan and billing details.",
        ),
      ),
      "rate_limit",
      true,
      "RESOURCE_EXHAUSTED",
    ],
    [
      "Google API_KEY_INVALID (a 400)",
      apiError(
        400,
        google(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
        ]),
      ),
      "auth",
      false,
      "API_KEY_INVALID",
    ],
    [
      "Google input token count",
      apiError(
        400,
        google(
          400,
          "INVALID_ARGUMENT",
          "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
        ),
      ),
      "context_overflow",
      false,
      "INVALID_ARGUMENT",
    ],
    [
      "Google PERMISSION_DENIED",
      apiError(403, google(403, "PERMISSION_DENIED")),
      "auth",
      false,
      "PERMISSION_DENIED",
    ],
    ["Google UNAVAILABLE", apiError(503, google(503, "UNAVAILABLE")), "internal", true, "UNAVAILABLE"],
    [
      "Google DEADLINE_EXCEEDED",
      apiError(504, google(504, "DEADLINE_EXCEEDED")),
      "timeout",
      true,
      "DEADLINE_EXCEEDED",
    ],
    // OpenAI-compatible servers
    [
      "vLLM maximum context length",
      apiError(400, {
        object: "error",
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
        type: "BadRequestError",
        code: 400,
      }),
      "context_overflow",
      false,
      "BadRequestError",
    ],
    [
      "llama.cpp exceed_context_size_error",
      apiError(400, {
        error: {
          code: 400,
          message: "the request exceeds the available context size",
          type: "exceed_context_size_error",
        },
      }),
      "context_overflow",
      false,
      "exceed_context_size_error",
    ],
  ])("%s → %s", (_name, error, type, retryable, code) => {
    expect(classifyError(error)).toMatchObject({ type, retryable, code });
  });

  it.each([
    [401, "auth", false],
    [403, "auth", false],
    [402, "billing", false],
    [408, "timeout", true],
    [413, "context_overflow", false],
    [429, "rate_limit", true],
    [500, "internal", true],
    [502, "internal", true],
    [504, "timeout", true],
    [400, "bad_request", false],
    [422, "bad_request", false],
  ])("a bare status %i → %s", (status, type, retryable) => {
    const info = classifyError(apiError(status));
    expect(info).toEqual({ type, retryable, status, message: "provider error" });
  });

  it("a 4xx the provider marks retryable keeps that verdict (bad_request)", () => {
    expect(classifyError(apiError(409, undefined, { retryable: true }))).toMatchObject({
      type: "bad_request",
      retryable: true,
    });
  });

  it("no response: a connection error is network, retryable when the provider says so", () => {
    const refused = apiError(undefined, undefined, {
      message: "Cannot connect to API: connect ECONNREFUSED",
      retryable: true,
    });
    expect(classifyError(refused)).toMatchObject({ type: "network", retryable: true });
    const reset = Object.assign(new Error("socket hang up"), { cause: { code: "ECONNRESET" } });
    expect(classifyError(reset)).toMatchObject({ type: "network", retryable: true });
  });

  it("a 200 whose body does not parse, and a malformed stream chunk, are internal and retryable", () => {
    expect(classifyError(apiError(200, "{not json", { message: "Invalid JSON response" }))).toMatchObject({
      type: "internal",
      retryable: true,
    });
    const parse = Object.assign(new Error("JSON parsing failed"), { name: "AI_JSONParseError" });
    expect(classifyError(parse)).toMatchObject({ type: "internal", retryable: true });
  });

  it("an error part of a stream (a plain object) is classified by its code or type", () => {
    expect(classifyError({ type: "overloaded_error", message: "Overloaded" })).toEqual({
      type: "rate_limit",
      code: "overloaded_error",
      message: "Overloaded",
      retryable: true,
    });
    expect(
      classifyError({ message: "context_length_exceeded", type: "invalid_request_error" }),
    ).toMatchObject({
      type: "context_overflow",
    });
    expect(classifyError({ message: "something broke" })).toMatchObject({
      type: "internal",
      retryable: true,
    });
  });

  it("hookwise's own errors and plain bugs are internal and not retried; aborts and timeouts are named", () => {
    expect(classifyError(new ScriptExhaustedError({ callNumber: 2, entries: 1 }))).toMatchObject({
      type: "internal",
      retryable: false,
    });
    expect(classifyError(new TypeError("x is not a function"))).toMatchObject({
      type: "internal",
      retryable: false,
    });
    expect(classifyError(Object.assign(new Error("aborted"), { name: "AbortError" }))).toMatchObject({
      type: "aborted",
      retryable: false,
    });
    expect(classifyError(Object.assign(new Error("slow"), { name: "TimeoutError" }))).toMatchObject({
      type: "timeout",
      retryable: true,
    });
  });
});

describe("retryAfterMs and backoffDelay", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads retry-after-ms, Retry-After in seconds or as an HTTP date, and Google's retryDelay", () => {
    expect(retryAfterMs(apiError(429, undefined, { headers: { "retry-after-ms": "250" } }))).toBe(250);
    expect(retryAfterMs(apiError(429, undefined, { headers: { "retry-after": "2" } }))).toBe(2000);
    expect(retryAfterMs(apiError(429, undefined, { headers: { "Retry-After": "1.5" } }))).toBe(1500);
    const date = new Date(now + 3000).toUTCString();
    expect(retryAfterMs(apiError(429, undefined, { headers: { "retry-after": date } }), now)).toBe(3000);
    expect(
      retryAfterMs(
        apiError(429, undefined, { headers: { "retry-after": new Date(now - 5000).toUTCString() } }),
        now,
      ),
    ).toBe(0);
    const quota = google(429, "RESOURCE_EXHAUSTED", "x", [
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" },
    ]);
    expect(retryAfterMs(apiError(429, quota))).toBe(37_000);
    expect(retryAfterMs(apiError(429))).toBeUndefined();
    expect(retryAfterMs(apiError(429, undefined, { headers: { "retry-after": "soon" } }))).toBeUndefined();
    expect(retryAfterMs(new Error("x"))).toBeUndefined();
  });

  it("grows exponentially with jitter within [ceiling/2, ceiling], capped by maxDelayMs", () => {
    for (let run = 0; run < 50; run++) {
      const first = backoffDelay(1, new Error("x"), { initialDelayMs: 100 });
      const third = backoffDelay(3, new Error("x"), { initialDelayMs: 100 });
      const capped = backoffDelay(10, new Error("x"), { initialDelayMs: 100, maxDelayMs: 1000 });
      expect(first).toBeGreaterThanOrEqual(50);
      expect(first).toBeLessThanOrEqual(100);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      expect(capped).toBeGreaterThanOrEqual(500);
      expect(capped).toBeLessThanOrEqual(1000);
    }
    const delays = new Set(Array.from({ length: 20 }, () => backoffDelay(2, new Error("x"))));
    expect(delays.size).toBeGreaterThan(1); // jitter
  });

  it("a Retry-After replaces the computed delay, bounded by maxDelayMs", () => {
    const asked = apiError(429, undefined, { headers: { "retry-after": "1" } });
    expect(backoffDelay(1, asked, { initialDelayMs: 0 })).toBe(1000);
    const tooLong = apiError(429, undefined, { headers: { "retry-after": "3600" } });
    expect(backoffDelay(1, tooLong, { maxDelayMs: 20_000 })).toBe(20_000);
  });
});

describe("classifyError: a bare status", () => {
  it("529 with no body (an overloaded provider) is a rate limit, retryable", () => {
    expect(classifyError(apiError(529))).toMatchObject({ type: "rate_limit", retryable: true });
  });
});
