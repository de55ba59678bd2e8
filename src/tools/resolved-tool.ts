/** A tool as the loop sees it: names resolved, schema normalised, execute bound. */
import { type NormalizedSchema, normalizeSchema } from "./input-schema.js";
import type { ToolDefinition } from "./tool.js";
import type { ToolAlias } from "./tool-alias.js";
import { functionToolName, qualifiedToolName } from "./tool-name.js";

export interface ResolvedTool {
  /** The name sent to the model. */
  functionName: string;
  /** `toolset.tool`, or the tool's own name when it has no toolset. */
  qualifiedName: string;
  toolset: string | undefined;
  name: string;
  description: string;
  input: NormalizedSchema;
  output: NormalizedSchema | undefined;
  execute: ToolDefinition["execute"];
  /** The name and argument shape hooks written for Claude Code know it by (see tool-alias.ts). */
  alias?: ToolAlias;
  /** What rewrites of this tool's calls and results are checked against (one object per tool). */
  checks: {
    validateArgs: NormalizedSchema["validate"];
    validateResult: NormalizedSchema["validate"] | undefined;
  };
}

export function resolveTool(
  name: string,
  definition: ToolDefinition,
  options: { toolset?: string; prefix?: boolean; alias?: ToolAlias } = {},
): ResolvedTool {
  const qualifiedName = qualifiedToolName(options.toolset, name);
  if (typeof definition !== "object" || definition === null || typeof definition.execute !== "function") {
    throw new TypeError(`tool "${qualifiedName}": expected an object with an execute function`);
  }
  const input = normalizeSchema(definition.inputSchema, `tool "${qualifiedName}"`);
  const output =
    definition.outputSchema === undefined
      ? undefined
      : normalizeSchema(definition.outputSchema, `tool "${qualifiedName}" outputSchema`);
  const resolved: ResolvedTool = {
    functionName: functionToolName(options.toolset, name, options.prefix ?? true),
    qualifiedName,
    toolset: options.toolset,
    name,
    description: definition.description ?? "",
    input,
    output,
    execute: definition.execute,
    checks: { validateArgs: input.validate, validateResult: output?.validate },
  };
  const alias = definition.alias ?? options.alias;
  if (alias !== undefined) resolved.alias = alias;
  return resolved;
}
