/**
 * The MCP SDK's server side, an optional package: loaded by the first gateway, never by
 * `import "hookwise"` or the CLI's start-up.
 */
import { importOptional } from "../errors/optional-package.js";

export interface McpServerSdk {
  Server: typeof import("@modelcontextprotocol/sdk/server/index.js").Server;
  types: typeof import("@modelcontextprotocol/sdk/types.js");
}

let loading: Promise<McpServerSdk> | undefined;

export function loadMcpServerSdk(): Promise<McpServerSdk> {
  const purpose = "hookwise mcp";
  loading ??= Promise.all([
    importOptional<typeof import("@modelcontextprotocol/sdk/server/index.js")>(
      "@modelcontextprotocol/sdk/server/index.js",
      purpose,
    ),
    importOptional<typeof import("@modelcontextprotocol/sdk/types.js")>(
      "@modelcontextprotocol/sdk/types.js",
      purpose,
    ),
  ]).then(
    ([server, types]) => ({ Server: server.Server, types }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
