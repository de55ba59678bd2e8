/** Diagnostics as text a model reads: `src/a.ts:1:7 error TS2322: Type 'string' is not…`. */
import type { Diagnostic } from "./diagnostic.js";

export type SeverityName = "error" | "warning" | "info" | "hint";

const SEVERITIES: readonly SeverityName[] = ["error", "warning", "info", "hint"];

/** LSP severities are 1 (error) … 4 (hint); a missing one counts as an error. */
export function severityName(diagnostic: Diagnostic): SeverityName {
  return SEVERITIES[(diagnostic.severity ?? 1) - 1] ?? "error";
}

/** Keeps diagnostics at `minimum` or more severe. */
export function atLeast(diagnostics: readonly Diagnostic[], minimum: SeverityName): Diagnostic[] {
  const limit = SEVERITIES.indexOf(minimum);
  return diagnostics.filter((diagnostic) => SEVERITIES.indexOf(severityName(diagnostic)) <= limit);
}

function codeOf(diagnostic: Diagnostic): string {
  if (diagnostic.code === undefined || diagnostic.code === null) return "";
  const source = diagnostic.source?.toLowerCase();
  const prefix =
    typeof diagnostic.code === "number" && (source === "typescript" || source === "ts") ? "TS" : "";
  return ` ${prefix}${diagnostic.code}`;
}

/** One line per diagnostic, 1-based line:column, the path as given. */
export function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  return `${path}:${line + 1}:${character + 1} ${severityName(diagnostic)}${codeOf(diagnostic)}: ${typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value}`;
}

export function formatDiagnostics(path: string, diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return `no problems in ${path}`;
  const count = diagnostics.length === 1 ? "1 problem" : `${diagnostics.length} problems`;
  return [`${count} in ${path}:`, ...diagnostics.map((item) => formatDiagnostic(path, item))].join("\n");
}
