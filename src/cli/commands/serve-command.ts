/**
 * `hookwise serve <config> [--port 8787] [--host 127.0.0.1]`: the config's agents over HTTP,
 * with the web UI at `/`, until Ctrl-C or SIGTERM — then a graceful stop (running runs
 * drain, suspended ones stay in the store, MCP and language servers close). A second
 * signal exits at once.
 */
import { formatIssue } from "../../config/source/config-error.js";
import { takeInterrupts } from "../interrupts.js";
import { loadCliConfig } from "../load-cli-config.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";

export interface ServeCommandOptions {
  port?: string;
  host?: string;
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new UsageError(`--port must be a number from 0 to 65535 (0: any free port), got "${text}"`);
  }
  return port;
}

export async function serveCommand(
  configPath: string,
  options: ServeCommandOptions,
  io: CliIO,
): Promise<number> {
  const port = parsePort(options.port);
  const loaded = await loadCliConfig(configPath, io, false);
  for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
  // The server's code (and Hono) load only for this command.
  const [{ serve }, { resolveSettings }] = await Promise.all([
    import("../../server/serve.js"),
    import("../../server/server-settings.js"),
  ]);
  try {
    // A bind the server refuses (beyond loopback without a token) is a usage error: exit 2.
    resolveSettings(
      loaded.config.server,
      { ...(port !== undefined ? { port } : {}), ...(options.host ? { host: options.host } : {}) },
      process.env,
    );
  } catch (error) {
    await loaded.close();
    throw new UsageError((error as Error).message);
  }
  const server = await serve({
    config: loaded,
    ...(port !== undefined ? { port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    log: (line) => io.stderr.line(`hookwise: ${line}`),
  });
  const agents = loaded.agentIds.join(", ");
  io.stdout.line(`hookwise · serving ${configPath} · agents: ${agents}`);
  io.stdout.line(`  API and web UI at ${server.url}/  (Ctrl-C to stop)`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const release = takeInterrupts(() => {
      if (stopping) process.exit(130);
      stopping = true;
      io.stderr.line("hookwise: stopping: draining running runs (Ctrl-C again to exit at once)");
      server.close().then(
        () => {
          release();
          resolve(0);
        },
        (error) => {
          io.stderr.line(`hookwise: shutdown failed: ${(error as Error).message}`);
          release();
          resolve(1);
        },
      );
    });
  });
}
