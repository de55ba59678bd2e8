/**
 * Sends one operation's request and reads its answer, within bounds:
 * - each attempt has a timeout (covering the body), and the run's abort cancels it;
 * - a body over `maxResponseBytes` is refused, not buffered;
 * - redirects are followed within the same origin only;
 * - 429 and 503 are retried up to `retries` times, after the server's `Retry-After`
 *   (seconds or an HTTP date; at most a minute) or a short backoff when it gives none;
 * - 4xx/5xx become an OpenApiCallError with the status and the start of the body.
 * The result is `{ status, body }`: parsed JSON for a JSON answer, else the text (null when
 * empty). Secrets are redacted from all of it.
 */

import { OpenApiCallError } from "../openapi-call-error.js";
import type { BuiltRequest } from "./build-http-request.js";
import { readCappedBody } from "./read-capped-body.js";
import { sameOriginFetch } from "./same-origin-fetch.js";
import type { Redactor } from "./secret-redactor.js";

export interface SendOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  retries: number;
  signal: AbortSignal;
  redactor: Redactor;
}

export interface ApiResult {
  status: number;
  body: unknown;
}

const RETRIED = new Set([429, 503]);
const MAX_RETRY_WAIT_MS = 60_000;
const ERROR_BODY_CHARS = 2_000;

export async function sendHttpRequest(request: BuiltRequest, options: SendOptions): Promise<ApiResult> {
  const { redactor } = options;
  const fail = (
    reason: OpenApiCallError["reason"],
    message: string,
    extra: { status?: number; body?: string } = {},
  ) => new OpenApiCallError({ reason, message: redactor.text(`${request.label}: ${message}`), ...extra });
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([options.signal, timeout]);
    try {
      const answer = await sameOriginFetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal,
      });
      if (answer.kind === "refused")
        throw fail("redirect", `the server redirected to another host (${answer.location.origin}); refused`);
      if (answer.kind === "too_many") throw fail("redirect", "too many redirects");
      const { response } = answer;
      if (RETRIED.has(response.status) && attempt < options.retries) {
        const wait = retryDelay(response.headers.get("retry-after"), attempt);
        if (wait <= MAX_RETRY_WAIT_MS) {
          await response.body?.cancel().catch(() => {});
          await sleep(wait, options.signal);
          continue;
        }
      }
      const read = await readCappedBody(response, options.maxResponseBytes);
      if (!read.ok)
        throw fail(
          "too_large",
          `the response is larger than max_response_bytes (${options.maxResponseBytes} bytes)`,
          {
            status: response.status,
          },
        );
      const text = redactor.text(read.bytes.toString("utf8"));
      if (response.status >= 400) {
        const body = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}…` : text;
        const status = `${response.status} ${response.statusText}`.trimEnd();
        throw fail("status", `the server answered ${status}${body ? `: ${body}` : ""}`, {
          status: response.status,
          body,
        });
      }
      return {
        status: response.status,
        body: parseBody(text, response.headers.get("content-type"), redactor),
      };
    } catch (error) {
      if (OpenApiCallError.isInstance(error)) throw error;
      if (options.signal.aborted) throw options.signal.reason;
      if (timeout.aborted) throw fail("timeout", `no answer within ${options.timeoutMs / 1000} s`);
      throw fail("network", `cannot reach ${request.url.origin}: ${causeText(error)}`);
    }
  }
}

function parseBody(text: string, contentType: string | null, redactor: Redactor): unknown {
  if (text === "") return null;
  if (contentType && /^application\/(?:[\w.-]+\+)?json\b/i.test(contentType)) {
    try {
      return redactor.value(JSON.parse(text));
    } catch {
      return text;
    }
  }
  return text;
}

/** Milliseconds to wait before the next attempt. */
export function retryDelay(retryAfter: string | null, attempt: number, now = Date.now()): number {
  if (retryAfter !== null) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return 250 * 2 ** attempt;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function causeText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
