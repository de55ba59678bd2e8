/**
 * An `ask` decision: `approval_request` hooks may answer it (bots, tests, rules); otherwise
 * the agent's approval channel decides. With no channel at all the call is denied with a
 * reason saying so (suspension and resume come with the approvals work, DESIGN §7b).
 */
import { randomUUID } from "node:crypto";
import type { AgentRuntime } from "./agent-runtime.js";
import { contextFor, payload, type RunState } from "./run-state.js";
import { errorMessage } from "./tool-output.js";

export interface ApprovalCall {
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  args: unknown;
  reason?: string;
}

export async function requestApproval(
  runtime: AgentRuntime,
  state: RunState,
  call: ApprovalCall,
): Promise<{ approved: boolean; reason: string }> {
  const approvalId = randomUUID();
  const event = payload(state, "approval_request", {
    approvalId,
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
  const handler = runtime.options.approvals?.handler;
  if (!handler) {
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
