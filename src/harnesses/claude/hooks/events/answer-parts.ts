/** The parts of an answer most events read the same way (hooks reference, "JSON output"). */
import type { ModelMessage } from "../../../../events/payloads.js";
import type { ClaudeAnswer } from "../handlers/read-claude-answer.js";

/** `continue: false`: stop everything; `stopReason` is for the user. */
export function stopOf(answer: ClaudeAnswer): string | undefined {
  if (answer.output?.continue !== false) return undefined;
  return answer.output.stopReason ?? "a hook answered continue: false";
}

/** Exit 2 (stderr is the reason) or `decision: "block"` (`reason`). */
export function blockOf(answer: ClaudeAnswer): { reason: string | undefined } | undefined {
  if (answer.blocked) return { reason: answer.stderr || undefined };
  if (answer.output?.decision === "block") return { reason: answer.output.reason };
  return undefined;
}

/** `hookSpecificOutput.additionalContext`, or (where `text` is allowed) plain stdout. */
export function contextOf(answer: ClaudeAnswer, text = false): string | undefined {
  const context = answer.output?.hookSpecificOutput?.additionalContext;
  if (context) return context;
  return text && answer.text ? answer.text : undefined;
}

/** Context persisted in the transcript (`flow.inject`), as a user message. */
export function contextMessage(text: string): ModelMessage {
  return { role: "user", content: text };
}
