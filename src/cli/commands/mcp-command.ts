/**
 * `hookwise mcp <config> [--agent ID] [--http --port N] [--host H] [--max-sessions N]`: one agent's tools as
 * an MCP server, every call through the config's policies and hooks. Over stdio (the
 * default) stdout is the protocol: every line of ours, and anything a tool module prints
 * with console.log, goes to stderr. Ends when the client closes stdin (stdio), or on
 * SIGINT / SIGTERM; every upstream MCP server the config started is closed with it.
 */

import type { LoadedConfig } from "../../config/load-config.js";
import { ConfigReferenceError, formatIssue } from "../../config/source/config-error.js";
import { takeInterrupts } from "../interrupts.js";
import { keepStdoutForProtocol, protocolStdout } from "../keep-stdout-for-protocol.js";
import { LogRoute, loadCliConfig, notificationLine } from "../load-cli-config.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";
import { packageVersion } from "../version.js";

export interface McpCommandOptions {
  agent?: string;
  http?: boolean;
  port?: string;
  host?: string;
  maxSessions?: string;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 8788;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new UsageError(`--port must be a number from 0 to 65535 (0: any free port), got "${text}"`);
  return port;
}

/** `--max-sessions`: a whole number of sessions, at least 1 (default 1000). */
function parseMaxSessions(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const count = Number(text);
  if (!/^\d+$/.test(text) || count < 1 || !Number.isSafeInteger(count))
    throw new UsageError(
      `--max-sessions must be a whole number of sessions, at least 1 (default 1000), got "${text}"`,
    );
  return count;
}

export async function mcpCommand(configPath: string, options: McpCommandOptions, io: CliIO): Promise<number> {
  const stdio = !options.http;
  if (
    stdio &&
    (options.port !== undefined || options.host !== undefined || options.maxSessions !== undefined)
  )
    throw new UsageError("--port, --host and --max-sessions go with --http (the default transport is stdio)");
  const port = options.http ? parsePort(options.port) : 0;
  const maxSessions = parseMaxSessions(options.maxSessions);
  const host = options.host ?? "127.0.0.1";
  const gatewayRoom = await import("../../gateway/index.js");
  let token: string | undefined;
  if (options.http) {
    try {
      token = gatewayRoom.checkBind(host, process.env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (stdio) keepStdoutForProtocol();
  // Hook log lines go to stderr: stdout is the protocol (stdio) or unused (HTTP).
  const loaded = await loadCliConfig(configPath, io, true, [], new LogRoute(io.stderr));
  // The `notify` action's notifications are printed where the hooks' logs go.
  const unsubscribe = loaded.notifications.subscribe((note) => io.stderr.line(notificationLine(note)));
  try {
    for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
    const agentId = options.agent ?? loaded.defaultAgentId;
    if (!loaded.agentIds.includes(agentId))
      throw new UsageError(
        `no agent "${agentId}" in ${configPath}; its agents: ${loaded.agentIds.join(", ")}`,
      );
    // A config of tools alone declares no model: the gateway needs none.
    const hasModel = Object.keys(loaded.config.models ?? {}).length > 0;
    const overrides = hasModel ? {} : { model: gatewayRoom.NO_MODEL };
    const agent = await loaded.createAgent(agentId, overrides);
    if (agent.runtime.toolSpecs.length === 0 && Object.keys(loaded.config.toolsets).length === 0)
      throw new ConfigReferenceError(noToolsToServe(configPath, loaded.config.harness));
    const log = (line: string) => io.stderr.line(`hookwise mcp: ${line}`);
    const runtime = loaded.config.runtime;
    const inbox =
      runtime?.approvals === "inbox" ? { inbox: { waitMs: (runtime.approval_wait ?? 50) * 1000 } } : {};
    const gateway = new gatewayRoom.McpGateway({ agent, version: packageVersion(), log, ...inbox });
    // An upstream MCP server's tool list changed: the agent is built again with the new
    // list, and the clients are told (notifications/tools/list_changed).
    let rebuilding = Promise.resolve();
    await loaded.onToolsChanged(() => {
      rebuilding = rebuilding.then(async () => {
        try {
          await gateway.replaceAgent(await loaded.createAgent(agentId, overrides));
          log("an upstream tool list changed: tools listed again");
        } catch (error) {
          log(
            `an upstream tool list changed, and the agent could not be built with it: ${(error as Error).message}`,
          );
        }
      });
    });
    if (stdio) {
      const served = await gatewayRoom.serveStdio(gateway, {
        stdin: process.stdin,
        stdout: protocolStdout(),
      });
      await untilEnded(served.ended, () => gateway.close());
      await gateway.close();
      return 0;
    }
    const http = await gatewayRoom.serveHttp(gateway, {
      host,
      port,
      token,
      log,
      ...(maxSessions !== undefined ? { maxSessions } : {}),
    });
    io.stderr.line(
      `hookwise mcp · ${configPath} · agent ${agent.name} · ${agent.runtime.toolSpecs.length} tools at ${http.url}${token ? " (bearer token required)" : ""}  (Ctrl-C to stop)`,
    );
    await untilEnded(new Promise<void>(() => {}), () => http.close());
    return 0;
  } finally {
    unsubscribe();
    await closeQuietly(loaded);
  }
}

/**
 * A config that declares no toolsets gives the gateway nothing to serve: a client would see an
 * empty tool list and no reason. A config that guards harnesses is the usual case, told so.
 */
function noToolsToServe(configPath: string, harness: string | readonly string[] | undefined): string {
  const guarded = harness === undefined ? [] : [harness].flat();
  const why = guarded.length
    ? ` (it guards ${guarded.join(", ")} through hookwise hook: see hookwise setup)`
    : "";
  return `${configPath} declares no toolsets: hookwise mcp has no tools to serve${why}; declare the tools to serve under toolsets: (an MCP server, an OpenAPI document or a module)`;
}

/** Waits for `ended`, or for SIGINT / SIGTERM (which calls `stop`); a second signal exits at once. */
function untilEnded(ended: Promise<void>, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const release = takeInterrupts(() => {
      if (stopping) process.exit(130);
      stopping = true;
      stop().finally(() => {
        release();
        resolve();
      });
    });
    void ended.then(() => {
      release();
      resolve();
    });
  });
}

async function closeQuietly(loaded: LoadedConfig): Promise<void> {
  await loaded.close().catch(() => {});
}
