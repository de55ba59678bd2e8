/**
 * How a run record is stored: format 2, the record without what it says twice. A record
 * holds each step's accepted answer in its attempts, and each tool call again in its step
 * (the call the model made, the arguments it ran with, its result). Stored, a step keeps
 * only what its accepted answer does not say: a call's name and arguments, a step's text
 * and finish reason, the model of every attempt when they went to one model, arguments it
 * ran with equal to those the model sent, and empty lists of hook decisions are left out.
 * Read back, `unpackRunRecord` puts them back: the record is the one that was packed.
 *
 * Records stored before this format (format 1: the whole record) are read as they are.
 */
import type {
  RecordedAttempt,
  RecordedCall,
  RecordedDecision,
  RecordedStep,
  RunRecord,
} from "./run-record.js";

type Answer = NonNullable<RecordedAttempt["answer"]>;
type AnswerCall = Answer["toolCalls"][number];

/** A tool call as stored: what the step's accepted answer says of it is left out. */
interface PackedCall {
  toolCallId: string;
  /** Absent: the answer's call of this id names it. */
  toolName?: string;
  /** Absent: `toolName`. */
  qualifiedName?: string;
  /** Absent: the answer's call of this id holds them. */
  args?: unknown;
  /** Absent while it `executed`: the arguments it was sent (`args`). */
  ranArgs?: unknown;
  executed: boolean;
  result?: unknown;
  /** Absent while it `executed`: false. */
  isError?: boolean;
  pending?: boolean;
  /** Absent: none. */
  hooks?: RecordedDecision[];
}

interface PackedStep extends Omit<RecordedStep, "text" | "finishReason" | "calls" | "hooks"> {
  /** Absent: the accepted answer's. */
  text?: string;
  /** Absent: the accepted answer's. */
  finishReason?: string;
  calls: PackedCall[];
  /** Absent: none. */
  hooks?: RecordedDecision[];
}

export interface PackedRunRecord extends Omit<RunRecord, "format" | "steps" | "hooks"> {
  format: 2;
  /** The model of every attempt that names none. */
  model?: string;
  steps: PackedStep[];
  /** Absent: none. */
  hooks?: RecordedDecision[];
}

/** Whether two values a record holds are the same JSON (plain objects, arrays, primitives). */
function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth > 50) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const prototypeA = Object.getPrototypeOf(a);
  if ((prototypeA !== Object.prototype && prototypeA !== null) || Object.getPrototypeOf(b) !== prototypeA)
    return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    const valueA = (a as Record<string, unknown>)[key];
    const valueB = (b as Record<string, unknown>)[key];
    // JSON leaves out an undefined property: kept apart here, the two never compare equal.
    if (valueA === undefined || valueB === undefined || !Object.hasOwn(b, key)) return false;
    if (!sameJson(valueA, valueB, depth + 1)) return false;
  }
  return true;
}

/** Each step's accepted (last) answer, by step index. */
function acceptedAnswers(attempts: readonly RecordedAttempt[]): Map<number, Answer> {
  const answers = new Map<number, Answer>();
  for (const attempt of attempts) if (attempt.answer) answers.set(attempt.step, attempt.answer);
  return answers;
}

function findCall(answer: Answer | undefined, id: string): AnswerCall | undefined {
  if (!answer) return undefined;
  for (const call of answer.toolCalls) if (call.id === id) return call;
  return undefined;
}

function packCall(call: RecordedCall, made: AnswerCall | undefined): PackedCall {
  const packed: PackedCall = { toolCallId: call.toolCallId, executed: call.executed };
  if (made?.name !== call.toolName) packed.toolName = call.toolName;
  if (call.qualifiedName !== call.toolName) packed.qualifiedName = call.qualifiedName;
  if (made === undefined || !sameJson(made.args, call.args)) packed.args = call.args;
  if (call.executed ? !sameJson(call.ranArgs, call.args) : "ranArgs" in call) packed.ranArgs = call.ranArgs;
  if ("result" in call) packed.result = call.result;
  if (call.isError !== undefined && !(call.executed && call.isError === false)) packed.isError = call.isError;
  if (call.pending) packed.pending = true;
  if (call.hooks.length > 0) packed.hooks = call.hooks;
  return packed;
}

function packStep(step: RecordedStep, answer: Answer | undefined): PackedStep {
  const calls: PackedCall[] = new Array(step.calls.length);
  for (let index = 0; index < calls.length; index++) {
    const call = step.calls[index]!;
    calls[index] = packCall(call, findCall(answer, call.toolCallId));
  }
  const packed: PackedStep = { index: step.index, usage: step.usage, calls };
  if (step.text !== answer?.text) packed.text = step.text;
  if (step.reasoning !== undefined) packed.reasoning = step.reasoning;
  if (step.finishReason !== answer?.finishReason) packed.finishReason = step.finishReason;
  if (step.hooks.length > 0) packed.hooks = step.hooks;
  return packed;
}

/** The attempt without its model (the record's). */
function withoutModel(attempt: RecordedAttempt): RecordedAttempt {
  const bare: RecordedAttempt = { step: attempt.step, attempt: attempt.attempt };
  if (attempt.answer !== undefined) bare.answer = attempt.answer;
  if (attempt.error !== undefined) bare.error = attempt.error;
  return bare;
}

/** The record as it is stored (format 2). */
export function packRunRecord(record: RunRecord): PackedRunRecord {
  const { attempts } = record;
  const answers = acceptedAnswers(attempts);
  const model = attempts[0]?.model;
  let oneModel = model !== undefined;
  for (let index = 1; oneModel && index < attempts.length; index++)
    oneModel = attempts[index]!.model === model;
  const steps: PackedStep[] = new Array(record.steps.length);
  for (let index = 0; index < steps.length; index++) {
    const step = record.steps[index]!;
    steps[index] = packStep(step, answers.get(step.index));
  }
  const packed: PackedRunRecord = {
    format: 2,
    runId: record.runId,
    sessionId: record.sessionId,
    agent: record.agent,
    input: record.input,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    outcome: record.outcome,
    text: record.text,
    attempts: oneModel ? attempts.map(withoutModel) : attempts,
    steps,
  };
  if (oneModel) packed.model = model;
  if (record.reason !== undefined) packed.reason = record.reason;
  if (record.hook !== undefined) packed.hook = record.hook;
  if (record.hooks.length > 0) packed.hooks = record.hooks;
  if (record.resumedAt !== undefined) packed.resumedAt = record.resumedAt;
  if (record.harness !== undefined) packed.harness = record.harness;
  if (record.gateway !== undefined) packed.gateway = record.gateway;
  return packed;
}

/** Whether a stored value is a record of format 2 with its lists (`packedRecordProblem` says what is not). */
function isPacked(value: unknown): value is PackedRunRecord {
  const record = value as Partial<PackedRunRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    record.format === 2 &&
    Array.isArray(record.attempts) &&
    Array.isArray(record.steps) &&
    record.attempts.every((attempt) => typeof attempt === "object" && attempt !== null) &&
    record.steps.every(
      (step) =>
        typeof step === "object" &&
        step !== null &&
        Array.isArray(step.calls) &&
        step.calls.every((call) => typeof call === "object" && call !== null),
    )
  );
}

function unpackCall(call: PackedCall, made: AnswerCall | undefined): RecordedCall {
  const { toolName, qualifiedName, args, ranArgs, isError, hooks, ...rest } = call;
  const name = toolName ?? made?.name;
  const unpacked = {
    ...rest,
    toolName: name,
    qualifiedName: qualifiedName ?? name,
    // A copy: the attempt's answer keeps its own, as in a record stored whole.
    args: "args" in call ? args : structuredClone(made?.args),
    hooks: hooks ?? [],
  } as RecordedCall;
  if ("ranArgs" in call) unpacked.ranArgs = ranArgs;
  else if (call.executed) unpacked.ranArgs = structuredClone(unpacked.args);
  if (isError !== undefined) unpacked.isError = isError;
  else if (call.executed) unpacked.isError = false;
  return unpacked;
}

/**
 * The record a stored value holds: a packed one (format 2) unpacked, anything else as it is
 * (a format 1 record, or a value the record's checks refuse).
 */
export function unpackRunRecord(value: unknown): unknown {
  if (!isPacked(value)) return value;
  const { model, steps, hooks, attempts, ...rest } = value;
  const withModel =
    model === undefined
      ? attempts
      : attempts.map((attempt) => ({ ...attempt, model: attempt.model ?? model }));
  const answers = acceptedAnswers(withModel);
  return {
    ...rest,
    format: 1,
    attempts: withModel,
    steps: steps.map((step) => {
      const answer = answers.get(step.index);
      const { text, finishReason, calls, hooks: stepHooks, ...stepRest } = step;
      return {
        ...stepRest,
        text: text ?? answer?.text,
        finishReason: finishReason ?? answer?.finishReason,
        calls: calls.map((call) => unpackCall(call, findCall(answer, call.toolCallId))),
        hooks: stepHooks ?? [],
      };
    }),
    hooks: hooks ?? [],
  };
}
