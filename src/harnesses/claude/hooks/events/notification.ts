/**
 * `Notification`: fired when hookwise's `notify` action publishes a notification
 * (`notification_type: "notify"`, with its title and message), and when a call waits for
 * approval (`approval_request`, `notification_type: "permission_prompt"`). Observed only;
 * the matcher is the notification type.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import type { ClaudeEvent } from "./claude-event.js";

function approvalMessage(payload: EventPayload<"approval_request">, name: string): string {
  return `hookwise needs your approval to use ${name}${payload.reason ? `: ${payload.reason}` : ""}`;
}

export const notification: ClaudeEvent = {
  name: "Notification",
  event: "approval_request",
  kind: "inspect",
  scope: "all",
  subject: () => ["permission_prompt"],
  input: (call) => ({
    message: approvalMessage(call.payload as EventPayload<"approval_request">, call.tool!.name),
    title: "Approval needed",
    notification_type: "permission_prompt",
  }),
  verdict: () => ({}),
};
