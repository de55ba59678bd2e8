import { HookwiseError } from "../../errors/hookwise-error.js";

/**
 * Thrown by an action that must stop the `chain` it is in even when the chain does not
 * `stop_on_failure` (`pipe` with `on_error: raise`). The chain records it in
 * `hook_failures` and rethrows it.
 */
export class ChainAbortError extends HookwiseError {
  override readonly name = "ChainAbortError";
  readonly action: string;

  constructor(options: { action: string; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.action = options.action;
  }

  static override isInstance(error: unknown): error is ChainAbortError {
    return HookwiseError.isInstance(error) && error.name === "ChainAbortError";
  }
}
