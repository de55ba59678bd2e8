/**
 * A recorded run: what happened, kept so it can be shown again (`hookwise trace`), exported
 * (`hookwise history --jsonl`) and replayed through another config (`hookwise replay`)
 * without calling the model or the tools. It holds the model's answer to every attempt,
 * every tool call with its arguments (as the model sent them and as they ran) and its
 * result as the model saw it (after `tool_result` hooks, so a redaction holds), and every
 * hook decision, placed at the step and the call it was made for.
 */
import type { HookTraceEntry } from "../hooks/trace.js";
import type { RunOutcome, RunResult, Usage } from "../loop/run-result.js";

/** What the model answered to one attempt, or how the attempt failed. */
export interface RecordedAttempt {
  step: number;
  attempt: number;
  answer?: {
    text: string;
    toolCalls: { id: string; name: string; args: unknown }[];
    finishReason: string;
    usage: { inputTokens?: number; outputTokens?: number };
  };
  error?: { type: string; message: string; status?: number; retryable: boolean };
}

/** A hook decision: a trace entry (`effect`: `deny`, `rewriteArgs`, `inject`, `continue`, …). */
export type RecordedDecision = HookTraceEntry;

export interface RecordedCall {
  toolCallId: string;
  toolName: string;
  /** `toolset.tool` (the function name when the call never reached a tool). */
  qualifiedName: string;
  /** The arguments as the model sent them. */
  args: unknown;
  /** The arguments it ran with (after rewrites), when it ran. */
  ranArgs?: unknown;
  /** Whether the tool's body ran. */
  executed: boolean;
  /** The result the model saw (a denial's message for a denied call). Absent: no result was committed. */
  result?: unknown;
  isError?: boolean;
  /** Left waiting for an approval (the run suspended). */
  pending?: boolean;
  /** The hooks that fired for this call, in firing order. */
  hooks: RecordedDecision[];
}

export interface RecordedStep {
  index: number;
  text: string;
  finishReason: string;
  usage: Usage;
  calls: RecordedCall[];
  /** The hooks that fired for the step itself (model request, answer, step end), in order. */
  hooks: RecordedDecision[];
}

export interface RunRecord {
  format: 1;
  runId: string;
  sessionId: string;
  agent: string;
  input: string;
  startedAt: number;
  endedAt: number;
  outcome: RunOutcome;
  text: string;
  reason?: string;
  hook?: string;
  /** Every provider call in order: what a replay answers with. */
  attempts: RecordedAttempt[];
  steps: RecordedStep[];
  /** Hooks that fired outside any step: at the run's start and end. */
  hooks: RecordedDecision[];
}

/** Markers a recording run fires; read back from the trace, then removed from it. */
export interface RunMarks {
  /** Each tool call that reached its `tool_call` hooks, in order. */
  calls: string[];
  attempts: RecordedAttempt[];
}

export const STEP_MARK = "hookwise:record-step";
export const CALL_MARK = "hookwise:record-call";
export const ATTEMPT_MARK = "hookwise:record-attempt";

export function isMark(hook: string): boolean {
  return hook === STEP_MARK || hook === CALL_MARK || hook === ATTEMPT_MARK;
}

function parseArgs(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  if (raw === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The tool calls of a model answer, arguments parsed. */
export function answerCalls(calls: readonly { toolCallId: string; toolName: string; args: unknown }[]) {
  return calls.map((call) => ({ id: call.toolCallId, name: call.toolName, args: parseArgs(call.args) }));
}

/**
 * Builds the record of a finished run from its result and the marks its run left in the
 * trace: a step mark opens each step, a call mark each tool call's hooks. The marks are
 * removed from `result.events` (in place), so the caller's trace is as without recording.
 */
export function buildRunRecord(
  result: RunResult,
  marks: RunMarks,
  meta: { agent: string; input: string; startedAt: number; endedAt: number },
): RunRecord {
  const steps: RecordedStep[] = [];
  const runHooks: RecordedDecision[] = [];
  const callHooks = new Map<string, RecordedDecision[]>();
  let step: RecordedStep | undefined;
  let call: RecordedDecision[] | undefined;
  let callIndex = 0;
  let ended = false;
  const kept: typeof result.events = [];
  for (const entry of result.events) {
    if (entry.hook === STEP_MARK) {
      step = {
        index: steps.length,
        text: "",
        finishReason: "",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        calls: [],
        hooks: [],
      };
      steps.push(step);
      call = undefined;
      continue;
    }
    if (entry.hook === CALL_MARK) {
      const id = marks.calls[callIndex++];
      call = [];
      if (id !== undefined) callHooks.set(id, call);
      continue;
    }
    if (entry.hook === ATTEMPT_MARK) continue;
    kept.push(entry);
    // run_end fires after the last step: its decisions belong to the run.
    if (entry.event === "run_end" || entry.event === "session_end") ended = true;
    if (ended || !step) runHooks.push(entry);
    else if (call && isCallEvent(entry.event)) call.push(entry);
    else {
      call = undefined;
      step.hooks.push(entry);
    }
  }
  result.events.length = 0;
  result.events.push(...kept);

  const byStep = new Map(result.steps.map((record) => [record.index, record]));
  const pending = new Set((result.approvals ?? []).map((approval) => approval.toolCallId));
  for (const recorded of steps) {
    const done = byStep.get(recorded.index);
    if (done) {
      recorded.text = done.text;
      recorded.finishReason = done.finishReason;
      recorded.usage = done.usage;
    }
    // The calls the model made in the step's accepted (last) answer.
    const answer = marks.attempts
      .filter((attempt) => attempt.step === recorded.index && attempt.answer)
      .at(-1)?.answer;
    if (!done && answer) {
      recorded.text = answer.text;
      recorded.finishReason = answer.finishReason;
    }
    const results = new Map((done?.toolResults ?? []).map((item) => [item.toolCallId, item]));
    for (const made of answer?.toolCalls ?? []) {
      const ran = results.get(made.id);
      const recordedCall: RecordedCall = {
        toolCallId: made.id,
        toolName: made.name,
        qualifiedName: ran?.qualifiedName ?? made.name,
        args: made.args,
        executed: ran?.executed ?? false,
        hooks: callHooks.get(made.id) ?? [],
      };
      if (ran) {
        if (ran.executed) recordedCall.ranArgs = ran.args;
        recordedCall.result = ran.result;
        recordedCall.isError = ran.isError;
      }
      if (pending.has(made.id)) recordedCall.pending = true;
      recorded.calls.push(recordedCall);
    }
  }

  const record: RunRecord = {
    format: 1,
    runId: result.runId,
    sessionId: result.sessionId,
    agent: meta.agent,
    input: meta.input,
    startedAt: meta.startedAt,
    endedAt: meta.endedAt,
    outcome: result.outcome,
    text: result.text,
    attempts: marks.attempts,
    steps,
    hooks: runHooks,
  };
  if (result.reason !== undefined) record.reason = result.reason;
  if (result.hook !== undefined) record.hook = result.hook;
  return record;
}

function isCallEvent(event: string): boolean {
  return (
    event === "tool_call" ||
    event === "tool_result" ||
    event === "tool_error" ||
    event === "approval_request" ||
    event === "agent_spawn" ||
    event === "agent_complete"
  );
}
