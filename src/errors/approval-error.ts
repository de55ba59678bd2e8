import { HookwiseError } from "./hookwise-error.js";

/**
 * A resume or an approval that hookwise refused: nothing ran, and a suspended run stays
 * resumable. `reason` says which rule refused it; the message says what to do instead.
 */
export class ApprovalError extends HookwiseError {
  override readonly name = "ApprovalError";
  readonly reason:
    | "unknown_run"
    | "not_suspended"
    | "wrong_agent"
    | "busy"
    | "unknown_approval"
    | "expired"
    | "forged"
    | "binding"
    | "conflict"
    | "no_key"
    | "invalid";
  readonly runId: string | undefined;
  readonly approvalId: string | undefined;

  constructor(options: {
    reason: ApprovalError["reason"];
    message: string;
    runId?: string;
    approvalId?: string;
  }) {
    super(options.message);
    this.reason = options.reason;
    this.runId = options.runId;
    this.approvalId = options.approvalId;
  }

  static override isInstance(error: unknown): error is ApprovalError {
    return HookwiseError.isInstance(error) && error.name === "ApprovalError";
  }
}
