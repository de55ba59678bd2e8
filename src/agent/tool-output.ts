/** A tool's value as the transcript stores it (AI SDK `ToolResultOutput`). */
import type { ToolResultPart } from "@ai-sdk/provider-utils";

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return String(value);
  }
}

export function toToolOutput(result: unknown, isError: boolean): ToolResultPart["output"] {
  if (isError)
    return {
      type: "error-text",
      value: typeof result === "string" ? result : JSON.stringify(jsonSafe(result)),
    };
  if (typeof result === "string") return { type: "text", value: result };
  return { type: "json", value: jsonSafe(result) as never };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
