/**
 * `PermissionRequest` → `approval_request`: a call waits for a human's approval (an `ask`
 * from a hook or a policy). `hookSpecificOutput.decision.behavior` allow / deny answers it in
 * the human's place (`message` is the denial's reason); exit 2 denies. An `updatedInput` is
 * not taken: an approval is bound to the exact arguments it was asked for.
 */
import { flow } from "../../../../hooks/flow.js";
import { blockOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const permissionRequest: ClaudeEvent = {
  name: "PermissionRequest",
  event: "approval_request",
  kind: "transform",
  scope: "all",
  scopable: true,
  subject: (call) => call.tool!.names,
  input: (call) => ({ tool_name: call.tool!.name, tool_input: call.tool!.input, permission_suggestions: [] }),
  verdict(answer) {
    const block = blockOf(answer);
    if (block) return { flow: flow.deny(block.reason ?? "denied by a PermissionRequest hook") };
    const decision = answer.output?.hookSpecificOutput?.decision;
    if (!decision) return {};
    const notice = decision.updatedInput
      ? "updatedInput is not taken on PermissionRequest: an approval is bound to the call's arguments"
      : undefined;
    if (decision.behavior === "allow") return { flow: flow.allow(), notice };
    return { flow: flow.deny(decision.message ?? "denied by a PermissionRequest hook"), notice };
  },
};
