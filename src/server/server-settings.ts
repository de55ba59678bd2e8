/**
 * The server's settings: the config's `server:` section, overridden by `serve` options (the
 * CLI's flags), and the bearer token from the environment. A bind that is not loopback
 * without a token is refused here, before anything listens.
 */
import type { ServerConfig } from "../config/schema/server-schema.js";
import { HookwiseError } from "../errors/hookwise-error.js";

export const SERVER_TOKEN_ENV = "HOOKWISE_SERVER_TOKEN";

export interface ServerSettings {
  host: string;
  port: number;
  /** Bearer token every API request must carry; undefined: no auth (loopback only). */
  token: string | undefined;
  sessionIdleMs: number;
  busyWaitMs: number;
  bodyLimit: number;
  cors: readonly string[];
  drainMs: number;
}

export interface SettingsOverrides {
  host?: string;
  port?: number;
  token?: string;
  sessionIdleMs?: number;
  busyWaitMs?: number;
  bodyLimit?: number;
  cors?: readonly string[];
  drainMs?: number;
}

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare === "::1") return true;
  // node:net loads here, not when hookwise is imported
  return process.getBuiltinModule("node:net").isIP(bare) === 4 && bare.startsWith("127.");
}

export function resolveSettings(
  config: ServerConfig | undefined,
  overrides: SettingsOverrides,
  env: NodeJS.ProcessEnv,
): ServerSettings {
  const token = overrides.token ?? (env[SERVER_TOKEN_ENV] || undefined);
  const host = overrides.host ?? "127.0.0.1";
  const port = overrides.port ?? 8787;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new HookwiseError(`--port must be an integer from 0 to 65535, got ${port}`);
  }
  if (!isLoopback(host) && !token) {
    throw new HookwiseError(
      `refusing to listen on ${host} without ${SERVER_TOKEN_ENV}: anyone who can reach it could run agents. ` +
        `Set ${SERVER_TOKEN_ENV} (clients then send "Authorization: Bearer <token>"), or bind 127.0.0.1`,
    );
  }
  if (token !== undefined && /\s/.test(token)) {
    throw new HookwiseError(
      `${SERVER_TOKEN_ENV} holds spaces or line breaks: use one word of at least 16 characters (e.g. openssl rand -hex 24)`,
    );
  }
  if (token !== undefined && token.length < 16) {
    throw new HookwiseError(
      `${SERVER_TOKEN_ENV} is too short: use at least 16 characters (e.g. openssl rand -hex 24)`,
    );
  }
  return {
    host,
    port,
    token,
    sessionIdleMs: overrides.sessionIdleMs ?? (config?.session_idle ?? 1800) * 1000,
    busyWaitMs: overrides.busyWaitMs ?? (config?.busy_wait ?? 5) * 1000,
    bodyLimit: overrides.bodyLimit ?? config?.body_limit ?? 1_048_576,
    cors: overrides.cors ?? config?.cors ?? [],
    drainMs: overrides.drainMs ?? (config?.drain ?? 10) * 1000,
  };
}
