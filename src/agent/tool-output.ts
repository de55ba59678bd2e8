/** A tool's value as the transcript stores it (AI SDK `ToolResultOutput`). */
import type { ToolResultPart } from "@ai-sdk/provider-utils";

/** The value as JSON would carry it (no undefined, functions, cycles); primitives as they are. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || typeof value === "string") return value;
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
