/**
 * Who may reach the gateway over HTTP, as `hookwise serve` decides it: with a token
 * (`HOOKWISE_SERVER_TOKEN`, at least 16 characters) every request carries
 * `Authorization: Bearer <token>`, compared in constant time; without one the gateway
 * binds loopback only and answers only requests addressed to a loopback name, so a web
 * page elsewhere cannot reach it through DNS rebinding.
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

/** Why a request is refused (status and message), or undefined when it may pass. */
export function refusal(
  headers: { authorization?: string | undefined; host?: string | undefined },
  token: string | undefined,
): { status: number; message: string } | undefined {
  if (token === undefined) {
    const host = headers.host ?? "";
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
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
