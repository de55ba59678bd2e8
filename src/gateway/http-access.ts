/**
 * Who may reach the gateway over HTTP, as `hookwise serve` decides it: with a token
 * (`HOOKWISE_SERVER_TOKEN`, at least 16 characters) every request carries
 * `Authorization: Bearer <token>`, compared in constant time; without one the gateway
 * binds loopback only and answers only requests addressed to a loopback name, so a web
 * page elsewhere cannot reach it through DNS rebinding. A request a browser sent for a web
 * page (it has an `Origin`) is answered only for a page of a loopback origin or of the
 * gateway's own origin: a page of any other site gets 403, token or not.
 */

import { nodeCrypto } from "../deps/node-crypto.js";
import { HookwiseError } from "../errors/hookwise-error.js";

export const GATEWAY_TOKEN_ENV = "HOOKWISE_SERVER_TOKEN";

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare === "::1") return true;
  return process.getBuiltinModule("node:net").isIP(bare) === 4 && bare.startsWith("127.");
}

/** Checks the bind: another address than loopback needs a token. Returns the token. */
export function checkBind(host: string, env: NodeJS.ProcessEnv): string | undefined {
  const token = env[GATEWAY_TOKEN_ENV] || undefined;
  if (!isLoopback(host) && !token) {
    throw new HookwiseError(
      `refusing to listen on ${host} without ${GATEWAY_TOKEN_ENV}: anyone who can reach it could call the tools. Set ${GATEWAY_TOKEN_ENV} (clients then send "Authorization: Bearer <token>"), or bind 127.0.0.1`,
    );
  }
  if (token !== undefined && token.length < 16) {
    throw new HookwiseError(
      `${GATEWAY_TOKEN_ENV} is too short: use at least 16 characters (e.g. openssl rand -hex 24)`,
    );
  }
  return token;
}

const digest = (text: string) => nodeCrypto().createHash("sha256").update(text).digest();

/** The host name of a `Host` header (`[::1]:8788` → `[::1]`, `localhost:8788` → `localhost`). */
function hostName(host: string): string {
  return (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!).toLowerCase();
}

/** Why a page's `Origin` may not reach the gateway, or undefined when it may. */
function originRefusal(origin: string | undefined, host: string): string | undefined {
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  // "null" (a sandboxed frame, a file) and anything not http(s) is no page of ours.
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:"))
    return `this gateway does not answer web pages of origin "${origin.slice(0, 100)}"`;
  if (isLoopback(url.hostname) || url.host.toLowerCase() === host.toLowerCase()) return undefined;
  return `this gateway does not answer web pages of another site ("${url.origin}"): only loopback or its own origin`;
}

/** Why a request is refused (status and message), or undefined when it may pass. */
export function refusal(
  headers: { authorization?: string | undefined; host?: string | undefined; origin?: string | undefined },
  token: string | undefined,
): { status: number; message: string } | undefined {
  const host = headers.host ?? "";
  const page = originRefusal(headers.origin, host);
  if (page !== undefined) return { status: 403, message: page };
  if (token === undefined) {
    const name = hostName(host);
    if (!isLoopback(name))
      return { status: 403, message: `this gateway answers only loopback hosts, not "${name}"` };
    return undefined;
  }
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  if (match && nodeCrypto().timingSafeEqual(digest(match[1]!.trim()), digest(token))) return undefined;
  return {
    status: 401,
    message: match
      ? "the bearer token is wrong"
      : `this gateway needs "Authorization: Bearer <${GATEWAY_TOKEN_ENV}>"`,
  };
}
