/** A tool's value as the transcript stores it (AI SDK `ToolResultOutput`). */
import type { ToolResultPart } from "@ai-sdk/provider-utils";

/**
 * Whether a value is already what JSON would carry: plain objects and lists of strings,
 * finite numbers, booleans and null. Such a value needs no JSON round trip (the common
 * case, and allocation-free to check).
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth > 32) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isPlainJson(item, depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/** The value as JSON would carry it (no undefined, functions, cycles); primitives as they are. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (isPlainJson(value, 0)) return value;
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
