/**
 * The approval inbox: every approval a suspended run of any of the config's agents waits
 * for, read from the StateStore — so it lists runs suspended by any process sharing the
 * store (another replica, `hookwise run`), and a decision reaches them through the same
 * `agent.resume` as `hookwise resume`: its binding, expiry and exactly-once checks.
 *
 * Beside them, the calls that processes with no run to suspend wait on (`hookwise hook`,
 * `hookwise mcp` with `approvals: inbox`): a decision is written to the store for the
 * waiting process, once (approvals/approval-mailbox.ts).
 */

import { ApprovalMailbox, type WaitingApproval } from "../approvals/approval-mailbox.js";
import { isApprovalToken } from "../approvals/approval-signer.js";
import { inboxSignerFromEnv } from "../approvals/inbox-signature.js";
import type { ApprovalDecision } from "../approvals/types.js";
import { ApprovalError } from "../errors/approval-error.js";
import type { PendingApproval } from "../loop/run-result.js";
import type { StateStore } from "../state/state-store.js";
import type { AgentPool } from "./agent-pool.js";
import { HttpError } from "./http/http-error.js";

export interface InboxItem extends Omit<PendingApproval, "token"> {
  runId: string;
  sessionId: string;
  agent: string;
  /** The run's user input. */
  input: string;
  suspendedAt: string;
}

/** A call a hook or gateway process waits on (it has no run): decided with `decideWaiting`. */
export type WaitingInboxItem = WaitingApproval;

interface Found {
  item: InboxItem;
  token: string | undefined;
}

export class ApprovalInbox {
  readonly #agents: AgentPool;
  readonly #mailbox: ApprovalMailbox | undefined;

  constructor(agents: AgentPool, store?: StateStore) {
    this.#agents = agents;
    // With HOOKWISE_INBOX_PRIVATE_KEY, every decision of a waiting call is signed.
    const sign = inboxSignerFromEnv();
    this.#mailbox = store ? new ApprovalMailbox(store, sign ? { sign } : {}) : undefined;
  }

  async #entries(sessionId?: string): Promise<Found[]> {
    const found: Found[] = [];
    for (const agent of await this.#agents.all()) {
      const runs = await agent.suspendedRuns(sessionId === undefined ? {} : { sessionId });
      for (const run of runs) {
        for (const { token, ...approval } of run.approvals) {
          found.push({
            token,
            item: {
              ...approval,
              runId: run.runId,
              sessionId: run.sessionId,
              agent: run.agentName,
              input: run.input,
              suspendedAt: run.suspendedAt,
            },
          });
        }
      }
    }
    return found.sort((a, b) => a.item.suspendedAt.localeCompare(b.item.suspendedAt));
  }

  /** Suspended runs' approvals, then the calls processes wait on (each oldest first). */
  async list(sessionId?: string): Promise<(InboxItem | WaitingInboxItem)[]> {
    const [suspended, waiting] = await Promise.all([this.#entries(sessionId), this.waiting(sessionId)]);
    return [...suspended.map((entry) => entry.item), ...waiting];
  }

  /** The calls hook and gateway processes wait on now. */
  async waiting(sessionId?: string): Promise<WaitingInboxItem[]> {
    const all = (await this.#mailbox?.list()) ?? [];
    return sessionId === undefined ? all : all.filter((item) => item.sessionId === sessionId);
  }

  /**
   * Decides a call a process waits on; undefined when `id` is not one (a suspended run's
   * approval, then). Only the first decision counts: another is refused (409).
   */
  async decideWaiting(
    id: string,
    decision: { approved: boolean; reason?: string },
  ): Promise<WaitingInboxItem | undefined> {
    if (!this.#mailbox || !(await this.#mailbox.has(id))) return undefined;
    const result = await this.#mailbox.decide(id, decision);
    if (result.status === "decided") return result.approval;
    if (result.status === "already_decided") {
      throw new HttpError(409, "approval_decided", `approval "${id}" was decided already; nothing changed`);
    }
    throw new HttpError(
      410,
      "approval_expired",
      `approval "${id}" is past its deadline: the waiting call was denied`,
    );
  }

  /** The pending approval with this id (or signed token), and the decision `resume` takes for it. */
  async find(
    idOrToken: string,
    decision: { approved: boolean; reason?: string },
  ): Promise<{ item: InboxItem; decision: ApprovalDecision }> {
    const byToken = isApprovalToken(idOrToken);
    const entry = (await this.#entries()).find((candidate) =>
      byToken ? candidate.token === idOrToken : candidate.item.id === idOrToken,
    );
    if (!entry) {
      throw new HttpError(
        404,
        "unknown_approval",
        `no pending approval "${idOrToken.slice(0, 60)}": it was decided already, its run ended, or it never existed`,
      );
    }
    const reason = decision.reason !== undefined ? { reason: decision.reason } : {};
    return {
      item: entry.item,
      decision: byToken
        ? { token: idOrToken, approved: decision.approved, ...reason }
        : { id: idOrToken, approved: decision.approved, ...reason },
    };
  }
}

const STATUS: Record<ApprovalError["reason"], number> = {
  unknown_run: 404,
  unknown_approval: 404,
  not_suspended: 409,
  wrong_agent: 409,
  busy: 409,
  binding: 409,
  conflict: 409,
  expired: 410,
  forged: 403,
  no_key: 400,
  invalid: 400,
};

/** A refused resume as an API error: nothing ran, the run stays resumable. */
export function approvalHttpError(error: unknown): HttpError | undefined {
  if (!ApprovalError.isInstance(error)) return undefined;
  return new HttpError(STATUS[error.reason] ?? 409, `approval_${error.reason}`, error.message, {
    ...(error.runId !== undefined ? { runId: error.runId } : {}),
  });
}
