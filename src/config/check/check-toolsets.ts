/**
 * What `hookwise validate` checks beyond the file itself: toolsets it can build without
 * starting a process or running user code (OpenAPI documents) are built, their problems
 * reported like the file's own (line and column, path, expected), and their tools listed.
 * A config that `validate` accepts therefore builds the same way when it runs.
 *
 * Module and builtin toolsets are built too (a module is imported, as a run would), not
 * listed: their tools are what policies, agents' `tools:` and actions are checked against.
 * MCP toolsets start a server: their tools are `pending` until the run starts; what would
 * stop the server from starting (an unset `${VAR}`, a missing command) is checked here.
 */
import { HookwiseError } from "../../errors/hookwise-error.js";
import { MemoryStore } from "../../state/memory-store.js";
import { buildToolset, type ConfigSource, isCheckedToolsetKind } from "../build/build-toolsets.js";
import type { ConfigFile } from "../schema/schema.js";
import { ConfigError, type ConfigIssue, type ConfigPath } from "../source/config-error.js";
import { checkMcpToolset } from "./check-mcp-toolset.js";
import type { KnownTool } from "./check-references.js";

export interface ToolsetListing {
  toolset: string;
  kind: string;
  tools: { qualifiedName: string; endpoint?: string; description: string }[];
}

export async function checkToolsets(
  config: ConfigFile,
  dir: string,
  source: ConfigSource,
): Promise<{
  issues: ConfigIssue[];
  listings: ToolsetListing[];
  /** The tools of every toolset built (all but MCP). */
  tools: KnownTool[];
  /** Toolsets whose tools are known only when the run starts (MCP). */
  pending: string[];
}> {
  const issues: ConfigIssue[] = [];
  const listings: ToolsetListing[] = [];
  const tools: KnownTool[] = [];
  const pending: string[] = [];
  const store = new MemoryStore();
  for (const [name, entry] of Object.entries(config.toolsets)) {
    if (entry.kind === "mcp") {
      issues.push(...checkMcpToolset(name, entry, dir, source));
      pending.push(name);
      continue;
    }
    const listed = isCheckedToolsetKind(entry.kind);
    const warn = (path: ConfigPath, message: string) => {
      issues.push({ severity: "warning", file: source.file, ...source.positionOf(path), path, message });
    };
    try {
      const toolset = await buildToolset(name, entry, dir, { source, warn, store });
      try {
        tools.push(
          ...toolset.tools.map((tool) => ({
            qualifiedName: tool.qualifiedName,
            functionName: tool.functionName,
            input: tool.input,
            ...(tool.alias ? { claudeName: tool.alias.name } : {}),
          })),
        );
        if (listed)
          listings.push({
            toolset: name,
            kind: entry.kind,
            tools: toolset.tools.map((tool) => {
              const endpoint = toolset.endpoints?.get(tool.qualifiedName);
              return {
                qualifiedName: tool.qualifiedName,
                description: tool.description.split("\n")[0] ?? "",
                ...(endpoint ? { endpoint } : {}),
              };
            }),
          });
      } finally {
        await toolset.close();
      }
    } catch (error) {
      // Its tools are unknown: references to them are not reported on top of this error.
      pending.push(name);
      if (ConfigError.isInstance(error)) issues.push(...error.issues);
      else if (HookwiseError.isInstance(error)) {
        const path = ["toolsets", name];
        issues.push({
          severity: "error",
          file: source.file,
          ...source.positionOf(path),
          path,
          message: error.message,
        });
      } else throw error;
    }
  }
  await store.close();
  return { issues, listings, tools, pending };
}
