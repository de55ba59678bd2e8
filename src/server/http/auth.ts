/**
 * Who may call the API. With a token (`HOOKWISE_SERVER_TOKEN`), every API request carries
 * `Authorization: Bearer <token>`, compared in constant time. Without one the server is
 * loopback-only, and it answers only requests addressed to a loopback name: a web page
 * elsewhere cannot reach it through DNS rebinding. The UI's files and `/healthz` are public.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { isLoopback } from "../server-settings.js";
import { HttpError } from "./http-error.js";

/** Paths of the API (everything else is the UI's static files). */
export const API_PREFIXES = [
  "/sessions",
  "/runs",
  "/api",
  "/approvals",
  "/events",
  "/metrics",
  "/openapi.json",
  "/agents",
  "/hooks",
  "/gateway",
] as const;

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Equal-length digests, so neither the length nor a common prefix of the token leaks through timing. */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function bearerAuth(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !tokenMatches(match[1]!.trim(), token)) {
      c.header("WWW-Authenticate", 'Bearer realm="hookwise"');
      throw new HttpError(
        401,
        "unauthorized",
        match
          ? "the bearer token is wrong"
          : 'this server needs "Authorization: Bearer <HOOKWISE_SERVER_TOKEN>"',
      );
    }
    return next();
  };
}

/** Without a token: only requests whose Host is a loopback name (any port). */
export function loopbackHostGuard(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
    if (!isLoopback(name)) {
      throw new HttpError(
        421,
        "wrong_host",
        `this server answers requests to localhost only (Host: ${host.slice(0, 80)}); set HOOKWISE_SERVER_TOKEN to serve other names`,
      );
    }
    return next();
  };
}
