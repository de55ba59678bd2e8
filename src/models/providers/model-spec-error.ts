import { HookwiseError } from "../../errors/hookwise-error.js";

/** A model string or object that names no usable model (unknown provider, no base_url, …). */
export class ModelSpecError extends HookwiseError {
  override readonly name = "ModelSpecError";

  static override isInstance(error: unknown): error is ModelSpecError {
    return HookwiseError.isInstance(error) && error.name === "ModelSpecError";
  }
}
