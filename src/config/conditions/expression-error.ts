/**
 * A CEL expression that does not compile (phase `compile`: bad syntax, unknown variable,
 * wrong types) or that failed while evaluating (phase `evaluate`: missing key, division by
 * zero, non-boolean result). Positions are in the expression as the user wrote it.
 */
import { HookwiseError } from "../../errors/hookwise-error.js";

export class ExpressionError extends HookwiseError {
  override readonly name = "ExpressionError";
  readonly expression: string;
  readonly phase: "compile" | "evaluate";
  /** What went wrong, without position or expression. */
  readonly detail: string;
  /** 0-based offset into `expression`, when known. */
  readonly offset: number | undefined;
  /** 1-based line and column inside `expression`, when known. */
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(options: {
    expression: string;
    phase: "compile" | "evaluate";
    detail: string;
    offset?: number;
    cause?: unknown;
  }) {
    const { expression, phase, detail, offset } = options;
    const position = offset === undefined ? undefined : lineColumn(expression, offset);
    const where = position
      ? position.line > 1
        ? ` at line ${position.line}, column ${position.column}`
        : ` at column ${position.column}`
      : "";
    const verb = phase === "compile" ? "" : "failed: ";
    super(`${verb}${detail}${where} in CEL expression "${expression}"`, { cause: options.cause });
    this.expression = expression;
    this.phase = phase;
    this.detail = detail;
    this.offset = offset;
    this.line = position?.line;
    this.column = position?.column;
  }

  static override isInstance(error: unknown): error is ExpressionError {
    return HookwiseError.isInstance(error) && error.name === "ExpressionError";
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
