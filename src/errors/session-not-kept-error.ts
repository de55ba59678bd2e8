import { HookwiseError } from "./hookwise-error.js";

/**
 * A run was given the `sessionId` of a session its store did not keep: one started by a run
 * given no `sessionId`, on a store that keeps only sessions named by their caller (the
 * in-memory store, unless made with `keepOneShot: true`). Continuing it would silently
 * start from an empty transcript, so the run does nothing instead.
 */
export class SessionNotKeptError extends HookwiseError {
  override readonly name = "SessionNotKeptError";
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(
      `session "${sessionId}" was not kept: a run given no sessionId started it, and the in-memory ` +
        "store does not keep such sessions once their run ends. Give the first run a sessionId of your " +
        'own (run(input, { sessionId: "chat-1" })) and pass the same one to continue, or use a store ' +
        "that keeps such sessions (new MemoryStore({ keepOneShot: true }), SQLite or Redis).",
    );
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionNotKeptError {
    return HookwiseError.isInstance(error) && error.name === "SessionNotKeptError";
  }
}
