/**
 * An MCP server as a toolset: its tools are listed once at start and named
 * `toolset.tool` (function `toolset_tool`, or the tool's own name with `prefix: false`).
 * Calls go to the shared connection (mcp-pool.ts); `isError` answers and protocol errors
 * (unknown tool, invalid params, a server that died mid-call) throw McpToolError, which
 * the loop turns into a tool error the model sees.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { normalizeSchema } from "../input-schema.js";
import { type ResolvedTool, resolveTool } from "../resolved-tool.js";
import type { ToolExecutionOptions } from "../tool.js";
import { toolProgressSink } from "../tool-progress.js";
import type { Toolset } from "../toolset.js";
import type { McpConnection, McpLogger } from "./mcp-connection.js";
import { acquireMcpConnection } from "./mcp-pool.js";
import { mcpResultValue } from "./mcp-result.js";
import { expandSpec, type McpServerSpec, substitutedValues } from "./mcp-server-spec.js";
import { McpToolError } from "./mcp-tool-error.js";

export interface McpToolsetOptions {
  /** Default true: function names are `toolset_tool`. */
  prefix?: boolean;
  log?: McpLogger;
}

function schemaOf(tool: Tool, server: string, log: McpLogger | undefined): unknown {
  const schema = tool.inputSchema ?? { type: "object", properties: {} };
  try {
    normalizeSchema(schema, `tool "${server}.${tool.name}"`);
    return schema;
  } catch (error) {
    // A schema our validator cannot read still reaches the model; the server validates.
    log?.warn(
      `MCP tool ${server}.${tool.name}: input schema not checked locally (${(error as Error).message})`,
    );
    return undefined;
  }
}

function toResolvedTool(
  server: string,
  tool: Tool,
  connection: McpConnection,
  options: McpToolsetOptions,
): ResolvedTool {
  const schema = schemaOf(tool, server, options.log);
  const execute = async (args: unknown, execution: ToolExecutionOptions) => {
    let result: Awaited<ReturnType<McpConnection["callTool"]>>;
    try {
      // A caller forwarding progress (the MCP gateway) gets the upstream server's.
      result = await connection.callTool(tool.name, args, execution.signal, toolProgressSink());
    } catch (error) {
      if (McpToolError.isInstance(error)) throw error;
      throw new McpToolError({
        server,
        tool: tool.name,
        reason: "protocol",
        message: `MCP server ${server}: ${(error as Error).message ?? String(error)}`,
        cause: error,
      });
    }
    return mcpResultValue(result, server, tool.name);
  };
  const resolved = resolveTool(
    tool.name,
    { description: tool.description ?? tool.title ?? "", inputSchema: schema, execute },
    // Claude Code's spelling of an MCP tool, for hooks written for it.
    { toolset: server, prefix: options.prefix ?? true, alias: { name: `mcp__${server}__${tool.name}` } },
  );
  if (schema !== undefined) return resolved;
  return {
    ...resolved,
    input: {
      jsonSchema: tool.inputSchema as Record<string, unknown>,
      validate: (value) => ({ ok: true, value }),
      check: (value) => ({ ok: true, value }),
    },
  };
}

/** Connects (or joins the running server), lists its tools, and returns them as a toolset. */
export async function mcpToolset(
  name: string,
  spec: McpServerSpec,
  options: McpToolsetOptions = {},
): Promise<Toolset> {
  const where = `toolsets.${name}`;
  const lease = acquireMcpConnection(expandSpec(spec, where), {
    label: `"${name}"`,
    display: spec,
    secrets: substitutedValues(spec),
    ...(options.log ? { log: options.log } : {}),
  });
  let tools: Tool[];
  try {
    tools = await lease.connection.listTools();
  } catch (error) {
    await lease.release();
    throw error;
  }
  const resolved = tools.map((tool) => toResolvedTool(name, tool, lease.connection, options));
  const listeners = new Set<() => void>();
  let stopWatching: (() => void) | undefined;
  // The server's list changed: the toolset's tools are listed again, in place.
  const relist = () => {
    lease.connection.listTools().then(
      (listed) => {
        resolved.splice(
          0,
          resolved.length,
          ...listed.map((tool) => toResolvedTool(name, tool, lease.connection, options)),
        );
        for (const listener of listeners) listener();
      },
      (error: unknown) =>
        options.log?.warn(
          `MCP server "${name}": its changed tool list could not be read: ${(error as Error).message}`,
        ),
    );
  };
  return {
    name,
    tools: resolved,
    onToolsChanged(listener) {
      listeners.add(listener);
      stopWatching ??= lease.connection.onToolsChanged(relist);
      return () => listeners.delete(listener);
    },
    close: () => {
      stopWatching?.();
      return lease.release();
    },
  };
}
