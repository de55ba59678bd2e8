/** A harness's hook event and hookwise's answer, kept as a run of the harness's session (`trace`, `history`, `replay`). */
import type { RunRecord } from "../agent/run-record.js";
import type { HarnessOutcome } from "../harnesses/decide-harness-event.js";
import type { HarnessEvent } from "../harnesses/types.js";
import { maskSecretsIn } from "../secrets/secret-registry.js";

/**
 * The event as a run of the harness's session: `hookwise trace` and `history` show it.
 * `mask` (default: the secrets registered in the process) masks it whole — the payload, the
 * call's input, reasons — as it is kept.
 */
export function harnessRunRecord(
  event: HarnessEvent,
  outcome: HarnessOutcome,
  runId: string,
  startedAt: number,
  mask: <T>(value: T) => T = maskSecretsIn,
): RunRecord {
  const { verdict, tool } = outcome;
  const denied = verdict.decision === "deny";
  const input =
    event.prompt ??
    `${event.name}${event.tool ? ` ${event.tool.name}` : ""}${event.detail ? ` (${event.detail})` : ""}`;
  const record: RunRecord = {
    format: 1,
    runId,
    sessionId: event.sessionId,
    agent: event.harness,
    input,
    startedAt,
    endedAt: Date.now(),
    outcome: denied ? "terminated" : "completed",
    text: verdict.decision === "none" ? "" : verdict.decision,
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    ...(verdict.hook !== undefined ? { hook: verdict.hook } : {}),
    attempts: [],
    steps: [],
    hooks: [],
    harness: { name: event.harness, event: event.name, payload: event.payload, decision: verdict.decision },
  };
  if (tool && event.tool) {
    const ran = !denied && event.kind !== "approval_request";
    record.steps.push({
      index: 0,
      text: "",
      finishReason: event.name,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      calls: [
        {
          toolCallId: event.tool.callId,
          toolName: tool.functionName,
          qualifiedName: tool.qualifiedName,
          args: tool.args,
          ...(tool.ranArgs !== undefined && ran ? { ranArgs: tool.ranArgs } : {}),
          executed: event.kind !== "tool_call" && event.kind !== "approval_request",
          ...(denied
            ? { result: verdict.reason ?? "denied", isError: true }
            : event.tool.response !== undefined
              ? { result: verdict.updatedOutput ?? event.tool.response }
              : {}),
          ...(verdict.decision === "ask" ? { pending: true } : {}),
          hooks: [...outcome.trace],
        },
      ],
      hooks: [],
    });
  } else record.hooks.push(...outcome.trace);
  return mask(record);
}
