/**
 * The approval inbox: every approval a suspended run of any of the config's agents waits
 * for, read from the StateStore — so it lists runs suspended by any process sharing the
 * store (another replica, `hookwise run`), and a decision reaches them through the same
 * `agent.resume` as `hookwise resume`: its binding, expiry and exactly-once checks.
 */

import { isApprovalToken } from "../approvals/approval-signer.js";
import type { ApprovalDecision } from "../approvals/types.js";
import { ApprovalError } from "../errors/approval-error.js";
import type { PendingApproval } from "../loop/run-result.js";
import type { AgentPool } from "./agent-pool.js";
import { HttpError } from "./http-error.js";

export interface InboxItem extends Omit<PendingApproval, "token"> {
  runId: string;
  sessionId: string;
  agent: string;
  /** The run's user input. */
  input: string;
  suspendedAt: string;
}

interface Found {
  item: InboxItem;
  token: string | undefined;
}

export class ApprovalInbox {
  readonly #agents: AgentPool;

  constructor(agents: AgentPool) {
    this.#agents = agents;
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

  async list(sessionId?: string): Promise<InboxItem[]> {
    return (await this.#entries(sessionId)).map((entry) => entry.item);
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
