/**
 * The function name an injection calls and carries: with a toolset,
 * `sanitize(toolset + "_" + tool)`; without, the tool name verbatim (tools of `prefix: false`
 * toolsets, and tools without a toolset, are called by their own name).
 */
import { sanitizeToolName } from "../../tools/tool-name.js";

export function injectedToolName(toolsetName: string | undefined, toolName: string): string {
  return toolsetName ? sanitizeToolName(`${toolsetName}_${toolName}`) : toolName;
}
