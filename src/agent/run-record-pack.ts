/**
 * How a run record is stored: format 3, the record without what it says twice. A record
 * holds each step's accepted answer in its attempts, and each tool call again in its step
 * (the call the model made, the arguments it ran with, its result). Stored, a step keeps
 * only what its accepted answer does not say: a call's id, name and arguments, a step's
 * text, finish reason and usage (its tokens as the answer counted them), the model of every
 * attempt when they went to one model, a step's index equal to its place, arguments it ran
 * with equal to those the model sent, `executed: true`, and empty lists of hook decisions
 * are left out. Read back, `unpackRunRecord` puts them back: the record is the one that
 * was packed.
 *
 * The record is encoded once, as it is packed (`encodeRunRecord`): a store that writes it
 * with the JSON codec takes that text, and only the values a tool or a hook gave (arguments,
 * results, decisions) are looked through for bytes and URLs.
 *
 * Records stored before are read too: format 2 (the same, its ids, indexes, usages and
 * `executed` always there) and format 1 (the whole record, read as it is).
 */

import type { RunResult, StepRecord, ToolResultRecord, Usage } from "../loop/run-result.js";
import type { ModelTurn } from "../models/language-model.js";
import { encodeOnce, holdsTags } from "../state/json-codec.js";
import type {
  RecordedAttempt,
  RecordedCall,
  RecordedDecision,
  RecordedStep,
  RunMarks,
  RunRecord,
} from "./run-record.js";

type Answer = NonNullable<RecordedAttempt["answer"]>;
type AnswerCall = Answer["toolCalls"][number];

/** A tool call as stored: what the step's accepted answer says of it is left out. */
interface PackedCall {
  /** Absent: the id of the answer's call at the same place. */
  toolCallId?: string;
  /** Absent: the answer's call of this id names it. */
  toolName?: string;
  /** Absent: `toolName`. */
  qualifiedName?: string;
  /** Absent: the answer's call of this id holds them. */
  args?: unknown;
  /** Absent while it `executed`: the arguments it was sent (`args`). */
  ranArgs?: unknown;
  /** Absent: true. */
  executed?: boolean;
  result?: unknown;
  /** Absent while it `executed`: false. */
  isError?: boolean;
  pending?: boolean;
  /** Absent: none. */
  hooks?: RecordedDecision[];
}

interface PackedStep
  extends Omit<RecordedStep, "index" | "usage" | "text" | "finishReason" | "calls" | "hooks"> {
  /** Absent: its place in the record's steps. */
  index?: number;
  /** Absent: the accepted answer's tokens, their sum, and `zeroCacheTokens`' cache counts. */
  usage?: Usage;
  /** Absent: the accepted answer's. */
  text?: string;
  /** Absent: the accepted answer's. */
  finishReason?: string;
  calls: PackedCall[];
  /** Absent: none. */
  hooks?: RecordedDecision[];
}

/**
 * An attempt that the model answered, with no model of its own, as a list: its step, attempt,
 * text, finish reason, input and output tokens (null: not reported), then the id, name and
 * arguments of each call it made.
 */
export type PackedAnswer = [number, number, string, string, number | null, number | null, ...unknown[]];

export interface PackedRunRecord extends Omit<RunRecord, "format" | "steps" | "hooks" | "attempts"> {
  format: 3;
  /** Every attempt: as it is, or an answer without a model of its own as a list (`PackedAnswer`). */
  attempts: (RecordedAttempt | PackedAnswer)[];
  /** The model of every attempt that names none. */
  model?: string;
  /** A step's usage left out counts 0 cache read and write tokens (else it has no cache counts). */
  zeroCacheTokens?: true;
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

/** What packing found: whether a value a tool or a hook gave holds bytes or a URL. */
interface Packing {
  tagged: boolean;
  zeroCacheTokens: boolean;
}

/** Looks through a value a tool, a hook or a harness gave for bytes and URLs (until one is found). */
function look(packing: Packing, value: unknown): void {
  if (!packing.tagged && typeof value === "object" && value !== null && holdsTags(value))
    packing.tagged = true;
}

/** The usage a step whose own is left out has: its accepted answer's tokens. */
function answerUsage(answer: Answer | undefined, zeroCacheTokens: boolean): Usage {
  const inputTokens = answer?.usage.inputTokens ?? 0;
  const outputTokens = answer?.usage.outputTokens ?? 0;
  const totalTokens = inputTokens + outputTokens;
  return zeroCacheTokens
    ? { inputTokens, outputTokens, totalTokens, cacheReadTokens: 0, cacheWriteTokens: 0 }
    : { inputTokens, outputTokens, totalTokens };
}

/** Whether a step's usage is the one its answer's tokens say (`answerUsage`), field for field. */
function isAnswerUsage(
  usage: Usage,
  answerInput: number | null | undefined,
  answerOutput: number | null | undefined,
  zeroCacheTokens: boolean,
): boolean {
  const inputTokens = answerInput ?? 0;
  const outputTokens = answerOutput ?? 0;
  let fields = 0;
  for (const key in usage) if (Object.hasOwn(usage, key)) fields++;
  return (
    usage.inputTokens === inputTokens &&
    usage.outputTokens === outputTokens &&
    usage.totalTokens === inputTokens + outputTokens &&
    (zeroCacheTokens
      ? fields === 5 && usage.cacheReadTokens === 0 && usage.cacheWriteTokens === 0
      : fields === 3)
  );
}

function packCall(
  call: RecordedCall,
  made: AnswerCall | undefined,
  atPlace: boolean,
  packing: Packing,
): PackedCall {
  const packed: PackedCall = atPlace ? {} : { toolCallId: call.toolCallId };
  if (!call.executed) packed.executed = false;
  if (made?.name !== call.toolName) packed.toolName = call.toolName;
  if (call.qualifiedName !== call.toolName) packed.qualifiedName = call.qualifiedName;
  if (made === undefined || !sameJson(made.args, call.args)) {
    packed.args = call.args;
    look(packing, call.args);
  }
  if (call.executed ? !sameJson(call.ranArgs, call.args) : "ranArgs" in call) {
    packed.ranArgs = call.ranArgs;
    look(packing, call.ranArgs);
  }
  if ("result" in call) {
    packed.result = call.result;
    look(packing, call.result);
  }
  if (call.isError !== undefined && !(call.executed && call.isError === false)) packed.isError = call.isError;
  if (call.pending) packed.pending = true;
  if (call.hooks.length > 0) {
    packed.hooks = call.hooks;
    look(packing, call.hooks);
  }
  return packed;
}

function packStep(
  step: RecordedStep,
  place: number,
  answer: Answer | undefined,
  packing: Packing,
): PackedStep {
  const calls: PackedCall[] = [];
  const made = answer?.toolCalls;
  for (let index = 0; index < step.calls.length; index++) {
    const call = step.calls[index]!;
    const atPlace = made?.[index]?.id === call.toolCallId;
    calls.push(packCall(call, atPlace ? made![index] : findCall(answer, call.toolCallId), atPlace, packing));
  }
  const packed: PackedStep = { calls };
  if (step.index !== place) packed.index = step.index;
  if (
    answer === undefined ||
    !isAnswerUsage(step.usage, answer.usage.inputTokens, answer.usage.outputTokens, packing.zeroCacheTokens)
  )
    packed.usage = step.usage;
  if (step.text !== answer?.text) packed.text = step.text;
  if (step.reasoning !== undefined) packed.reasoning = step.reasoning;
  if (step.finishReason !== answer?.finishReason) packed.finishReason = step.finishReason;
  if (step.hooks.length > 0) {
    packed.hooks = step.hooks;
    look(packing, step.hooks);
  }
  return packed;
}

/** Whether an answer is only what `PackedAnswer` holds (nothing added by hand, no argument left undefined). */
function isPlainAnswer(answer: Answer): boolean {
  let fields = 0;
  for (const key in answer) if (Object.hasOwn(answer, key)) fields++;
  let usageFields = 0;
  for (const key in answer.usage) if (Object.hasOwn(answer.usage, key)) usageFields++;
  const { inputTokens, outputTokens } = answer.usage;
  if (
    fields !== 4 ||
    typeof answer.text !== "string" ||
    typeof answer.finishReason !== "string" ||
    !Array.isArray(answer.toolCalls) ||
    usageFields > 2 ||
    (inputTokens !== undefined && typeof inputTokens !== "number") ||
    (outputTokens !== undefined && typeof outputTokens !== "number") ||
    usageFields !== ("inputTokens" in answer.usage ? 1 : 0) + ("outputTokens" in answer.usage ? 1 : 0)
  )
    return false;
  for (const call of answer.toolCalls) {
    let callFields = 0;
    for (const key in call) if (Object.hasOwn(call, key)) callFields++;
    if (
      callFields !== 3 ||
      call.args === undefined ||
      typeof call.id !== "string" ||
      typeof call.name !== "string"
    )
      return false;
  }
  return true;
}

/** The attempt without its model (the record's): an answer as a list, else as it is. */
function withoutModel(attempt: RecordedAttempt): RecordedAttempt | PackedAnswer {
  const { answer } = attempt;
  if (answer !== undefined && attempt.error === undefined && isPlainAnswer(answer)) {
    const calls = answer.toolCalls;
    // Filled in order, never sized first: a list with holes is one JSON.stringify writes the slow way.
    const packed: PackedAnswer = [
      attempt.step,
      attempt.attempt,
      answer.text,
      answer.finishReason,
      answer.usage.inputTokens ?? null,
      answer.usage.outputTokens ?? null,
    ];
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index]!;
      packed.push(call.id, call.name, call.args);
    }
    return packed;
  }
  const bare: RecordedAttempt = { step: attempt.step, attempt: attempt.attempt };
  if (answer !== undefined) bare.answer = answer;
  if (attempt.error !== undefined) bare.error = attempt.error;
  return bare;
}

/** An attempt as it was packed: an answer's list (`PackedAnswer`) made an attempt again. */
export function unpackAttempt(attempt: RecordedAttempt | PackedAnswer): RecordedAttempt {
  if (!Array.isArray(attempt)) return attempt;
  const [step, number, text, finishReason, inputTokens, outputTokens] = attempt;
  const usage: { inputTokens?: number; outputTokens?: number } = {};
  if (inputTokens !== null) usage.inputTokens = inputTokens;
  if (outputTokens !== null) usage.outputTokens = outputTokens;
  const toolCalls: AnswerCall[] = [];
  for (let index = 6; index + 2 < attempt.length; index += 3)
    toolCalls.push({
      id: attempt[index] as string,
      name: attempt[index + 1] as string,
      args: attempt[index + 2],
    });
  return { step, attempt: number, answer: { text, toolCalls, finishReason, usage } };
}

/** The record as it is stored (format 3), and whether a value in it holds bytes or a URL. */
function pack(record: RunRecord): { packed: PackedRunRecord; tagged: boolean } {
  const { attempts } = record;
  const answers = acceptedAnswers(attempts);
  const model = attempts[0]?.model;
  let oneModel = model !== undefined;
  for (let index = 1; oneModel && index < attempts.length; index++)
    oneModel = attempts[index]!.model === model;
  // The answers' arguments are the model's (parsed JSON), unless a hook repaired a call.
  const packing: Packing = { tagged: false, zeroCacheTokens: false };
  for (const attempt of attempts)
    for (const call of attempt.answer?.toolCalls ?? []) look(packing, call.args);
  const first = record.steps[0]?.usage;
  packing.zeroCacheTokens = first?.cacheReadTokens === 0 && first.cacheWriteTokens === 0;
  const steps: PackedStep[] = [];
  for (let index = 0; index < record.steps.length; index++) {
    const step = record.steps[index]!;
    steps.push(packStep(step, index, answers.get(step.index), packing));
  }
  const packed: PackedRunRecord = {
    format: 3,
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
  if (packing.zeroCacheTokens) packed.zeroCacheTokens = true;
  if (record.reason !== undefined) packed.reason = record.reason;
  if (record.hook !== undefined) packed.hook = record.hook;
  if (record.hooks.length > 0) {
    packed.hooks = record.hooks;
    look(packing, record.hooks);
  }
  if (record.resumedAt !== undefined) packed.resumedAt = record.resumedAt;
  if (record.harness !== undefined) {
    packed.harness = record.harness;
    look(packing, record.harness);
  }
  if (record.gateway !== undefined) packed.gateway = record.gateway;
  return { packed, tagged: packing.tagged };
}

/** The record as it is stored (format 3). */
export function packRunRecord(record: RunRecord): PackedRunRecord {
  return pack(record).packed;
}

/**
 * The record as it is stored, encoded now: a store writing it with the JSON codec takes this
 * text rather than encoding it again. Nothing changes the packed record afterwards.
 */
export function encodeRunRecord(record: RunRecord): PackedRunRecord {
  const { packed, tagged } = pack(record);
  encodeOnce(packed, tagged);
  return packed;
}

/**
 * The stored form of a run's record, packed and encoded straight from its result, when no
 * hook fired in the run (its trace is empty: no decision to place) and no call waits for an
 * approval: the record `buildRunRecord` would build, packed as `encodeRunRecord` packs it,
 * without the record itself, its lists of no decisions, or the copies packing makes.
 * Undefined when the run is not such a run.
 */
export function encodeUnhookedRun(
  result: RunResult,
  marks: RunMarks,
  meta: { agent: string; input: string; startedAt: number; endedAt: number },
): PackedRunRecord | undefined {
  if (result.events.length > 0 || (result.approvals?.length ?? 0) > 0) return undefined;
  const { attempts } = marks;
  const packing: Packing = { tagged: false, zeroCacheTokens: false };
  // Each step's result and accepted answer, in lists indexed by step.
  const done: (StepRecord | undefined)[] = [];
  for (const step of result.steps) if (done[step.index] === undefined) done[step.index] = step;
  const answers: (Answer | PackedAnswer | undefined)[] = [];
  let lists = false;
  for (let index = 0; index < attempts.length; index++) {
    const attempt = attempts[index]!;
    if (Array.isArray(attempt)) {
      // An answer of the marks' model, as it is stored.
      lists = true;
      answers[attempt[0]] = attempt;
      for (let at = 8; at < attempt.length; at += 3) look(packing, attempt[at]);
      continue;
    }
    // Only answers: an attempt that failed fired a hook (the recorder's mark).
    if (attempt.answer === undefined || attempt.model === undefined) return undefined;
    answers[attempt.step] = attempt.answer;
    for (const call of attempt.answer.toolCalls) look(packing, call.args);
  }
  const first = done[0]?.usage;
  packing.zeroCacheTokens = first?.cacheReadTokens === 0 && first.cacheWriteTokens === 0;
  const steps: PackedStep[] = [];
  const { points } = marks;
  for (let point = 0; point < points.length; point++) {
    // A call's point (its position, then its id) opens no step.
    if (typeof points[point + 1] === "string") {
      point++;
      continue;
    }
    const index = steps.length;
    const ran = done[index];
    const answer = answers[index];
    // The accepted answer as its list, or as the attempt's answer.
    const list = Array.isArray(answer) ? answer : undefined;
    const made = list === undefined ? (answer as Answer | undefined) : undefined;
    const count = list !== undefined ? (list.length - 6) / 3 : (made?.toolCalls.length ?? 0);
    const calls: PackedCall[] = [];
    for (let at = 0; at < count; at++) {
      const call = made?.toolCalls[at];
      const id = call !== undefined ? call.id : (list![6 + 3 * at] as string);
      const name = call !== undefined ? call.name : (list![7 + 3 * at] as string);
      const args = call !== undefined ? call.args : list![8 + 3 * at];
      const result = ran === undefined ? undefined : findResult(ran.toolResults, id, at);
      const packed: PackedCall = {};
      if (result === undefined || !result.executed) packed.executed = false;
      if (result !== undefined && result.qualifiedName !== name) packed.qualifiedName = result.qualifiedName;
      if (result !== undefined) {
        if (result.executed && !sameJson(result.args, args)) {
          packed.ranArgs = result.args;
          look(packing, result.args);
        }
        packed.result = result.result;
        look(packing, result.result);
        if (!(result.executed && result.isError === false)) packed.isError = result.isError;
      }
      calls.push(packed);
    }
    const step: PackedStep = { calls };
    const usage = ran?.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const answerText = list !== undefined ? list[2] : made?.text;
    const answerFinish = list !== undefined ? list[3] : made?.finishReason;
    const inputTokens = list !== undefined ? list[4] : made?.usage.inputTokens;
    const outputTokens = list !== undefined ? list[5] : made?.usage.outputTokens;
    if (answer === undefined || !isAnswerUsage(usage, inputTokens, outputTokens, packing.zeroCacheTokens))
      step.usage = usage;
    const text = ran !== undefined ? ran.text : (answerText ?? "");
    if (text !== answerText) step.text = text;
    if (ran?.reasoning) step.reasoning = ran.reasoning;
    const finishReason = ran !== undefined ? ran.finishReason : (answerFinish ?? "");
    if (finishReason !== answerFinish) step.finishReason = finishReason;
    steps.push(step);
  }
  const packed: PackedRunRecord = {
    format: 3,
    runId: result.runId,
    sessionId: result.sessionId,
    agent: meta.agent,
    input: meta.input,
    startedAt: meta.startedAt,
    endedAt: meta.endedAt,
    outcome: result.outcome,
    text: result.text,
    // The marks' own list: its answers are stored as they are kept (lists of the marks' model).
    attempts,
    steps,
  };
  if (lists) packed.model = marks.model;
  if (packing.zeroCacheTokens) packed.zeroCacheTokens = true;
  if (result.reason !== undefined) packed.reason = result.reason;
  if (result.hook !== undefined) packed.hook = result.hook;
  encodeOnce(packed, packing.tagged);
  return packed;
}

/**
 * An attempt's answer as the marks keep it (`RunMarks.attempts`): the list it is stored as,
 * made once, straight from the model's turn (no copy of its calls first). Undefined when
 * the turn is not only what a list holds (a call with no arguments, a count that is no number).
 */
export function answerList(step: number, attempt: number, turn: ModelTurn): PackedAnswer | undefined {
  const { inputTokens, outputTokens } = turn.usage;
  if (
    typeof turn.text !== "string" ||
    typeof turn.finishReason !== "string" ||
    (inputTokens !== undefined && typeof inputTokens !== "number") ||
    (outputTokens !== undefined && typeof outputTokens !== "number")
  )
    return undefined;
  const calls = turn.toolCalls;
  for (let index = 0; index < calls.length; index++) if (calls[index]!.args === undefined) return undefined;
  const { text, finishReason } = turn;
  const input = inputTokens ?? null;
  const output = outputTokens ?? null;
  // Made whole for up to two calls: a list grown by `push` keeps room for more than it holds.
  const a = calls[0];
  const b = calls[1];
  if (a === undefined) return [step, attempt, text, finishReason, input, output];
  if (b === undefined)
    return [step, attempt, text, finishReason, input, output, a.toolCallId, a.toolName, a.args];
  if (calls.length === 2)
    // biome-ignore format: one answer, one call a line
    return [
      step, attempt, text, finishReason, input, output,
      a.toolCallId, a.toolName, a.args,
      b.toolCallId, b.toolName, b.args,
    ];
  const list: PackedAnswer = [step, attempt, text, finishReason, input, output];
  for (const call of calls) list.push(call.toolCallId, call.toolName, call.args);
  return list;
}

/** A step's result of this call id: looked for at `at` first (results keep their calls' order). */
function findResult(
  results: readonly ToolResultRecord[],
  id: string,
  at: number,
): ToolResultRecord | undefined {
  const found = results[at];
  if (found !== undefined && found.toolCallId === id) return found;
  for (const item of results) if (item.toolCallId === id) return item;
  return undefined;
}

/** Whether a stored value is a packed record (format 2 or 3) with its lists (`packedRecordProblem` says what is not). */
function isPacked(
  value: unknown,
): value is PackedRunRecord | (Omit<PackedRunRecord, "format"> & { format: 2 }) {
  const record = value as (Partial<Omit<PackedRunRecord, "format">> & { format?: unknown }) | null;
  return (
    typeof record === "object" &&
    record !== null &&
    (record.format === 2 || record.format === 3) &&
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
  const { toolCallId, toolName, qualifiedName, args, ranArgs, executed, isError, hooks, ...rest } = call;
  const name = toolName ?? made?.name;
  const ran = executed ?? true;
  const unpacked = {
    toolCallId: toolCallId ?? made?.id,
    ...rest,
    executed: ran,
    toolName: name,
    qualifiedName: qualifiedName ?? name,
    // A copy: the attempt's answer keeps its own, as in a record stored whole.
    args: "args" in call ? args : structuredClone(made?.args),
    hooks: hooks ?? [],
  } as RecordedCall;
  if ("ranArgs" in call) unpacked.ranArgs = ranArgs;
  else if (ran) unpacked.ranArgs = structuredClone(unpacked.args);
  if (isError !== undefined) unpacked.isError = isError;
  else if (ran) unpacked.isError = false;
  return unpacked;
}

/**
 * The record a stored value holds: a packed one (format 2 or 3) unpacked, anything else as
 * it is (a format 1 record, or a value the record's checks refuse).
 */
export function unpackRunRecord(value: unknown): unknown {
  if (!isPacked(value)) return value;
  const {
    model,
    steps,
    hooks,
    attempts: packedAttempts,
    zeroCacheTokens,
    ...rest
  } = value as PackedRunRecord;
  const attempts = packedAttempts.map(unpackAttempt);
  const withModel =
    model === undefined
      ? attempts
      : attempts.map((attempt) => ({ ...attempt, model: attempt.model ?? model }));
  const answers = acceptedAnswers(withModel);
  return {
    ...rest,
    format: 1,
    attempts: withModel,
    steps: steps.map((step, place) => {
      const index = step.index ?? place;
      const answer = answers.get(index);
      const { text, finishReason, calls, hooks: stepHooks, usage, ...stepRest } = step;
      return {
        ...stepRest,
        index,
        text: text ?? answer?.text,
        finishReason: finishReason ?? answer?.finishReason,
        usage: usage ?? answerUsage(answer, zeroCacheTokens === true),
        calls: calls.map((call, at) => {
          // A call without its id is the answer's call at its place.
          const made =
            call.toolCallId === undefined ? answer?.toolCalls[at] : findCall(answer, call.toolCallId);
          return unpackCall(call, made);
        }),
        hooks: stepHooks ?? [],
      };
    }),
    hooks: hooks ?? [],
  };
}
