export {
  type FilesystemToolsetOptions,
  filesystemToolset,
  type MemoryToolsetOptions,
  memoryToolset,
  PathEscapeError,
} from "./builtin/index.js";
export { type NormalizedSchema, normalizeSchema, type Validation } from "./input-schema.js";
export { type McpServerSpec, McpToolError, type McpToolsetOptions, mcpToolset } from "./mcp/index.js";
export { type Closeable, closeAllResources, trackResource } from "./open-resources.js";
export {
  type AuthSetting,
  OpenApiCallError,
  type OpenApiToolset,
  OpenApiToolsetError,
  type OpenApiToolsetOptions,
  openapiToolset,
} from "./openapi/index.js";
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
