/**
 * `agent.resume(runId, decisions)`: continues a suspended run from the StateStore, in any
 * process. Order, so that a refused resume runs nothing and leaves the run
 * resumable:
 *
 *   1. load the record (not suspended / unknown → ApprovalError);
 *   2. check every decision — the id is pending in this run, a token's signature, run and
 *      binding match, an approval is not expired, the saved arguments still hash to the
 *      approval's binding, no decision contradicts an earlier one;
 *   3. claim the run (one resumer at a time; a dead one is taken over, see `claimRun`);
 *   4. drive the run from its pending step: settle the batch, commit, continue the loop.
 *      It ends (the record becomes a tombstone) or suspends again.
 */

import { ApprovalError } from "../errors/approval-error.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import { type Decision, planBatch, runPlan } from "../loop/batch/settle-batch.js";
import { drive, type ResumePoint, runSteps } from "../loop/drive.js";
import { endStep } from "../loop/end-step.js";
import { commitStep } from "../loop/finish-run.js";
import type { PendingApproval, RunResult } from "../loop/run-result.js";
import { ownSteps, type RunState } from "../loop/run-state.js";
import type { Surface } from "../loop/surface.js";
import type { LoopRuntime, RunEnd, RunOptions, StepRequestOutcome } from "../loop/types.js";
import { approvalFlow } from "./approval-flow.js";
import { checkDecisions } from "./check-decisions.js";
import { forgetOnce } from "./exactly-once.js";
import { bindResumeContext, listApprovals, suspendStep } from "./suspend-run.js";
import {
  type Claim,
  claimLost,
  claimRun,
  loadSuspendedRun,
  markFinished,
  onceKey,
  onceLedger,
  releaseClaim,
  type SuspendedRunRecord,
} from "./suspended-run.js";
import type { ApprovalDecision } from "./types.js";

/** The approvals a suspended run waits for (what its RunResult listed). */
export async function pendingApprovals(runtime: LoopRuntime, runId: string): Promise<PendingApproval[]> {
  const record = await loadSuspendedRun(runtime.store, runId);
  return listApprovals(runtime, runId, record.pending.entries);
}

function resumePoint(
  runtime: LoopRuntime,
  record: SuspendedRunRecord,
  decisions: ReadonlyMap<string, Decision>,
  claim: Claim,
): ResumePoint {
  const onceKeys = new Set(record.onceKeys);
  return {
    runId: record.runId,
    sessionId: record.sessionId,
    oneShot: record.oneShot === true,
    suspendedSpan: record.trace,
    restore(state) {
      bindResumeContext(state, { claim, onceKeys });
      state.messages = record.messages.slice();
      state.userMessageIndex = record.userMessageIndex;
      state.input = record.input;
      state.turn = record.turn;
      ownSteps(state).push(...record.steps);
      state.runner.restore(record.events);
      Object.assign(state.usage, record.usage);
    },
    async settle(state: RunState, surface: Surface): Promise<RunEnd> {
      const pending = record.pending;
      state.step = pending.index;
      state.stepScratch = new Scratchpad(state.runScratch);
      if (surface.streaming) surface.emit({ type: "step-start", step: pending.index });
      const requested: Extract<StepRequestOutcome, { kind: "turn" }> = {
        kind: "turn",
        turn: { ...pending.turn },
        // The request that produced this turn was recorded by the suspended process.
        request: {
          step: pending.index,
          attempt: pending.attempts,
          system: runtime.options.instructions,
          messages: [],
          tools: [],
          toolChoice: runtime.options.toolChoice ?? "auto",
        },
        attempts: pending.attempts,
        sent: [],
      };
      const text = pending.turn.text;
      const ledger = onceLedger(runtime.store, record.runId, onceKeys);
      const plan = await planBatch(ledger, pending.entries, decisions);
      const batch = await runPlan(runtime, state, plan, ledger);
      if (batch.kind === "terminate")
        return { outcome: "terminated", text, reason: batch.reason, hook: batch.hook };
      if (batch.kind === "suspend") return suspendStep(runtime, state, requested, batch.entries, text);
      commitStep(state, requested, batch.results);
      const toolCalls = pending.turn.toolCalls.map((call) => ({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        args: call.args,
      }));
      const ended = await endStep(state, surface, text, toolCalls);
      if (ended) return { ...ended, text };
      return runSteps(runtime, state, surface, pending.index + 1, text);
    },
  };
}

export async function resumeRun(
  runtime: LoopRuntime,
  runId: string,
  decisions: readonly ApprovalDecision[],
  options: Pick<RunOptions, "signal">,
  surface: Surface,
): Promise<RunResult> {
  const record = await loadSuspendedRun(runtime.store, runId);
  if (record.agentName !== runtime.name) {
    throw new ApprovalError({
      reason: "wrong_agent",
      runId,
      message: `run "${runId}" belongs to agent "${record.agentName}", not "${runtime.name}"; nothing was run`,
    });
  }
  // A sub-agent's run is governed by its caller's hooks and policies as well as its own,
  // and its caller went on when it suspended (its model was told, as a tool error): on its
  // own it would run without its caller's guards, for no one.
  if (record.agentPath.length > 1) {
    const callers = record.agentPath.slice(0, -1).map((name) => `"${name}"`);
    throw new ApprovalError({
      reason: "not_suspended",
      runId,
      message: `run "${runId}" is a run of sub-agent "${record.agentName}" under ${callers.join(" > ")}; it ended for its caller when it asked for approval, and it cannot go on without its caller's hooks and policies; nothing was run`,
    });
  }
  const checked = await checkDecisions(runtime, record, decisions, Date.now());
  const claim = await claimRun(runtime.store, record);
  let result: RunResult;
  try {
    const current = await loadSuspendedRun(runtime.store, runId);
    if (current.token !== record.token) {
      throw new ApprovalError({
        reason: "busy",
        runId,
        message: `run "${runId}" changed while this resume started (another resume ran); retry; nothing was run`,
      });
    }
    result = await drive(
      runtime,
      record.input,
      { sessionId: record.sessionId, ...(options.signal ? { signal: options.signal } : {}) },
      surface,
      approvalFlow,
      record.agentPath,
      [],
      resumePoint(runtime, record, checked, claim),
    );
  } catch (error) {
    await releaseClaim(runtime.store, claim);
    throw error;
  }
  if (result.outcome !== "suspended" && !(await claimLost(runtime.store, claim))) {
    await markFinished(runtime.store, record, result.outcome);
    // The transcript now holds every result: the exactly-once records have done their job.
    const keys = new Set(record.onceKeys);
    for (const entry of record.pending.entries) {
      if (entry.kind === "pending") keys.add(onceKey(runId, entry));
    }
    for (const key of keys) await forgetOnce(runtime.store, key);
  }
  return result;
}
