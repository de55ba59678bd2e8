import { HookwiseError } from "../../errors/hookwise-error.js";

export type SettingPath = readonly (string | number)[];

/** `auth.bearer.token`, `operations[2]`: a place inside one toolset's settings. */
export function formatSettingPath(toolset: string, at: SettingPath): string {
  let out = `toolsets.${toolset}`;
  for (const segment of at) out += typeof segment === "number" ? `[${segment}]` : `.${segment}`;
  return out;
}

/**
 * An OpenAPI toolset cannot be set up: its document does not parse or is not a valid
 * OpenAPI document, a setting names something the document lacks, or an environment
 * variable is unset. `at` is the setting at fault (`["spec"]`, `["auth", "bearer",
 * "token"]`); `file`, `line` and `column` point into the document when the problem is there.
 * The config loader turns it into a ConfigError with the config file's position.
 */
export class OpenApiToolsetError extends HookwiseError {
  override readonly name = "OpenApiToolsetError";
  readonly toolset: string;
  readonly at: SettingPath;
  readonly problem: string;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly expected: string | undefined;
  readonly suggestion: string | undefined;

  constructor(options: {
    toolset: string;
    at: SettingPath;
    problem: string;
    file?: string;
    line?: number;
    column?: number;
    expected?: string;
    suggestion?: string;
    cause?: unknown;
  }) {
    const place =
      options.file === undefined
        ? ""
        : options.line === undefined
          ? `${options.file}: `
          : `${options.file}:${options.line}:${options.column ?? 1}: `;
    super(
      `${formatSettingPath(options.toolset, options.at)}: ${place}${options.problem}` +
        (options.expected ? `; expected ${options.expected}` : "") +
        (options.suggestion ? `; did you mean "${options.suggestion}"?` : ""),
      { cause: options.cause },
    );
    this.toolset = options.toolset;
    this.at = options.at;
    this.problem = options.problem;
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.expected = options.expected;
    this.suggestion = options.suggestion;
  }

  static override isInstance(error: unknown): error is OpenApiToolsetError {
    return HookwiseError.isInstance(error) && error.name === "OpenApiToolsetError";
  }
}
