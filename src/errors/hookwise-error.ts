const marker = Symbol.for("hookwise.error");

/**
 * The base of every error hookwise throws. `isInstance` checks a symbol marker, so it
 * survives duplicated bundles (two copies of hookwise in one process).
 */
export class HookwiseError extends Error {
  readonly [marker] = true;
  override readonly name: string = "HookwiseError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  static isInstance(error: unknown): error is HookwiseError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
