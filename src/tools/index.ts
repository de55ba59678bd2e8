export { type NormalizedSchema, normalizeSchema, type Validation } from "./input-schema.js";
export { type ResolvedTool, resolveTool } from "./resolved-tool.js";
export { type ToolDefinition, type ToolExecutionOptions, tool } from "./tool.js";
export type { HookContextView } from "./tool-context.js";
export { functionToolName, qualifiedToolName, sanitizeToolName } from "./tool-name.js";
