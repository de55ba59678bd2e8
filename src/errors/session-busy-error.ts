import { HookwiseError } from "./hookwise-error.js";

/**
 * A run could not have its session: it never silently loses a turn instead.
 *
 * - `busy`: another run (in this process or another sharing the store) held the session for
 *   longer than this run was willing to wait; this run did nothing.
 * - `changed`: the session was committed by someone else after this run read it (the
 *   store's compare-and-swap refused the commit); this run's messages were not saved.
 */
export class SessionBusyError extends HookwiseError {
  override readonly name = "SessionBusyError";
  readonly reason: "busy" | "changed";
  readonly sessionId: string;

  constructor(options: { reason: SessionBusyError["reason"]; sessionId: string; message: string }) {
    super(options.message);
    this.reason = options.reason;
    this.sessionId = options.sessionId;
  }

  /** The store refused a commit on top of `expected`: the session is at `stored` now. */
  static changed(sessionId: string, expected: number, stored: number): SessionBusyError {
    const now = stored === 0 ? "it is not stored any more" : `it is at version ${stored}`;
    return new SessionBusyError({
      reason: "changed",
      sessionId,
      message: `session "${sessionId}" is busy: another run committed to it after this one read it (this run read version ${expected}; ${now}), so this run's messages were not saved; run it again`,
    });
  }

  static override isInstance(error: unknown): error is SessionBusyError {
    return HookwiseError.isInstance(error) && error.name === "SessionBusyError";
  }
}
