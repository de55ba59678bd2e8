import { HookwiseError } from "../errors/hookwise-error.js";

/**
 * A provider request failed for good (retries exhausted, or not worth retrying, and no
 * fallback left). The message names the provider, the model, the error class and the
 * provider's own words; `cause` is the provider's error.
 */
export class ModelError extends HookwiseError {
  override readonly name = "ModelError";
  /** The AI SDK provider id, e.g. `openai.chat`, `anthropic.messages`. */
  readonly provider: string;
  readonly modelId: string;
  /** The error's class: rate_limit, context_overflow, billing, timeout, auth, network, internal… */
  readonly errorType: string;
  readonly status: number | undefined;
  /** The provider's own error code or type (`context_length_exceeded`, `overloaded_error`…). */
  readonly code: string | undefined;
  /** Attempts made on this model. */
  readonly attempts: number;

  constructor(options: {
    provider: string;
    modelId: string;
    errorType: string;
    message: string;
    status?: number;
    code?: string;
    attempts: number;
    cause?: unknown;
  }) {
    const details = [
      options.status === undefined ? undefined : `HTTP ${options.status}`,
      options.code,
      options.attempts > 1 ? `${options.attempts} attempts` : undefined,
    ].filter(Boolean);
    super(
      `model ${options.provider}:${options.modelId} failed: ${options.errorType}${details.length ? ` (${details.join(", ")})` : ""}: ${options.message}`,
      { cause: options.cause },
    );
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.errorType = options.errorType;
    this.status = options.status;
    this.code = options.code;
    this.attempts = options.attempts;
  }

  static override isInstance(error: unknown): error is ModelError {
    return HookwiseError.isInstance(error) && error.name === "ModelError";
  }
}
