/**
 * `SessionEnd` → `session_end` (observed; the matcher is the reason). hookwise's reasons are
 * given Claude Code's names where one fits (`closed`, the end of an interactive chat, is
 * `prompt_input_exit`), else `other`; `hookwise_reason` keeps hookwise's own. Claude Code's
 * default timeout here is 1.5 s.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import type { ClaudeEvent } from "./claude-event.js";

const REASONS: Readonly<Record<string, string>> = {
  closed: "prompt_input_exit",
  clear: "clear",
  logout: "logout",
};

function reasonOf(payload: EventPayload<"session_end">): string {
  return Object.hasOwn(REASONS, payload.reason) ? REASONS[payload.reason]! : "other";
}

export const sessionEnd: ClaudeEvent = {
  name: "SessionEnd",
  event: "session_end",
  kind: "inspect",
  scope: "self",
  timeout: 1.5,
  subject: (call) => [reasonOf(call.payload as EventPayload<"session_end">)],
  input(call) {
    const payload = call.payload as EventPayload<"session_end">;
    return { reason: reasonOf(payload), hookwise_reason: payload.reason };
  },
  verdict: () => ({}),
};
