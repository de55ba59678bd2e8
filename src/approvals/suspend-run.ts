/**
 * Suspending a run: a batch with calls awaiting approval and no live channel.
 * Nothing of the batch is committed; the run's state goes to the StateStore so that
 * `resume` can settle the batch later, in any process. `suspendStep` decides what is
 * saved (plain data, at the moment of suspension); `saveSuspension` writes it once the
 * run's inspections settled (`finishRun` calls the run end's `saveSuspension`), so the
 * saved trace is complete.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import type { BatchEntry, PendingCall, PendingEntry, ResultOutcome } from "../loop/batch/types.js";
import { commitStep } from "../loop/finish-run.js";
import type { PendingApproval } from "../loop/run-result.js";
import type { RunState } from "../loop/run-state.js";
import { settleSteps } from "../loop/step-slots.js";
import type { LoopRuntime, RunEnd, StepRequestOutcome } from "../loop/types.js";
import { approvalSettings } from "./approval-settings.js";
import { bindingHash } from "./approval-signer.js";
import { storable } from "./storable.js";
import { type Claim, claimLost, runKey, type SuspendedRunRecord, sessionGuardKey } from "./suspended-run.js";

export type SuspensionDraft = Omit<
  SuspendedRunRecord,
  "version" | "status" | "token" | "suspendedAt" | "events"
>;

/** What a resumed run carries beside its state: its claim, and the exactly-once keys it used. */
export interface ResumeContext {
  claim: Claim;
  onceKeys: Set<string>;
}

const resumeContexts = new WeakMap<RunState, ResumeContext>();

export function bindResumeContext(state: RunState, context: ResumeContext): void {
  resumeContexts.set(state, context);
}

/** The batch's outcomes as saved entries: new approvals get their binding and expiry here. */
export function toEntries(
  runtime: LoopRuntime,
  outcomes: readonly (ResultOutcome | PendingCall)[],
  now = Date.now(),
): BatchEntry[] {
  const { ttlMs, signer } = approvalSettings(runtime);
  return outcomes.map((outcome): BatchEntry => {
    if (outcome.kind === "result") return { kind: "settled", outcome: storable(outcome) };
    const args = storable(outcome.args);
    const entry: PendingEntry = {
      kind: "pending",
      toolCallId: outcome.toolCallId,
      toolName: outcome.toolName,
      qualifiedName: outcome.qualifiedName,
      args,
    };
    if ("original" in outcome.callPayload) entry.original = storable(outcome.callPayload.original);
    if (outcome.approval) {
      const expiresAt = now + ttlMs;
      entry.approval = {
        id: outcome.approval.id,
        binding: bindingHash(outcome.qualifiedName, args, signer, expiresAt),
        createdAt: now,
        expiresAt,
      };
      if (outcome.approval.reason !== undefined) entry.approval.reason = outcome.approval.reason;
    } else entry.binding = bindingHash(outcome.qualifiedName, args, signer);
    return entry;
  });
}

/** What `RunResult.approvals` lists: each pending approval, with a signed token when a key is set. */
export function listApprovals(
  runtime: LoopRuntime,
  runId: string,
  entries: readonly BatchEntry[],
): PendingApproval[] {
  const { signer } = approvalSettings(runtime);
  const listed: PendingApproval[] = [];
  for (const entry of entries) {
    if (entry.kind !== "pending" || !entry.approval || entry.approval.decision) continue;
    const approval: PendingApproval = {
      id: entry.approval.id,
      toolName: entry.toolName,
      qualifiedName: entry.qualifiedName,
      toolCallId: entry.toolCallId,
      args: entry.args,
      expiresAt: new Date(entry.approval.expiresAt).toISOString(),
    };
    if (entry.approval.reason !== undefined) approval.reason = entry.approval.reason;
    if (signer) {
      approval.token = signer.sign({
        run: runId,
        id: entry.approval.id,
        tool: entry.qualifiedName,
        binding: entry.approval.binding,
        exp: entry.approval.expiresAt,
      });
    }
    listed.push(approval);
  }
  return listed;
}

/**
 * Ends the run as `suspended`: the step's model output and its batch are kept aside (not
 * committed), the step is recorded for the result (its usage was spent), and the pending
 * approvals are listed.
 */
export function suspendStep(
  runtime: LoopRuntime,
  state: RunState,
  requested: Extract<StepRequestOutcome, { kind: "turn" }>,
  entries: BatchEntry[],
  text: string,
): RunEnd {
  const { turn } = requested;
  settleSteps(state);
  const suspension: SuspensionDraft = {
    runId: state.runId,
    sessionId: state.sessionId,
    agentName: state.agentName,
    agentPath: [...state.agentPath],
    input: state.input,
    turn: state.turn,
    userMessageIndex: state.userMessageIndex,
    messages: state.messages.slice(),
    steps: state.steps.slice(),
    usage: { ...state.usage },
    pending: {
      index: state.step,
      turn: {
        text: turn.text,
        reasoning: turn.reasoning,
        toolCalls: turn.toolCalls,
        finishReason: turn.finishReason,
        usage: turn.usage,
      },
      attempts: requested.attempts,
      entries,
    },
    onceKeys: [...(resumeContexts.get(state)?.onceKeys ?? [])],
  };
  if (state.telemetry) suspension.trace = state.telemetry.link;
  commitStep(state, requested, [], false);
  if (state.isStreaming) surfaceSettled(state, entries);
  const approvals = listApprovals(runtime, state.runId, entries);
  const names = [...new Set(approvals.map((approval) => approval.qualifiedName))].join(", ");
  return {
    outcome: "suspended",
    text,
    reason: `awaiting approval: ${names} (${approvals.length} pending; resume with agent.resume or hookwise resume)`,
    approvals,
    saveSuspension: (oneShot) =>
      saveSuspension(runtime, state, oneShot ? { ...suspension, oneShot } : suspension),
  };
}

/**
 * A stream shows what the suspended batch already settled — the calls that ran, and the
 * denied ones with their reason — so a watcher sees each call's true state while the run
 * waits. Nothing is committed: a resume commits the same results (a call that ran is not
 * run again).
 */
function surfaceSettled(state: RunState, entries: readonly BatchEntry[]): void {
  for (const entry of entries) {
    if (entry.kind !== "settled") continue;
    const { outcome } = entry;
    if (outcome.executed && !outcome.replayed) {
      state.emit({
        type: "tool-execution-start",
        step: state.step,
        toolCallId: outcome.toolCallId,
        toolName: outcome.toolName,
        args: outcome.args,
      });
    }
    state.emit({
      type: "tool-result",
      step: state.step,
      toolCallId: outcome.toolCallId,
      toolName: outcome.toolName,
      result: outcome.result,
      isError: outcome.isError,
    });
  }
}

/** Writes the suspended run (and its session guard). A resume that lost its claim writes nothing. */
export async function saveSuspension(
  runtime: LoopRuntime,
  state: RunState,
  draft: SuspensionDraft,
): Promise<void> {
  const claim = resumeContexts.get(state)?.claim;
  if (claim && (await claimLost(runtime.store, claim))) {
    runtime.log.warn(
      `run ${state.runId}: another process took over this resume; its suspension is not saved`,
    );
    return;
  }
  const record: SuspendedRunRecord = storable({
    version: 1,
    status: "suspended",
    token: nodeCrypto().randomUUID(),
    suspendedAt: Date.now(),
    ...draft,
    events: state.runner.events().slice(),
  });
  await runtime.store.set(runKey(state.runId), record);
  await runtime.store.set(sessionGuardKey(state.sessionId), state.runId);
}
