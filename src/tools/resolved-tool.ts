/** A tool as the loop sees it: names resolved, schema normalised, execute bound. */
import { type NormalizedSchema, normalizeSchema } from "./input-schema.js";
import type { AgentTool, NeedsApproval, ToModelOutput, ToolDefinition } from "./tool.js";
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
  /** Runs the call: an async iterable of preliminary results answers with its last one. */
  execute: ToolDefinition["execute"];
  /** Calls ask a human first (always, or when the function answers true). */
  needsApproval?: NeedsApproval<any>;
  /** What the model is sent of a result. */
  toModelOutput?: ToModelOutput<any, unknown>;
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
  given: AgentTool,
  options: { toolset?: string; prefix?: boolean; alias?: ToolAlias } = {},
): ResolvedTool {
  const qualifiedName = qualifiedToolName(options.toolset, name);
  if (typeof given !== "object" || given === null || typeof given.execute !== "function") {
    throw new TypeError(
      `tool "${qualifiedName}": expected an object with an execute function (hookwise runs every tool itself; a tool the client runs has nothing to run here)`,
    );
  }
  const definition = given as ToolDefinition;
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
    description: describe(definition, qualifiedName),
    input,
    output,
    execute: lastOfIterable(definition),
    checks: { validateArgs: input.validate, validateResult: output?.validate },
  };
  if (definition.needsApproval !== undefined && definition.needsApproval !== false) {
    if (definition.needsApproval !== true && typeof definition.needsApproval !== "function") {
      throw new TypeError(`tool "${qualifiedName}": needsApproval must be a boolean or a function`);
    }
    resolved.needsApproval = definition.needsApproval;
  }
  if (definition.toModelOutput !== undefined) {
    if (typeof definition.toModelOutput !== "function") {
      throw new TypeError(`tool "${qualifiedName}": toModelOutput must be a function`);
    }
    resolved.toModelOutput = definition.toModelOutput.bind(definition);
  }
  const alias = definition.alias ?? options.alias;
  if (alias !== undefined) resolved.alias = alias;
  return resolved;
}

function describe(definition: ToolDefinition, qualifiedName: string): string {
  const { description } = definition;
  if (description === undefined) return "";
  if (typeof description === "string") return description;
  if (typeof description !== "function") {
    throw new TypeError(`tool "${qualifiedName}": description must be a string or a function returning one`);
  }
  let text: unknown;
  try {
    text = description.call(definition, { context: {} });
  } catch (error) {
    throw new TypeError(
      `tool "${qualifiedName}": its description function threw: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof text !== "string") {
    throw new TypeError(
      `tool "${qualifiedName}": its description function returned ${typeof text}, expected a string`,
    );
  }
  return text;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function" &&
    typeof (value as { then?: unknown }).then !== "function"
  );
}

async function lastValue(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}

/** What an execute answered, as its result: an async iterable of preliminary results gives its last one. */
export function finalResult(value: unknown): unknown {
  return isAsyncIterable(value) ? lastValue(value) : value;
}

/** The definition's execute; an async iterable of preliminary results answers with its last one. */
function lastOfIterable(definition: ToolDefinition): ToolDefinition["execute"] {
  const execute = definition.execute;
  return (args, options) => finalResult(execute.call(definition, args, options));
}
