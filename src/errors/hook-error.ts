import { HookwiseError } from "./hookwise-error.js";

/** A blocking hook failed (threw, timed out, answered with a result its event does not accept). */
export class HookError extends HookwiseError {
  override readonly name = "HookError";
  readonly hook: string;
  readonly event: string;
  readonly reason: "threw" | "timeout" | "aborted" | "invalid_result" | "invalid_args" | "invalid_request";
  /** A malformed answer: the field at fault, as a path into the flow (`patch.system`). */
  readonly field?: string;

  constructor(options: {
    hook: string;
    event: string;
    reason: HookError["reason"];
    message: string;
    cause?: unknown;
    field?: string;
  }) {
    super(`hook "${options.hook}" on ${options.event}: ${options.message}`, { cause: options.cause });
    this.hook = options.hook;
    this.event = options.event;
    this.reason = options.reason;
    if (options.field !== undefined) this.field = options.field;
  }

  static override isInstance(error: unknown): error is HookError {
    return HookwiseError.isInstance(error) && error.name === "HookError";
  }
}
