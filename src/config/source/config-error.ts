import { HookwiseError } from "../../errors/hookwise-error.js";

export type ConfigPath = readonly (string | number)[];

/** One problem in a config file: where, what, what was expected, the nearest valid value. */
export interface ConfigIssue {
  severity: "error" | "warning";
  file: string;
  line: number;
  column: number;
  path: ConfigPath;
  message: string;
  expected?: string;
  suggestion?: string;
}

export function formatPath(path: ConfigPath): string {
  let out = "";
  for (const segment of path)
    out += typeof segment === "number" ? `[${segment}]` : out ? `.${segment}` : segment;
  return out || "(root)";
}

export function formatIssue(issue: ConfigIssue): string {
  let text = `${issue.file}:${issue.line}:${issue.column}: ${issue.severity === "warning" ? "warning: " : ""}${formatPath(issue.path)}: ${issue.message}`;
  if (issue.expected) text += `; expected ${issue.expected}`;
  if (issue.suggestion) text += `; did you mean "${issue.suggestion}"?`;
  return text;
}

/** A config that does not load: every error at once, nothing half-loaded. */
export class ConfigError extends HookwiseError {
  override readonly name = "ConfigError";
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const errors = issues.filter((issue) => issue.severity === "error");
    super(
      `${errors.length} error${errors.length === 1 ? "" : "s"} in config:\n${errors.map((issue) => `  ${formatIssue(issue)}`).join("\n")}`,
    );
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return HookwiseError.isInstance(error) && error.name === "ConfigError";
  }
}

/** The config file cannot be read (missing, a folder, no permission). */
export class ConfigFileError extends HookwiseError {
  override readonly name = "ConfigFileError";
  readonly file: string;

  constructor(file: string, reason: string) {
    super(`cannot read config file ${file}: ${reason}`);
    this.file = file;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is ConfigFileError {
    return HookwiseError.isInstance(error) && error.name === "ConfigFileError";
  }
}

/**
 * A name the caller gave does not exist in the config (an agent id, a model name): a usage
 * mistake, not a failure of the run (the CLI exits 2).
 */
export class ConfigReferenceError extends HookwiseError {
  override readonly name = "ConfigReferenceError";

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is ConfigReferenceError {
    return HookwiseError.isInstance(error) && error.name === "ConfigReferenceError";
  }
}
