/**
 * An `ask` decision: `approval_request` hooks may answer it (bots, tests, rules); otherwise
 * the agent's approval channel decides — its handler, or, with no live channel, suspension:
 * the answer is `pending` and the batch suspends the run. An agent that opted
 * out of suspension denies the call with a reason saying so.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import type { ApprovalCall, ApprovalOutcome } from "../loop/batch/types.js";
import { contextFor, payload, type RunState } from "../loop/run-state.js";
import type { LoopRuntime } from "../loop/types.js";
import { errorMessage } from "../tools/tool-output.js";
import { approvalSettings } from "./approval-settings.js";

export async function requestApproval(
  runtime: LoopRuntime,
  state: RunState,
  call: ApprovalCall,
): Promise<ApprovalOutcome> {
  const approvalId = nodeCrypto().randomUUID();
  const event = payload(state, "approval_request", {
    approvalId,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    qualifiedName: call.qualifiedName,
    args: call.args,
    ...(call.reason ? { reason: call.reason } : {}),
  });
  const context = contextFor(state);
  const answered = await state.runner.blocking(event, context);
  state.runner.inspect(event, context);
  if (answered.failure) return { approved: false, reason: answered.failure.message };
  const flow = answered.terminal?.flow;
  if (flow?.type === "allow")
    return { approved: true, reason: `approved by hook "${answered.terminal!.hook}"` };
  if (flow?.type === "deny") return { approved: false, reason: flow.reason };
  if (call.handler) {
    try {
      const approved = await call.handler({
        toolName: call.toolName,
        qualifiedName: call.qualifiedName,
        toolCallId: call.toolCallId,
        args: call.args,
      });
      return approved === true
        ? { approved: true, reason: "approved by the policy's handler" }
        : { approved: false, reason: `the user declined "${call.qualifiedName}"` };
    } catch (error) {
      return {
        approved: false,
        reason: `the policy's approval handler failed: ${errorMessage(error)} (failed closed)`,
      };
    }
  }
  const { handler, suspend } = approvalSettings(runtime);
  if (!handler) {
    if (suspend) {
      return {
        approved: false,
        reason: `awaiting approval (${call.reason ?? "ask"})`,
        pending: { id: approvalId, ...(call.reason ? { reason: call.reason } : {}) },
      };
    }
    return {
      approved: false,
      reason: `approval required (${call.reason ?? "ask"}) but no approval channel is configured`,
    };
  }
  try {
    const answer = await handler({ approvalId, ...call });
    if (typeof answer === "boolean")
      return { approved: answer, reason: answer ? "approved" : "declined by the approver" };
    if (typeof answer === "object" && answer !== null && typeof answer.approved === "boolean") {
      return {
        approved: answer.approved,
        reason: answer.reason ?? (answer.approved ? "approved" : "declined by the approver"),
      };
    }
    return { approved: false, reason: "the approval handler gave no valid answer (failed closed)" };
  } catch (error) {
    return { approved: false, reason: `the approval handler failed: ${errorMessage(error)} (failed closed)` };
  }
}
