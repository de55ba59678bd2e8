/**
 * Validation and cross-checks, what `hookwise validate` reports before anything runs: the
 * text against the schema and each hook against its event (`validate-config.ts`,
 * `validate-hooks.ts`), models and providers, toolsets (MCP servers' programs included), and
 * every tool, model and agent a hook, a policy or a test names (`check-references.ts`).
 */
export { checkMcpToolset } from "./check-mcp-toolset.js";
export { checkReferences, toolCatalogue } from "./check-references.js";
export { checkToolsets, type ToolsetListing } from "./check-toolsets.js";
export { harnessesOf } from "./harness-tools-of.js";
export { type ValidatedConfig, type ValidationResult, validateConfigText } from "./validate-config.js";
