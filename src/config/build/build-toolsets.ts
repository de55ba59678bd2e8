/**
 * Toolsets in config, one factory per `kind` in the TOOLSETS registry:
 * - `module`: a JS/TS module whose exports are tools (made with `tool()` or plain
 *   `{ description, inputSchema, execute }` objects);
 * - `mcp`: an MCP server over stdio (`command`, `args`, `env`; started in the config's
 *   folder) or streamable HTTP (`url`, `headers`), see src/tools/mcp;
 * - `builtin`: `filesystem` (under `root`, default the config's folder), `memory`
 *   (per session, in the StateStore), see src/tools/builtin, or `coding` (Claude Code's
 *   tools by their names, unprefixed unless `prefix: true`), see src/tools/coding;
 * - `openapi`: a REST API from its OpenAPI document, see openapi-toolset-entry.ts.
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { HookwiseError } from "../../errors/hookwise-error.js";
import type { HookLogger } from "../../hooks/hook-context.js";
import type { StateStore } from "../../state/state-store.js";
import { filesystemToolset } from "../../tools/builtin/filesystem-toolset.js";
import { memoryToolset } from "../../tools/builtin/memory-toolset.js";
import { codingToolset } from "../../tools/coding/coding-toolset.js";
import { resolveTool } from "../../tools/resolved-tool.js";
import type { ToolDefinition } from "../../tools/tool.js";
import type { Toolset } from "../../tools/toolset.js";
import { checkMcpToolset } from "../check/check-mcp-toolset.js";
import type { ToolsetEntry } from "../schema/schema.js";
import { ConfigError, type ConfigPath } from "../source/config-error.js";

export type BuiltToolset = Toolset;

/** What factories may need beyond the entry: the config's store (memory) and logger (MCP). */
export interface ToolsetContext {
  store?: StateStore;
  log?: HookLogger;
  /** The config file, to report a toolset's problems at their line and column (a ConfigError). */
  source?: ConfigSource;
  /** Problems that do not stop a toolset (`path` from the config's root); default: logged. */
  warn?: (path: ConfigPath, message: string) => void;
}

export interface ConfigSource {
  file: string;
  positionOf(path: ConfigPath): { line: number; column: number };
}

export type ToolsetFactory = (
  name: string,
  entry: ToolsetEntry,
  baseDir: string,
  context: ToolsetContext,
) => Promise<BuiltToolset>;

function isToolLike(value: unknown): value is ToolDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { execute?: unknown }).execute === "function"
  );
}

/** A module toolset's `path:` that gives no tools: a config error at that line when the config's text is known. */
function modulePathError(name: string, context: ToolsetContext, problem: string, expected: string): Error {
  if (!context.source) return new HookwiseError(`toolsets.${name}: ${problem}`);
  const at = ["toolsets", name, "path"];
  return new ConfigError([
    {
      severity: "error",
      file: context.source.file,
      ...context.source.positionOf(at),
      path: at,
      message: problem,
      expected,
    },
  ]);
}

const moduleToolset: ToolsetFactory = async (name, entry, baseDir, context) => {
  if (entry.kind !== "module") throw new Error("unreachable");
  const path = resolve(baseDir, entry.path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    // A module that is not there: Node's message would name the file that imported it (ours).
    const why = existsSync(path) ? (error as Error).message : "no such file";
    throw modulePathError(
      name,
      context,
      `cannot load module ${entry.path} (${path}): ${why}`,
      "a JavaScript module (.mjs / .js) relative to this config that exports tools",
    );
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
    throw modulePathError(
      name,
      context,
      `module ${entry.path} (${path}) exports no tool`,
      "a module exporting tools: objects with an execute function, as named exports or in its default export",
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

const mcpToolsetEntry: ToolsetFactory = async (name, entry, baseDir, context) => {
  if (entry.kind !== "mcp") throw new Error("unreachable");
  // What `validate` reports (an unset ${VAR}, a missing command), at its place in the file.
  if (context.source) {
    const issues = checkMcpToolset(name, entry, baseDir, context.source);
    if (issues.length) throw new ConfigError(issues);
  }
  const prefix = { prefix: entry.prefix ?? true, ...(context.log ? { log: context.log } : {}) };
  if (entry.url !== undefined) {
    if (entry.command !== undefined)
      throw new HookwiseError(`toolsets.${name}: give either command (stdio) or url (HTTP), not both`);
    const { mcpToolset } = await import("../../tools/mcp/mcp-toolset.js");
    return mcpToolset(name, { url: entry.url, ...(entry.headers ? { headers: entry.headers } : {}) }, prefix);
  }
  if (entry.command === undefined) {
    throw new HookwiseError(
      `toolsets.${name}: an MCP toolset needs command (stdio, e.g. command: node, args: [./server.js]) or url (streamable HTTP)`,
    );
  }
  // A relative command path (./server) resolves against the config's folder, like every path.
  const command =
    entry.command.includes("/") && !isAbsolute(entry.command)
      ? resolve(baseDir, entry.command)
      : entry.command;
  const { mcpToolset } = await import("../../tools/mcp/mcp-toolset.js");
  const spec = {
    command,
    args: entry.args ?? [],
    cwd: baseDir,
    ...(entry.env ? { env: entry.env } : {}),
  };
  return mcpToolset(name, spec, prefix);
};

const builtinToolsetEntry: ToolsetFactory = async (name, entry, baseDir, context) => {
  if (entry.kind !== "builtin") throw new Error("unreachable");
  if (entry.module === "coding")
    return codingToolset(name, { root: resolve(baseDir, entry.root ?? "."), prefix: entry.prefix ?? false });
  const prefix = entry.prefix ?? true;
  if (entry.module === "filesystem")
    return filesystemToolset(name, { root: resolve(baseDir, entry.root ?? "."), prefix });
  if (!context.store) throw new HookwiseError(`toolsets.${name}: the memory toolset needs a StateStore`);
  return memoryToolset(name, { store: context.store, prefix });
};

/**
 * `checked`: `hookwise validate` builds the toolset and lists its tools — for kinds that
 * start no process and run no user code (an OpenAPI document is only read).
 */
const TOOLSETS: Record<string, { build: ToolsetFactory; checked?: boolean }> = {
  module: { build: moduleToolset },
  mcp: { build: mcpToolsetEntry },
  builtin: { build: builtinToolsetEntry },
  // Loaded when a config has one: the REST toolset's code is most of what `validate` would
  // otherwise load for nothing.
  openapi: {
    build: async (...args) => (await import("./openapi-toolset-entry.js")).openapiToolsetEntry(...args),
    checked: true,
  },
};

/** Whether `hookwise validate` builds toolsets of this kind (see TOOLSETS). */
export function isCheckedToolsetKind(kind: string): boolean {
  return TOOLSETS[kind]?.checked === true;
}

export async function buildToolset(
  name: string,
  entry: ToolsetEntry,
  baseDir: string,
  context: ToolsetContext = {},
): Promise<BuiltToolset> {
  const factory = TOOLSETS[entry.kind]?.build;
  if (!factory) {
    throw new HookwiseError(
      `toolsets.${name}: toolset kind "${entry.kind}" is not available in this build (available: ${Object.keys(TOOLSETS).join(", ")})`,
    );
  }
  return factory(name, entry, baseDir, context);
}

/**
 * Builds every toolset; when one fails, the ones already built are closed (no MCP server
 * is left running behind a config that did not load) and the failures are thrown together.
 */
export async function buildToolsets(
  entries: Readonly<Record<string, ToolsetEntry>>,
  baseDir: string,
  context: ToolsetContext = {},
): Promise<BuiltToolset[]> {
  const names = Object.keys(entries);
  const settled = await Promise.allSettled(
    Object.entries(entries).map(([name, entry]) => buildToolset(name, entry, baseDir, context)),
  );
  const failures = settled.flatMap((item, index) =>
    item.status === "rejected" ? [{ name: names[index]!, error: item.reason as unknown }] : [],
  );
  if (failures.length === 0)
    return settled.map((item) => (item as PromiseFulfilledResult<BuiltToolset>).value);
  await Promise.allSettled(
    settled.flatMap((item) => (item.status === "fulfilled" ? [item.value.close()] : [])),
  );
  throw joinedFailure(failures, context.source);
}

/**
 * One toolset's failure as it is; several as one error that lists each, so a config with two
 * broken toolsets says so at once rather than one run at a time. When one of them is a
 * problem of the config (a ConfigError), all are issues of one ConfigError, each at its
 * toolset's line and column. A failure that is no hookwise error (a bug) is thrown as it is.
 */
function joinedFailure(
  failures: readonly { name: string; error: unknown }[],
  source?: ConfigSource,
): unknown {
  if (failures.length === 1) return failures[0]!.error;
  const bug = failures.find(({ error }) => !HookwiseError.isInstance(error));
  if (bug) return bug.error;
  if (source && failures.some(({ error }) => ConfigError.isInstance(error)))
    return new ConfigError(
      failures.flatMap(({ name, error }) => {
        if (ConfigError.isInstance(error)) return error.issues;
        const at = ["toolsets", name];
        return [
          {
            severity: "error" as const,
            file: source.file,
            ...source.positionOf(at),
            path: at,
            message: (error as Error).message,
          },
        ];
      }),
    );
  const lines = failures.map(({ error }) => `  ${(error as Error).message.replaceAll("\n", "\n  ")}`);
  return new HookwiseError(`${failures.length} toolsets could not start:\n${lines.join("\n")}`, {
    cause: new AggregateError(failures.map(({ error }) => error)),
  });
}
