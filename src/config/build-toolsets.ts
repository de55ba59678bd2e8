/**
 * Toolsets in config (DESIGN §7). `module`: a JS/TS module whose exports are tools (made
 * with `tool()` or plain `{ description, inputSchema, execute }` objects). Other kinds
 * (mcp, builtin) are resolved by the toolset registry.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { HookwiseError } from "../errors/hookwise-error.js";
import { type ResolvedTool, resolveTool } from "../tools/resolved-tool.js";
import type { ToolDefinition } from "../tools/tool.js";
import type { ToolsetEntry } from "./schema.js";

export interface BuiltToolset {
  name: string;
  tools: ResolvedTool[];
  close(): Promise<void>;
}

type ToolsetFactory = (name: string, entry: ToolsetEntry, baseDir: string) => Promise<BuiltToolset>;

function isToolLike(value: unknown): value is ToolDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { execute?: unknown }).execute === "function"
  );
}

const moduleToolset: ToolsetFactory = async (name, entry, baseDir) => {
  if (entry.kind !== "module") throw new Error("unreachable");
  const path = resolve(baseDir, entry.path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new HookwiseError(`toolsets.${name}: cannot load module ${path}: ${(error as Error).message}`);
  }
  const found: [string, ToolDefinition][] = [];
  for (const [exportName, value] of Object.entries(exports)) {
    if (exportName === "default" && value && typeof value === "object" && !isToolLike(value)) {
      for (const [key, item] of Object.entries(value)) if (isToolLike(item)) found.push([key, item]);
    } else if (isToolLike(value)) {
      found.push([exportName, value]);
    }
  }
  if (found.length === 0) {
    throw new HookwiseError(
      `toolsets.${name}: module ${path} exports no tool (objects with an execute function)`,
    );
  }
  return {
    name,
    tools: found.map(([tool, definition]) =>
      resolveTool(tool, definition, { toolset: name, prefix: entry.prefix ?? true }),
    ),
    close: async () => {},
  };
};

const TOOLSETS: Record<string, ToolsetFactory> = {
  module: moduleToolset,
};

export async function buildToolset(
  name: string,
  entry: ToolsetEntry,
  baseDir: string,
): Promise<BuiltToolset> {
  const factory = TOOLSETS[entry.kind];
  if (!factory) {
    throw new HookwiseError(
      `toolsets.${name}: toolset kind "${entry.kind}" is not available in this build (available: ${Object.keys(TOOLSETS).join(", ")})`,
    );
  }
  return factory(name, entry, baseDir);
}
