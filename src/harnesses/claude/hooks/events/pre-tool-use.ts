/**
 * `PreToolUse` → `tool_call`, on the agent's tool calls and its sub-agents'. Its answer has
 * two parts that hookwise runs in its own order: `updatedInput` is a rewrite (a transform,
 * chained in file order with the other rewrites, mapped back from the alias's shape and
 * checked against the tool's schema); the permission — exit 2, `permissionDecision`
 * allow / deny / ask / defer, the older `decision: approve | block` — is returned by a decide
 * hook after every rewrite, so it is always about the arguments that will run (deny > ask >
 * allow across hooks). `defer` is an `ask`: the approval channel, or the run suspends.
 * `continue: false` ends the run.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent, ClaudeVerdict } from "./claude-event.js";

export const preToolUse: ClaudeEvent = {
  name: "PreToolUse",
  event: "tool_call",
  kind: "transform",
  permission: true,
  scope: "all",
  scopable: true,
  subject: (call) => call.tool!.names,
  input: (call) => ({
    tool_name: call.tool!.name,
    tool_input: call.tool!.input,
    tool_use_id: (call.payload as EventPayload<"tool_call">).toolCallId,
  }),
  verdict(answer, call) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { flow: flow.terminate(stop) };
    const verdict: ClaudeVerdict = {};
    const context = contextOf(answer);
    if (context) verdict.context = [context];
    const block = blockOf(answer);
    if (block) {
      verdict.permission = flow.deny(block.reason ?? "blocked by a PreToolUse hook");
      return verdict;
    }
    const specific = answer.output?.hookSpecificOutput;
    const reason = specific?.permissionDecisionReason ?? answer.output?.reason;
    const decision =
      specific?.permissionDecision ?? (answer.output?.decision === "approve" ? "allow" : undefined);
    if (decision === "deny") {
      verdict.permission = flow.deny(reason ?? "denied by a PreToolUse hook");
      return verdict;
    }
    if (decision === "ask" || decision === "defer") verdict.permission = flow.ask(reason ? { reason } : {});
    else if (decision === "allow") verdict.permission = flow.allow();
    if (specific?.updatedInput !== undefined) {
      try {
        verdict.flow = flow.rewriteArgs(call.tool!.fromInput(specific.updatedInput));
      } catch (error) {
        // A rewrite the tool cannot take never runs, whatever the failure mode: the call does not either.
        verdict.permission = flow.deny(`updatedInput cannot be used: ${(error as Error).message}`);
        delete verdict.flow;
      }
    }
    return verdict;
  },
};
