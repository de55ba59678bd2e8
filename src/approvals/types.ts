/** The approval channel's public types: its options, what a handler receives and answers, a decision. */

export interface ApprovalRequest {
  approvalId: string;
  toolName: string;
  qualifiedName: string;
  toolCallId: string;
  args: unknown;
  reason?: string;
}

export type ApprovalAnswer = boolean | { approved: boolean; reason?: string };

/**
 * The approval channel. An `ask` that no `approval_request` hook answered goes
 * to `handler` when there is one; otherwise the run suspends (`outcome: "suspended"`) and
 * `agent.resume(runId, decisions)` continues it later, in any process sharing the store.
 */
export interface ApprovalOptions {
  /** Decides in-process: receives the full tool call, returns approve / deny (or a reason). */
  handler?(request: ApprovalRequest): ApprovalAnswer | Promise<ApprovalAnswer>;
  /**
   * How long a pending approval can be approved, in ms (config: `approval_ttl`, seconds).
   * Default 24 h. After it, the call can still be denied, never approved.
   */
  ttlMs?: number;
  /**
   * Suspend when no handler answers (default true). With `false` an unanswered ask is
   * denied, and an `askUser` policy without a handler is a construction-time error.
   */
  suspend?: boolean;
  /**
   * HMAC key that signs approval tokens and binding hashes. Default: the environment's
   * `HOOKWISE_APPROVAL_KEY`. Without a key, no tokens are issued. Never logged.
   */
  key?: string | Uint8Array;
}

/** A decision for a pending approval: by id (whoever holds the agent), or by a signed token (a client). */
export type ApprovalDecision =
  | { id: string; approved: boolean; reason?: string }
  | { token: string; approved: boolean; reason?: string };
