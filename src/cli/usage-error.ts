import { HookwiseError } from "../errors/hookwise-error.js";

/** A mistake in how the CLI was called: exit 2 with a one-line reason. */
export class UsageError extends HookwiseError {
  override readonly name = "UsageError";
}
