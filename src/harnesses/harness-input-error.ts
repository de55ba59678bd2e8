import { HookwiseError } from "../errors/hookwise-error.js";

/** A hook event on stdin that is not one the harness sends: malformed JSON, a missing field, an unknown event. */
export class HarnessInputError extends HookwiseError {
  override readonly name = "HarnessInputError";

  static override isInstance(error: unknown): error is HarnessInputError {
    return HookwiseError.isInstance(error) && error.name === "HarnessInputError";
  }
}
