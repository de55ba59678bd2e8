/**
 * The record of one tool call made in a tool-call session (`openToolCallSession`): a run
 * of one step holding one call, so `hookwise trace --session` and `hookwise replay` read it
 * as any recorded run. Its hook decisions are the call's; what is stored is masked of the
 * configured secrets (the caller's own result is left as it is).
 */
import type { HookTraceEntry } from "../hooks/trace.js";
import type { CallOutcome } from "../loop/batch/types.js";
import type { ModelToolCall } from "../models/language-model.js";
import { maskSecretsIn as maskDeep } from "../secrets/secret-registry.js";
import type { RecordedCall, RunRecord } from "./run-record.js";

export interface CallRecordInput {
  runId: string;
  sessionId: string;
  agent: string;
  startedAt: number;
  call: ModelToolCall;
  outcome: CallOutcome;
  result: { result: unknown; isError: boolean; executed: boolean };
  trace: readonly HookTraceEntry[];
  /** Marks the record as a call through the MCP gateway (`RunRecord.gateway`). */
  gateway?: RunRecord["gateway"];
}

/** A plain, stored copy: JSON-safe and masked. */
function stored<T>(value: T): T {
  if (value === undefined) return value;
  let copy: T;
  try {
    copy = JSON.parse(JSON.stringify(value)) as T;
  } catch {
    copy = String(value) as T;
  }
  return maskDeep(copy);
}

export function callRecord(input: CallRecordInput): RunRecord {
  const { call, outcome, result } = input;
  const qualifiedName = "qualifiedName" in outcome ? outcome.qualifiedName : call.toolName;
  const recorded: RecordedCall = {
    toolCallId: call.toolCallId,
    toolName: "toolName" in outcome ? outcome.toolName : call.toolName,
    qualifiedName,
    args: stored(call.args),
    executed: result.executed,
    result: stored(result.result),
    isError: result.isError,
    hooks: stored(input.trace.slice()),
  };
  if (result.executed && "args" in outcome) recorded.ranArgs = stored(outcome.args);
  const record: RunRecord = {
    format: 1,
    runId: input.runId,
    sessionId: input.sessionId,
    agent: input.agent,
    input: `tools/call ${call.toolName}`,
    startedAt: input.startedAt,
    endedAt: Date.now(),
    outcome: outcome.kind === "terminate" ? "terminated" : "completed",
    text: "",
    attempts: [],
    steps: [
      {
        index: 0,
        text: "",
        finishReason: "tool-calls",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        calls: [recorded],
        hooks: [],
      },
    ],
    hooks: [],
  };
  if (input.gateway !== undefined) record.gateway = { ...input.gateway };
  if (outcome.kind === "terminate") {
    record.reason = outcome.reason;
    record.hook = outcome.hook;
  }
  return record;
}
