/**
 * Whether a tool's result says something went wrong (`call_tool_inject` with `format:
 * auto` injects only then). A heuristic over common shapes:
 * - objects: `isError: true`, `ok` / `success: false`, a non-empty `error` / `errors`,
 *   non-empty `diagnostics` / `problems` / `issues` / `warnings`, a failing `status`, or a
 *   non-zero `exitCode` / `exit_code`;
 * - lists: any item that signals one, or any item with a `severity` (diagnostics);
 * - text: the words error, failed, failure, exception, fatal, invalid, warning — unless it
 *   says "no errors" / "0 problems" and the like.
 */

const PROBLEM_WORDS = /\b(errors?|failed|failure|exception|fatal|invalid|warnings?)\b/i;
const ALL_CLEAR = /\b(no|0|zero) (errors?|problems?|issues?|warnings?|failures?)\b/i;
const LIST_KEYS = ["errors", "diagnostics", "problems", "issues", "warnings"];
const FAILING_STATUS = new Set(["error", "errored", "fail", "failed", "failure"]);

function nonEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "string") return value.trim() !== "";
  return value !== undefined && value !== null && value !== false;
}

export function signalsProblem(result: unknown): boolean {
  if (typeof result === "string") return PROBLEM_WORDS.test(result) && !ALL_CLEAR.test(result);
  if (Array.isArray(result)) {
    return result.some(
      (item) => signalsProblem(item) || (item !== null && typeof item === "object" && "severity" in item),
    );
  }
  if (result === null || typeof result !== "object") return false;
  const record = result as Record<string, unknown>;
  if (record.isError === true || record.ok === false || record.success === false) return true;
  if (nonEmpty(record.error)) return true;
  if (LIST_KEYS.some((key) => Array.isArray(record[key]) && (record[key] as unknown[]).length > 0))
    return true;
  if (typeof record.status === "string" && FAILING_STATUS.has(record.status.toLowerCase())) return true;
  for (const key of ["exitCode", "exit_code"]) {
    if (typeof record[key] === "number" && record[key] !== 0) return true;
  }
  return false;
}

/** The text to inject for a result: itself, its `summary` / `text` / `message`, or its JSON. */
export function describeResult(result: unknown): string {
  if (typeof result === "string") return result;
  if (result && typeof result === "object" && !Array.isArray(result)) {
    for (const key of ["summary", "text", "message"]) {
      const value = (result as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}
