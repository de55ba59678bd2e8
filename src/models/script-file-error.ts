import { HookwiseError } from "../errors/hookwise-error.js";

/**
 * A scripted model's script file that cannot be replayed: where (the file, line and column,
 * the path inside it: `[1, "toolcalls"]`), what is wrong, what was expected and the nearest
 * valid key. `validate` reports the same fields as a config problem.
 */
export class ScriptFileError extends HookwiseError {
  override readonly name = "ScriptFileError";
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly path: readonly (string | number)[];
  readonly problem: string;
  readonly expected: string | undefined;
  readonly suggestion: string | undefined;

  constructor(options: {
    file: string;
    line: number;
    column: number;
    path: readonly (string | number)[];
    problem: string;
    expected?: string | undefined;
    suggestion?: string | undefined;
  }) {
    let message = `scripted model: ${options.file}:${options.line}:${options.column}: ${options.problem}`;
    if (options.expected) message += `; expected ${options.expected}`;
    if (options.suggestion) message += `; did you mean "${options.suggestion}"?`;
    super(message);
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.path = options.path;
    this.problem = options.problem;
    this.expected = options.expected;
    this.suggestion = options.suggestion;
  }

  static override isInstance(error: unknown): error is ScriptFileError {
    return HookwiseError.isInstance(error) && error.name === "ScriptFileError";
  }
}
