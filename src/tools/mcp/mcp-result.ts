/**
 * An MCP `CallToolResult` → the value a hookwise tool returns. `structuredContent` wins
 * (templates reach into it: `{{tool.result.hits.0.title}}`); otherwise text parts are
 * joined (a JSON text is still walkable by templates); other parts (images, resources)
 * are kept as they are. `isError: true` throws, so the model sees a tool error.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { McpToolError } from "./mcp-tool-error.js";

type Content = CallToolResult["content"][number];

function textOf(content: readonly Content[]): string | undefined {
  if (!content.every((part) => part.type === "text")) return undefined;
  return content.map((part) => (part as { text: string }).text).join("\n");
}

export function mcpResultValue(result: CallToolResult, server: string, tool: string): unknown {
  // Servers of protocol 2024-10-07 answer `{ toolResult }`.
  if ("toolResult" in result && result.content === undefined) return result.toolResult;
  const content = result.content ?? [];
  if (result.isError) {
    throw new McpToolError({
      server,
      tool,
      reason: "tool_error",
      message: textOf(content) || JSON.stringify(content) || "the tool reported an error",
    });
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  return textOf(content) ?? content;
}
