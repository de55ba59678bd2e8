import { HookwiseError } from "../../errors/hookwise-error.js";

/**
 * A model needs an API key and its environment variable is unset or empty. Raised when the
 * model is built, before any request; the message names the variable, never a value.
 */
export class MissingApiKeyError extends HookwiseError {
  override readonly name = "MissingApiKeyError";
  readonly provider: string;
  /** The environment variable that was read. */
  readonly variable: string;

  constructor(options: { provider: string; variable: string; where?: string; chosen: boolean }) {
    const hint = options.chosen ? "(named by api_key_env)" : "(or name another variable with api_key_env)";
    super(
      `${options.where ? `${options.where}: ` : ""}${options.provider} needs an API key: set the environment variable ${options.variable} ${hint}`,
    );
    this.provider = options.provider;
    this.variable = options.variable;
  }

  static override isInstance(error: unknown): error is MissingApiKeyError {
    return HookwiseError.isInstance(error) && error.name === "MissingApiKeyError";
  }
}
