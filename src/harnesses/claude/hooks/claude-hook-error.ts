import { HookwiseError } from "../../../errors/hookwise-error.js";

/**
 * A Claude Code hook handler that failed: it could not start, crashed (an exit code other
 * than 0 or 2), timed out, or answered with output Claude Code would reject. Whether that
 * blocks what the hook guards is its `onFailure` (or `claude_hooks_failure`).
 */
export class ClaudeHookError extends HookwiseError {
  override readonly name = "ClaudeHookError";

  static override isInstance(error: unknown): error is ClaudeHookError {
    return HookwiseError.isInstance(error) && error.name === "ClaudeHookError";
  }
}
