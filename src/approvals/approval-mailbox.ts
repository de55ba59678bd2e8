/**
 * Approvals asked by a process that has no run to suspend — a harness's hook (`hookwise
 * hook`), the MCP gateway answering a client without elicitation — decided in the approval
 * inbox of a `hookwise serve` on the same store.
 *
 * The asking process posts the call (its arguments with secrets masked) and waits, bounded,
 * for a decision; the server lists it beside suspended runs and writes one decision. The
 * decision is taken with `setIfAbsent`, so exactly one of the deciders (people, replicas,
 * the asker's own deadline) wins: a call approved at the last instant runs, and one whose
 * deadline came first is denied and cannot be approved afterwards. No decision in time is a
 * denial (fail closed).
 *
 * The waiter polls the store (with backoff) and, on a store that broadcasts (Redis), wakes
 * up as soon as a decision is announced.
 */
import { randomUUID } from "node:crypto";
import { HookwiseError } from "../errors/hookwise-error.js";
import { maskSecrets, maskSecretsIn } from "../secrets/secret-registry.js";
import type { StateStore } from "../state/state-store.js";
import {
  INBOX_PRIVATE_KEY_ENV,
  INBOX_PUBLIC_KEY_ENV,
  type InboxSign,
  type InboxVerify,
} from "./inbox-signature.js";

/** One call waiting for a decision, as the inbox lists it. */
export interface WaitingApproval {
  id: string;
  /** The tool as the asker names it (`Bash`, `bank_pay`). */
  toolName: string;
  qualifiedName: string;
  /** The arguments it would run with, secrets masked. */
  args: unknown;
  reason?: string;
  /** The session of the harness or MCP client that asks. */
  sessionId: string;
  /** Who waits, for people: "Claude Code (hookwise hook)", "MCP gateway (client …)". */
  waiter: string;
  /** ISO 8601. */
  createdAt: string;
  /** After this instant (ISO 8601) the asker has given up: the call was denied. */
  expiresAt: string;
}

export interface MailboxDecision {
  approved: boolean;
  reason?: string;
  /** Who decided: "inbox", or "timeout" / "cancelled" when the asker gave up. */
  by: "inbox" | "timeout" | "cancelled";
  /** The inbox's signature over the call and the answer (inbox-signature.ts), when it has a key. */
  signature?: string;
}

export type DecideResult =
  | { status: "decided"; approval: WaitingApproval }
  | { status: "already_decided" | "expired" | "unknown" };

const WAIT_PREFIX = "approval-wait:";
const DECISION_PREFIX = "approval-decision:";
const CHANNEL = "hookwise:approval-decisions";
/** How long records stay after their deadline: a late decider is told it came late. */
const GRACE_MS = 5 * 60 * 1000;
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 500;

export class ApprovalMailbox {
  readonly #store: StateStore;
  readonly #sign: InboxSign | undefined;
  readonly #verify: InboxVerify | undefined;

  /**
   * `sign`: the inbox signs each decision it writes. `verify`: a waiter takes an approval only
   * when it is signed for the call it posted; any other approval found in the store is a denial.
   */
  constructor(store: StateStore, options: { sign?: InboxSign; verify?: InboxVerify } = {}) {
    this.#store = store;
    this.#sign = options.sign;
    this.#verify = options.verify;
  }

  /** Posts a call to approve; decided in the inbox until `waitMs` from now. */
  async post(call: {
    toolName: string;
    qualifiedName: string;
    args: unknown;
    reason?: string;
    sessionId: string;
    waiter: string;
    waitMs: number;
  }): Promise<WaitingApproval> {
    if (this.#store.sharing === "process") {
      throw new HookwiseError(
        `approvals: inbox needs a state store that hookwise serve can share (runtime.state: sqlite, file or redis), not the "${this.#store.kind}" store of this process alone, so "${call.qualifiedName}" is denied`,
      );
    }
    const now = Date.now();
    const approval: WaitingApproval = {
      id: `wait_${randomUUID().replaceAll("-", "")}`,
      toolName: call.toolName,
      qualifiedName: call.qualifiedName,
      args: maskSecretsIn(call.args),
      // A hook's reason may quote the arguments (`{{tool.params.…}}`): masked as they are.
      ...(call.reason !== undefined ? { reason: maskSecrets(call.reason) } : {}),
      sessionId: call.sessionId,
      waiter: call.waiter,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + call.waitMs).toISOString(),
    };
    await this.#store.set(WAIT_PREFIX + approval.id, approval, { ttlMs: call.waitMs + GRACE_MS });
    return approval;
  }

  /**
   * Waits for the decision on `approval` until its `expiresAt` (or `signal`); then denies it
   * itself, unless a decision beat it to the store.
   */
  async wait(approval: WaitingApproval, signal?: AbortSignal): Promise<MailboxDecision> {
    const deadline = Date.parse(approval.expiresAt);
    const key = DECISION_PREFIX + approval.id;
    let wake: (() => void) | undefined;
    const stop = await this.#listen(approval.id, () => wake?.());
    const aborted = () => wake?.();
    signal?.addEventListener("abort", aborted);
    try {
      let pause = FIRST_POLL_MS;
      while (Date.now() < deadline && !signal?.aborted) {
        const decided = await this.#store.get<MailboxDecision>(key);
        if (decided) return this.#checked(approval, decided);
        await new Promise<void>((done) => {
          const timer = setTimeout(done, Math.min(pause, Math.max(0, deadline - Date.now())));
          wake = () => {
            clearTimeout(timer);
            done();
          };
        });
        wake = undefined;
        pause = Math.min(MAX_POLL_MS, Math.round(pause * 1.5));
      }
      const waited = Math.round((Date.now() - Date.parse(approval.createdAt)) / 1000);
      const own: MailboxDecision = signal?.aborted
        ? { approved: false, by: "cancelled", reason: `the call was cancelled while waiting for approval` }
        : {
            approved: false,
            by: "timeout",
            reason: `no decision in the approval inbox within ${waited} s (approval ${approval.id}), so it is denied`,
          };
      if (await this.#store.setIfAbsent(key, own, { ttlMs: GRACE_MS })) return own;
      const decided = await this.#store.get<MailboxDecision>(key);
      return decided ? this.#checked(approval, decided) : own;
    } finally {
      signal?.removeEventListener("abort", aborted);
      await stop?.().catch(() => {});
    }
  }

  /** A decision found in the store, as this waiter takes it: an approval it cannot verify denies. */
  #checked(approval: WaitingApproval, decided: MailboxDecision): MailboxDecision {
    if (!this.#verify || !decided.approved) return decided;
    const answer = { approved: true, ...(decided.reason !== undefined ? { reason: decided.reason } : {}) };
    if (typeof decided.signature === "string" && this.#verify(approval, answer, decided.signature))
      return decided;
    return {
      approved: false,
      by: "inbox",
      reason: `an approval of ${approval.id} that ${INBOX_PUBLIC_KEY_ENV} does not verify (not signed with the inbox's ${INBOX_PRIVATE_KEY_ENV}, or for other arguments), so it is denied`,
    };
  }

  /** The calls waiting now, oldest first. */
  async list(): Promise<WaitingApproval[]> {
    const keys = await this.#store.keys(WAIT_PREFIX);
    const now = Date.now();
    const found = await Promise.all(
      keys.map(async (key) => {
        const approval = await this.#store.get<WaitingApproval>(key);
        if (!approval || Date.parse(approval.expiresAt) <= now) return undefined;
        return (await this.#store.get(DECISION_PREFIX + approval.id)) === undefined ? approval : undefined;
      }),
    );
    return found
      .filter((approval): approval is WaitingApproval => approval !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Whether `id` names a call posted here (decided or not). */
  async has(id: string): Promise<boolean> {
    return id.startsWith("wait_") && (await this.#store.get(WAIT_PREFIX + id)) !== undefined;
  }

  /** Decides a waiting call; only the first decision counts. */
  async decide(id: string, decision: { approved: boolean; reason?: string }): Promise<DecideResult> {
    const approval = await this.#store.get<WaitingApproval>(WAIT_PREFIX + id);
    if (!approval) return { status: "unknown" };
    if (Date.parse(approval.expiresAt) <= Date.now()) {
      const decided = await this.#store.get(DECISION_PREFIX + id);
      return { status: decided === undefined ? "expired" : "already_decided" };
    }
    const answer = {
      approved: decision.approved,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    };
    const written: MailboxDecision = {
      ...answer,
      by: "inbox",
      // Over the call as stored and shown here: a waiter whose posted call differs refuses it.
      ...(this.#sign ? { signature: this.#sign(approval, answer) } : {}),
    };
    if (!(await this.#store.setIfAbsent(DECISION_PREFIX + id, written, { ttlMs: GRACE_MS }))) {
      return { status: "already_decided" };
    }
    await this.#store.broadcast?.(CHANNEL, id).catch(() => {});
    return { status: "decided", approval };
  }

  async #listen(id: string, wake: () => void): Promise<(() => Promise<void>) | undefined> {
    if (!this.#store.listen) return undefined;
    try {
      return await this.#store.listen(CHANNEL, (message) => {
        if (message === id) wake();
      });
    } catch {
      return undefined; // polling still finds the decision
    }
  }
}
