export type { McpLogger } from "./mcp-connection.js";
export { expandEnv, type McpServerSpec } from "./mcp-server-spec.js";
export { McpToolError } from "./mcp-tool-error.js";
export { type McpToolsetOptions, mcpToolset } from "./mcp-toolset.js";
