/**
 * `serve`: a config's agents over HTTP (what `hookwise serve` runs). Loads Hono on first
 * use, builds the shared context, listens, and sweeps idle sessions; `close()` is the
 * graceful shutdown (drain, abort, close MCP and language servers, close the store).
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoadedConfig, loadConfig } from "../config/load-config.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { AnyHook } from "../hooks/define-hook.js";
import { createApp } from "./create-app.js";
import { loadHono } from "./http/load-hono.js";
import { createServerContext } from "./server-context.js";
import { resolveSettings, type SettingsOverrides } from "./server-settings.js";
import { IdleSweeper } from "./sessions/idle-sweeper.js";
import { shutdown } from "./shutdown.js";
import { findWebRoot } from "./web-assets.js";

export interface ServeOptions extends SettingsOverrides {
  /**
   * The config: a path (loaded with sessions in SQLite at `.hookwise/state.db` beside it
   * unless `runtime.state` says otherwise), or a config already loaded. Either way the
   * server owns it and closes it on shutdown.
   */
  config: string | LoadedConfig;
  /** The built web UI (default: `dist/web` of this package). */
  webRoot?: string;
  /** Where the server's own lines go (default: stderr). */
  log?: (line: string) => void;
  /** Code hooks added to an agent of the config (after its own), e.g. a redaction in TypeScript. */
  hooks?: (agentId: string) => readonly AnyHook[];
  /** The environment read for the token and for secrets to keep out of responses (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

export interface HookwiseServer {
  /** `http://host:port` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Graceful shutdown; idempotent. */
  close(): Promise<void>;
}

export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "hookwise") return manifest.version ?? "0.0.0";
    } catch {
      // Not here: look one folder up.
    }
    dir = dirname(dir);
  }
  return "0.0.0";
}

function listen(
  kit: Awaited<ReturnType<typeof loadHono>>,
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = kit.listen({ fetch, hostname: host, port }) as Server;
    server.once("listening", () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => {
      const why =
        error.code === "EADDRINUSE"
          ? `port ${port} is in use (choose another with --port)`
          : error.code === "EACCES"
            ? `no permission to listen on port ${port}`
            : error.message;
      reject(new HookwiseError(`cannot listen on ${host}:${port}: ${why}`, { cause: error }));
    });
  });
}

export async function serve(options: ServeOptions): Promise<HookwiseServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const kit = await loadHono();
  const loaded =
    typeof options.config === "string"
      ? await loadConfig(options.config, { defaultState: { kind: "sqlite", path: ".hookwise/state.db" } })
      : options.config;
  let settings: ReturnType<typeof resolveSettings>;
  try {
    settings = resolveSettings(loaded.config.server, options, env);
  } catch (error) {
    await loaded.close();
    throw error;
  }
  const closing = new AbortController();
  const ctx = createServerContext(loaded, settings, {
    env,
    closing: closing.signal,
    hooks: options.hooks,
    log,
  });
  try {
    await ctx.feed.open();
    // Every agent a client may run is built before the server listens: a toolset that cannot
    // start (an MCP server that exits, a tool module that does not load), a model without its
    // API key or a tool reference only the started toolsets can check stops `serve` here,
    // not a client's first request to that agent.
    await ctx.agents.all();
  } catch (error) {
    await ctx.feed.close();
    await loaded.close();
    throw error;
  }
  const webRoot = findWebRoot(options.webRoot);
  if (!webRoot) log("the web UI is not built (npm run build); serving the API only");
  const app = createApp(kit, ctx, { version: packageVersion(), webRoot, log });
  let server: Server;
  try {
    server = await listen(kit, app.fetch, settings.host, settings.port);
  } catch (error) {
    await ctx.feed.close();
    await loaded.close();
    throw error;
  }
  const sweeper = new IdleSweeper(ctx);
  sweeper.start();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    host: settings.host,
    port: address.port,
    close: () => {
      closed ??= shutdown(ctx, { server, sweeper, closing, log });
      return closed;
    },
  };
}
