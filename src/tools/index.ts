export {
  type FilesystemToolsetOptions,
  filesystemToolset,
  type MemoryToolsetOptions,
  memoryToolset,
  PathEscapeError,
} from "./builtin/index.js";
export { type CodingToolsetOptions, codingToolset } from "./coding/index.js";
export { type NormalizedSchema, normalizeSchema, type Validation } from "./input-schema.js";
// The REST and MCP toolsets' own modules load at their first use (remote-toolset-functions.ts):
// what is exported here comes from the modules that define it, never their folders' index.
export type { McpServerSpec } from "./mcp/mcp-server-spec.js";
export { McpToolError } from "./mcp/mcp-tool-error.js";
export type { McpToolsetOptions } from "./mcp/mcp-toolset.js";
export { type Closeable, closeAllResources, trackResource } from "./open-resources.js";
export type { AuthSetting } from "./openapi/http/api-credentials.js";
export { OpenApiCallError } from "./openapi/openapi-call-error.js";
export type { OpenApiToolset, OpenApiToolsetOptions } from "./openapi/openapi-toolset.js";
export { OpenApiToolsetError } from "./openapi/openapi-toolset-error.js";
export { mcpToolset, openapiToolset } from "./remote-toolset-functions.js";
export { type ResolvedTool, resolveTool } from "./resolved-tool.js";
export {
  type AgentTool,
  type ToolDefinition,
  type ToolExecutionOptions,
  tool,
} from "./tool.js";
export type { ToolAlias } from "./tool-alias.js";
export type { HookContextView } from "./tool-context.js";
export { functionToolName, qualifiedToolName, sanitizeToolName } from "./tool-name.js";
export type { Toolset } from "./toolset.js";
