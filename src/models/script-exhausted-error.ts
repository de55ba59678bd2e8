import { HookwiseError } from "../errors/hookwise-error.js";

/** The scripted model was called more times than its script has entries. */
export class ScriptExhaustedError extends HookwiseError {
  override readonly name = "ScriptExhaustedError";
  readonly callNumber: number;
  readonly entries: number;

  constructor(options: { callNumber: number; entries: number; source?: string }) {
    super(
      `scripted model${options.source ? ` (${options.source})` : ""}: call #${options.callNumber} has no script entry ` +
        `(the script has ${options.entries} entr${options.entries === 1 ? "y" : "ies"}); add an entry for it`,
    );
    this.callNumber = options.callNumber;
    this.entries = options.entries;
  }

  static override isInstance(error: unknown): error is ScriptExhaustedError {
    return HookwiseError.isInstance(error) && error.name === "ScriptExhaustedError";
  }
}
