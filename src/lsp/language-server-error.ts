import { HookwiseError } from "../errors/hookwise-error.js";

/** A language server could not start, died, or did not publish diagnostics in time. */
export class LanguageServerError extends HookwiseError {
  override readonly name = "LanguageServerError";
  readonly server: string;

  constructor(options: { server: string; message: string; cause?: unknown }) {
    super(`language server ${options.server}: ${options.message}`, { cause: options.cause });
    this.server = options.server;
  }

  static override isInstance(error: unknown): error is LanguageServerError {
    return HookwiseError.isInstance(error) && error.name === "LanguageServerError";
  }
}
