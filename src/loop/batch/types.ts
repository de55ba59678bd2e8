/**
 * Types a step's tool batch shares with the loop and with approvals/: what a call ends
 * with, a call that waits on a human, the batch's entries as a suspended run saves them,
 * and what the batch asks of the approval channel and of the exactly-once guard.
 */
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { EventPayload } from "../../events/payloads.js";
import type { AskRequest } from "../../hooks/flow.js";

export type CallOutcome =
  | {
      kind: "result";
      toolCallId: string;
      toolName: string;
      qualifiedName: string;
      args: unknown;
      result: unknown;
      isError: boolean;
      executed: boolean;
      /** The body ran in an earlier process of this (resumed) run; it was not run again. */
      replayed?: boolean;
      /** What the model is sent of the result (the tool's `toModelOutput`), when not the result itself. */
      modelOutput?: ToolResultOutput;
    }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "retry"; feedback: string; hook: string }
  | PendingCall;

export type ResultOutcome = Extract<CallOutcome, { kind: "result" }>;

/**
 * A call decided but not executed: it awaits a human (`approval`), or it is allowed and
 * deferred because a sibling awaits one (so a sequential batch keeps its order). A batch
 * with pending calls suspends the run; `resume` settles them.
 */
export interface PendingCall {
  kind: "pending";
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  /** The effective arguments (after rewrites) that will run. */
  args: unknown;
  /** The `tool_call` payload after rewrites (`original` kept), for the inspections after the run. */
  callPayload: EventPayload<"tool_call">;
  approval?: { id: string; reason?: string };
}

export interface PendingApprovalRecord {
  id: string;
  reason?: string;
  /** `bindingHash(qualifiedName, args)`: what this approval can authorise, and nothing else. */
  binding: string;
  createdAt: number;
  expiresAt: number;
  /** A decision a partial resume recorded while an earlier sibling was still undecided. */
  decision?: { approved: boolean; reason?: string };
}

/** A call of the pending batch that has not settled: awaiting a decision, or deferred behind one. */
export interface PendingEntry {
  kind: "pending";
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  args: unknown;
  /** `tool_call`'s `original` (what the model asked for before rewrites), if args were rewritten. */
  original?: unknown;
  approval?: PendingApprovalRecord;
  /**
   * A deferred call (no approval of its own, decided before the suspension): what the resume
   * may run, `bindingHash(qualifiedName, args)` — keyed with an approval key, so whoever can
   * edit the store but lacks the key cannot turn it into another call.
   */
  binding?: string;
}

export type BatchEntry = { kind: "settled"; outcome: ResultOutcome } | PendingEntry;

/** The call an `ask` decision is about, as the approval channel receives it. */
export interface ApprovalCall {
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  args: unknown;
  reason?: string;
  /** The asking policy's own handler: it answers before the agent's channel. */
  handler?: AskRequest["handler"];
}

/** `pending`: nobody answered; the call waits for `resume` (approved stays false until then). */
export interface ApprovalOutcome {
  approved: boolean;
  reason: string;
  pending?: { id: string; reason?: string };
}

/** Runs a tool body at most once across processes: approvals/ implements it over the StateStore. */
export interface OnceGuard {
  /** Runs `body` at most once for this key, in any process; see approvals/exactly-once.ts. */
  run<T>(body: () => Promise<T> | T): Promise<T>;
  /** True once `run` replayed an earlier outcome (recorded or unknown) instead of running. */
  readonly replayed: boolean;
}
