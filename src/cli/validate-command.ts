/** `hookwise validate <file>`: exit 0, or 2 listing every error; warnings never fail. */
import { readFileSync } from "node:fs";
import { ConfigFileError, formatIssue } from "../config/config-error.js";
import { validateConfigText } from "../config/validate-config.js";
import type { CliIO } from "./types.js";

export function validateCommand(path: string, io: CliIO): number {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ConfigFileError(path, code === "ENOENT" ? "no such file" : String(code ?? error));
  }
  const { issues } = validateConfigText(text, path);
  const errors = issues.filter((issue) => issue.severity === "error");
  for (const issue of issues) (issue.severity === "error" ? io.stderr : io.stdout).line(formatIssue(issue));
  if (errors.length) {
    io.stderr.line(`${path}: ${errors.length} error${errors.length === 1 ? "" : "s"}`);
    return 2;
  }
  const warnings = issues.length - errors.length;
  io.stdout.line(`${path}: valid${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`);
  return 0;
}
