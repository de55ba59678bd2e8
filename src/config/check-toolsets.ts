/**
 * What `hookwise validate` checks beyond the file itself: toolsets it can build without
 * starting a process or running user code (OpenAPI documents) are built, their problems
 * reported like the file's own (line and column, path, expected), and their tools listed.
 * A config that `validate` accepts therefore builds the same way when it runs.
 */
import { HookwiseError } from "../errors/hookwise-error.js";
import { buildToolset, type ConfigSource, isCheckedToolsetKind } from "./build-toolsets.js";
import { ConfigError, type ConfigIssue, type ConfigPath } from "./config-error.js";
import type { ConfigFile } from "./schema.js";

export interface ToolsetListing {
  toolset: string;
  kind: string;
  tools: { qualifiedName: string; endpoint?: string; description: string }[];
}

export async function checkToolsets(
  config: ConfigFile,
  dir: string,
  source: ConfigSource,
): Promise<{ issues: ConfigIssue[]; listings: ToolsetListing[] }> {
  const issues: ConfigIssue[] = [];
  const listings: ToolsetListing[] = [];
  for (const [name, entry] of Object.entries(config.toolsets)) {
    if (!isCheckedToolsetKind(entry.kind)) continue;
    const warn = (path: ConfigPath, message: string) => {
      issues.push({ severity: "warning", file: source.file, ...source.positionOf(path), path, message });
    };
    try {
      const toolset = await buildToolset(name, entry, dir, { source, warn });
      try {
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
  return { issues, listings };
}
