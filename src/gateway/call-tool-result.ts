/**
 * A call's result as MCP sends it (`CallToolResult`). A denial, a hook's failure or a
 * tool's error is a result with `isError: true` and the reason as text — never a protocol
 * error, which a client could not show its model. A result an upstream MCP server answered
 * with content parts (images, resources) keeps them; an object is sent as JSON text and,
 * when the tool declares an output schema, as structured content too. An error's text is
 * masked of the config's secrets on its way out: a tool's own result and error were masked
 * when they came in, but a message the gateway made (invalid arguments naming what an
 * upstream schema allows, a hook's failure) was not.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCallResult } from "../agent/tool-call-session.js";
import { maskSecrets } from "../secrets/secret-registry.js";

const PART_TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

function isContent(value: unknown): value is CallToolResult["content"] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (part) =>
        typeof part === "object" &&
        part !== null &&
        PART_TYPES.has((part as { type?: unknown }).type as string),
    )
  );
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function callToolResult(outcome: ToolCallResult, hasOutputSchema: boolean): CallToolResult {
  const { result } = outcome;
  if (outcome.isError) return { content: [{ type: "text", text: maskSecrets(text(result)) }], isError: true };
  if (isContent(result)) return { content: result };
  const answer: CallToolResult = { content: [{ type: "text", text: text(result) }] };
  if (hasOutputSchema && typeof result === "object" && result !== null && !Array.isArray(result))
    answer.structuredContent = result as Record<string, unknown>;
  return answer;
}
