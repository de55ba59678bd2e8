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
import { type PackedAnswer, unpackAttempt } from "./run-record-pack.js";

/** What the model answered to one attempt, or how the attempt failed. */
export interface RecordedAttempt {
  step: number;
  attempt: number;
  /** The model the attempt went to, `provider:modelId` (a fallback shows here). */
  model?: string;
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
  /** The model's reasoning, when it gave any. */
  reasoning?: string;
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
  /** When the run was continued after an approval (`resume`), once per resume. */
  resumedAt?: number[];
  /**
   * A coding-agent harness's hook event answered by `hookwise hook` (each is recorded as a
   * run of the harness's session): the harness, its event's name, the event as it came, and
   * the answer given.
   */
  harness?: { name: string; event: string; payload: unknown; decision: string };
  /**
   * A tool call an MCP client made through `hookwise mcp` (each is recorded as a run of the
   * client's session): the client as it named itself (`name version`), when it did.
   */
  gateway?: { client?: string };
}

/**
 * What a recording run kept besides its result: where its steps and calls began, its attempts.
 * Kept flat, with no object per step, call or answer.
 */
export interface RunMarks {
  /**
   * Where the run's steps and tool calls began in its trace, in the order they began: a
   * step as its position (the trace's length then, counted over the whole trace, a resumed
   * run's restored part included), a tool call that reached its `tool_call` hooks as its
   * position then its id.
   */
  points: (number | string)[];
  /**
   * Every attempt in order: an answer of `model` as its stored list (`PackedAnswer`),
   * anything else (a failure, an answer of another model or of none) as a `RecordedAttempt`.
   */
  attempts: (RecordedAttempt | PackedAnswer)[];
  /** The model of the first answer that named one. */
  model?: string;
}

/** Marks of a run no step of which began. */
export function noMarks(): RunMarks {
  return { points: [], attempts: [] };
}

/** The marks' attempts as records (a list made an attempt again, with the marks' model). */
export function markedAttempts(marks: RunMarks): RecordedAttempt[] {
  const attempts: RecordedAttempt[] = [];
  for (const attempt of marks.attempts) {
    if (!Array.isArray(attempt)) {
      attempts.push(attempt);
      continue;
    }
    const { step, attempt: number, answer } = unpackAttempt(attempt);
    attempts.push(
      marks.model === undefined
        ? { step, attempt: number, answer }
        : { step, attempt: number, model: marks.model, answer },
    );
  }
  return attempts;
}

export const STEP_MARK = "hookwise:record-step";
export const CALL_MARK = "hookwise:record-call";
export const ATTEMPT_MARK = "hookwise:record-attempt";

export function isMark(hook: string): boolean {
  return hook === STEP_MARK || hook === CALL_MARK || hook === ATTEMPT_MARK;
}

/** Where a record's hook decisions go while its trace is read. */
interface Placing {
  steps: RecordedStep[];
  runHooks: RecordedDecision[];
  callHooks: Map<string, RecordedDecision[]>;
  step: RecordedStep | undefined;
  call: RecordedDecision[] | undefined;
}

function newStep(index: number): RecordedStep {
  return {
    index,
    text: "",
    finishReason: "",
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    calls: [],
    hooks: [],
  };
}

/**
 * Places trace entries: a step point opens a step, a call point a tool call's hooks.
 * `offset`: where `entries` start in the run's trace (the points count from its start).
 * Returns the entries that are not marks (an attempt mark, or a step or call mark a run
 * recorded by an earlier version left in its trace).
 */
function place(
  entries: readonly HookTraceEntry[],
  marks: RunMarks,
  into: Placing,
  offset = 0,
): HookTraceEntry[] {
  const kept: HookTraceEntry[] = [];
  const points = marks.points;
  let next = 0;
  /** How many places the point at `next` takes: a call's is followed by its id. */
  const width = () => (typeof points[next + 1] === "string" ? 2 : 1);
  // Points before `offset` (a resumed run's restored part) were placed with the earlier record.
  while (next < points.length && (points[next] as number) < offset) next += width();
  let ended = false;
  // The hooks of each call opened in the current step, and the previous step's: an
  // inspection never holds the run up, so one of the previous step's tools may finish
  // after the next step began.
  let stepCalls: RecordedDecision[][] = into.call ? [into.call] : [];
  let previous: { step: RecordedStep; calls: RecordedDecision[][] } | undefined;
  const openStep = () => {
    if (into.step) previous = { step: into.step, calls: stepCalls };
    stepCalls = [];
    into.step = newStep(into.steps.length);
    into.steps.push(into.step);
    into.call = undefined;
  };
  const openCall = (id: string) => {
    into.call = [];
    stepCalls.push(into.call);
    into.callHooks.set(id, into.call);
  };
  const openPoints = (position: number) => {
    while (next < points.length && (points[next] as number) <= position) {
      const call = points[next + 1];
      if (typeof call === "string") openCall(call);
      else openStep();
      next += width();
    }
  };
  for (let index = 0; index < entries.length; index++) {
    openPoints(offset + index);
    const entry = entries[index]!;
    if (isMark(entry.hook)) continue;
    kept.push(entry);
    // run_end fires after the last step: its decisions belong to the run.
    if (entry.event === "run_end" || entry.event === "session_end") ended = true;
    if (ended || !into.step) into.runHooks.push(entry);
    else if (into.call && isCallEvent(entry.event)) into.call.push(entry);
    else if (isCallEvent(entry.event) && stepCalls.length === 0 && previous) {
      // A late inspection of the previous step's tools: its call when it had one, else its step.
      if (previous.calls.length === 1) previous.calls[0]!.push(entry);
      else previous.step.hooks.push(entry);
    } else {
      into.call = undefined;
      into.step.hooks.push(entry);
    }
  }
  openPoints(Number.MAX_SAFE_INTEGER);
  return kept;
}

/** What `fillStep` reads of a run, indexed once per record (not once per step). */
interface StepSources {
  /** The result's steps by index (the first of an index), in a list indexed by step. */
  done: (RunResult["steps"][number] | undefined)[];
  /** Each step's accepted (last) answer, by step. */
  answers: (NonNullable<RecordedAttempt["answer"]> | undefined)[];
  /** The calls left waiting for an approval (undefined: none). */
  pending: Set<string> | undefined;
}

function stepSources(result: RunResult, attempts: readonly RecordedAttempt[]): StepSources {
  // Lists indexed by step, not maps: a run's steps are numbered from 0.
  const done: StepSources["done"] = [];
  for (const step of result.steps) if (done[step.index] === undefined) done[step.index] = step;
  const answers: StepSources["answers"] = [];
  for (const attempt of attempts) if (attempt.answer) answers[attempt.step] = attempt.answer;
  const approvals = result.approvals;
  const pending =
    approvals && approvals.length > 0 ? new Set(approvals.map((approval) => approval.toolCallId)) : undefined;
  return { done, answers, pending };
}

/** The item of `list` with this `toolCallId`: looked for at `index` first (calls keep their order). */
function byCallId<T extends { toolCallId: string }>(
  list: readonly T[],
  id: string,
  index: number,
): T | undefined {
  const at = list[index];
  if (at !== undefined && at.toolCallId === id) return at;
  for (const item of list) if (item.toolCallId === id) return item;
  return undefined;
}

/** Fills a placed step from the run's result (its text, usage, tool results) and the attempts. */
function fillStep(
  recorded: RecordedStep,
  sources: StepSources,
  callHooks: ReadonlyMap<string, RecordedDecision[]>,
): void {
  const done = sources.done[recorded.index];
  if (done) {
    recorded.text = done.text;
    if (done.reasoning) recorded.reasoning = done.reasoning;
    recorded.finishReason = done.finishReason;
    recorded.usage = done.usage;
  }
  // The calls the model made in the step's accepted (last) answer.
  const answer = sources.answers[recorded.index];
  if (!done && answer) {
    recorded.text = answer.text;
    recorded.finishReason = answer.finishReason;
  }
  // A step holds a few calls: found by a scan, not through maps made per step.
  const results = done?.toolResults ?? [];
  const before = recorded.calls;
  const made = answer?.toolCalls ?? [];
  recorded.calls = new Array(made.length);
  for (let index = 0; index < made.length; index++) {
    const call = made[index]!;
    const ran = byCallId(results, call.id, index);
    const earlier = before.length === 0 ? undefined : byCallId(before, call.id, index);
    const placed = callHooks.size === 0 ? undefined : callHooks.get(call.id);
    const recordedCall: RecordedCall = {
      toolCallId: call.id,
      toolName: call.name,
      qualifiedName: ran?.qualifiedName ?? earlier?.qualifiedName ?? call.name,
      args: call.args,
      executed: ran?.executed ?? false,
      hooks: earlier ? [...earlier.hooks, ...(placed ?? [])] : (placed ?? []),
    };
    if (ran) {
      if (ran.executed) recordedCall.ranArgs = ran.args;
      recordedCall.result = ran.result;
      recordedCall.isError = ran.isError;
    }
    if (sources.pending?.has(call.id)) recordedCall.pending = true;
    recorded.calls[index] = recordedCall;
  }
}

/**
 * Names the model each attempt went to, from the run's requests (the last request of its
 * step and attempt). Both lists are in the order the attempts were made: each attempt's
 * request is looked for after the previous one's first, and the lists are scanned only when
 * it is not there.
 */
function withModels(attempts: RecordedAttempt[], result: RunResult): RecordedAttempt[] {
  const requests = result.requests;
  const matches = (index: number, attempt: RecordedAttempt) =>
    requests[index]!.step === attempt.step && requests[index]!.attempt === attempt.attempt;
  let next = 0;
  for (const attempt of attempts) {
    if (attempt.model !== undefined) continue;
    let found = -1;
    if (
      next < requests.length &&
      matches(next, attempt) &&
      !(next + 1 < requests.length && matches(next + 1, attempt))
    )
      found = next;
    else
      for (let index = requests.length - 1; index >= 0 && found < 0; index--)
        if (matches(index, attempt)) found = index;
    if (found < 0) continue;
    next = found + 1;
    const model = requests[found]!.model;
    if (model !== undefined) attempt.model = model;
  }
  return attempts;
}

/** Removes the marks from a result's trace, in place: the caller's trace is as without recording. */
function dropMarks(result: RunResult, kept: readonly HookTraceEntry[]): void {
  if (kept.length === result.events.length) return;
  result.events.length = 0;
  result.events.push(...kept);
}

/**
 * Builds the record of a finished run from its result and where its steps and calls began
 * in its trace. Attempt marks are removed from `result.events` (in place), so the
 * caller's trace is as without recording.
 */
export function buildRunRecord(
  result: RunResult,
  marks: RunMarks,
  meta: { agent: string; input: string; startedAt: number; endedAt: number },
): RunRecord {
  const into: Placing = { steps: [], runHooks: [], callHooks: new Map(), step: undefined, call: undefined };
  dropMarks(result, place(result.events, marks, into));
  const attempts = withModels(markedAttempts(marks), result);
  const sources = stepSources(result, attempts);
  for (const recorded of into.steps) fillStep(recorded, sources, into.callHooks);
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
    attempts,
    steps: into.steps,
    hooks: into.runHooks,
  };
  if (result.reason !== undefined) record.reason = result.reason;
  if (result.hook !== undefined) record.hook = result.hook;
  return record;
}

/**
 * The record of a run continued after an approval: the record it suspended with, carried
 * on. A resumed run's trace begins with the entries it suspended with (`restored` of them,
 * already in `earlier`); the rest are placed after them — those that come before the
 * resumed part's first new step belong to the step that waited (to its call when one call
 * waited, else to the step). The waiting calls get their results; new attempts and steps
 * are added; the outcome, text and end are the resumed run's. Marks leave `result.events`.
 */
export function buildResumedRecord(
  earlier: RunRecord,
  result: RunResult,
  marks: RunMarks,
  meta: { restored: number; resumedAt: number; endedAt: number },
): RunRecord {
  const steps = structuredClone(earlier.steps);
  const waiting = steps.at(-1);
  const pendingCalls = waiting?.calls.filter((call) => call.pending) ?? [];
  const callHooks = new Map<string, RecordedDecision[]>();
  const firstCall = pendingCalls.length === 1 ? [] : undefined;
  if (firstCall && pendingCalls[0]) callHooks.set(pendingCalls[0].toolCallId, firstCall);
  const into: Placing = {
    steps,
    runHooks: [],
    callHooks,
    step: waiting,
    call: firstCall,
  };
  const restored = result.events.slice(0, meta.restored).filter((entry) => !isMark(entry.hook));
  const kept = place(result.events.slice(meta.restored), marks, into, meta.restored);
  dropMarks(result, [...restored, ...kept]);
  const attempts = [...earlier.attempts, ...withModels(markedAttempts(marks), result)];
  const sources = stepSources(result, attempts);
  for (const recorded of steps)
    if (recorded === waiting || recorded.index > (waiting?.index ?? -1))
      fillStep(recorded, sources, into.callHooks);
  const record: RunRecord = {
    ...earlier,
    endedAt: meta.endedAt,
    outcome: result.outcome,
    text: result.text,
    attempts,
    steps,
    hooks: [...earlier.hooks, ...into.runHooks],
    resumedAt: [...(earlier.resumedAt ?? []), meta.resumedAt],
  };
  delete record.reason;
  delete record.hook;
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
