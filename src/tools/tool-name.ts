/**
 * Tool naming: a qualified name `toolset.tool` for patterns and policies, and
 * a function name sent to the model: sanitize(toolset + "_" + tool), at most 64 characters.
 */
import { nodeCrypto } from "../deps/node-crypto.js";

const MAX_LENGTH = 64;

export function sanitizeToolName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, "_");
  if (clean.length <= MAX_LENGTH) return clean;
  const hash = nodeCrypto().createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${clean.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`;
}

export function qualifiedToolName(toolset: string | undefined, tool: string): string {
  return toolset ? `${toolset}.${tool}` : tool;
}

/**
 * The function name for a tool. A tool without a toolset keeps its name verbatim (the
 * developer chose it); `prefix: false` toolsets keep the tool's own name, sanitized like
 * any toolset's, since it comes from outside (an MCP server, a module) and providers reject
 * names outside [A-Za-z0-9_-]{1,64}.
 */
export function functionToolName(toolset: string | undefined, tool: string, prefix = true): string {
  if (!toolset) return tool;
  return sanitizeToolName(prefix ? `${toolset}_${tool}` : tool);
}
