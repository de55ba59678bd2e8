/**
 * A committed step, kept light while the run goes on: its record is one list of slots of
 * exactly its size, in `state.steps` where the record will be, made into the result's
 * `StepRecord` (its `toolCalls`, `toolResults`, usage and request) by `settleSteps` when the
 * run ends or suspends, or before the transcript changes other than by growing. A long run
 * in flight then holds one list per step: no record, usage, request or object per call,
 * and no copy of its history per step.
 *
 * Slots of a step: [resultCount, callCount, request | template, prefixLength,
 * requestIndex, model, attempts, index, text, reasoning, finishReason, usage | undefined,
 * inputTokens, outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens, …6 per result, …3 per call whose result does not
 * name it].
 */
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import type { CallOutcome } from "./batch/types.js";
import type { StepRecord, ToolResultRecord, Usage } from "./run-result.js";
import type { RunState } from "./run-state.js";
import type { StepRequestOutcome } from "./types.js";

/** What a request's `messages` read while its history is kept as a prefix of the transcript. */
const AS_PREFIX: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

const RESULT_COUNT = 0;
const CALL_COUNT = 1;
/** The request itself (its history kept as a prefix), or the template a rebuilt one copies. */
const REQUEST = 2;
const PREFIX = 3;
/** Where the request is rebuilt in `state.requests`; -1 when `REQUEST` is the request. */
const REQUEST_INDEX = 4;
const MODEL = 5;
const ATTEMPTS = 6;
const INDEX = 7;
const TEXT = 8;
const REASONING = 9;
const FINISH_REASON = 10;
/** The step's usage object, when one was made (a streamed run surfaces it); else the three counts. */
const USAGE = 11;
const INPUT_TOKENS = 12;
const OUTPUT_TOKENS = 13;
const TOTAL_TOKENS = 14;
const CACHE_READ_TOKENS = 15;
const CACHE_WRITE_TOKENS = 16;
const HEADER_SLOTS = 17;
const RESULT_SLOTS = 6;
const CALL_SLOTS = 3;
const EXECUTED = 1;
const IS_ERROR = 2;
const REPLAYED = 4;
/** The result's call has the result's id, name and arguments (no call slots). */
const SAME_CALL = 8;

/** Whether a call's summary is its result's id, name and arguments. */
function isSameCall(
  call: { toolCallId: string; toolName: string },
  result: { toolCallId: string; toolName: string; args: unknown },
): boolean {
  return (
    call.toolCallId === result.toolCallId &&
    call.toolName === result.toolName &&
    result.args !== undefined &&
    result.args !== null
  );
}

/**
 * The length of the transcript prefix a step's request sent as its history, or -1 when it
 * is kept as it is: only a request whose history was the transcript as it was (its
 * baseline: no patch, no feedback appended) that nothing outside the loop was handed (no
 * hook on the model's events, no telemetry), so nothing else reads its list before the
 * run ends.
 */
function prefixLength(state: RunState, requested: Extract<StepRequestOutcome, { kind: "turn" }>): number {
  const messages = requested.request.messages;
  if (
    messages !== requested.sent ||
    state.telemetry !== undefined ||
    messages.length > state.messages.length ||
    messages[messages.length - 1] !== state.messages[messages.length - 1] ||
    state.runner.wants("model_request") ||
    state.runner.wants("model_response") ||
    state.runner.wants("model_error")
  )
    return -1;
  return messages.length;
}

/**
 * Whether `request` is the baseline `template` is, but for its step, attempt, model and
 * history: then it can be rebuilt from the template when the run ends. Both are baselines
 * (`prefixLength` keeps only those), which have no other fields.
 */
function sameBaseline(request: ModelRequest, template: ModelRequest): boolean {
  return (
    request.system === template.system &&
    request.tools === template.tools &&
    request.toolChoice === template.toolChoice &&
    request.temperature === template.temperature &&
    request.maxOutputTokens === template.maxOutputTokens &&
    request.providerOptions === template.providerOptions &&
    typeof request.model === "string"
  );
}

/** The run's first request kept as a prefix: the template of the ones after it. */
function templateOf(state: RunState): ModelRequest | undefined {
  const { steps } = state;
  for (let step = state.settledSteps; step < steps.length; step++) {
    const slots = steps[step] as unknown;
    if (Array.isArray(slots) && slots[REQUEST_INDEX] === -1 && slots[REQUEST] !== undefined)
      return slots[REQUEST] as ModelRequest;
  }
  return undefined;
}

/**
 * Keeps a committed step as slots in `state.steps` (its calls and results none when
 * `commit` is false). `usage`: the step's usage object when one was made; otherwise the
 * counts are kept and the object made when the run ends. Called before the step's messages
 * are added to the transcript.
 */
export function keepStep(
  state: RunState,
  requested: Extract<StepRequestOutcome, { kind: "turn" }>,
  results: Extract<CallOutcome, { kind: "result" }>[],
  commit: boolean,
  usage: Usage | undefined,
): void {
  const { turn, request } = requested;
  const calls = turn.toolCalls;
  const resultCount = commit ? results.length : 0;
  const callCount = commit ? calls.length : 0;
  let callSlots = 0;
  for (let index = 0; index < callCount; index++) {
    const result = results[index];
    if (result === undefined || !isSameCall(calls[index]!, result)) callSlots += CALL_SLOTS;
  }
  const prefix = prefixLength(state, requested);
  const slots: unknown[] = new Array(HEADER_SLOTS + resultCount * RESULT_SLOTS + callSlots);
  slots[RESULT_COUNT] = resultCount;
  slots[CALL_COUNT] = callCount;
  slots[REQUEST] = undefined;
  slots[PREFIX] = prefix;
  slots[REQUEST_INDEX] = -1;
  slots[MODEL] = undefined;
  if (prefix >= 0) {
    // The run's requests after its first are rebuilt from it when the run ends; the first
    // keeps its object, its history read from the transcript.
    const requests = state.requests;
    const last = requests.length - 1;
    const template = requests[last] === request ? templateOf(state) : undefined;
    if (template !== undefined && sameBaseline(request, template)) {
      slots[REQUEST] = template;
      slots[REQUEST_INDEX] = last;
      slots[MODEL] = request.model;
      requests[last] = undefined as never;
    } else {
      slots[REQUEST] = request;
      request.messages = AS_PREFIX;
    }
  }
  slots[ATTEMPTS] = requested.attempts;
  slots[INDEX] = state.step;
  slots[TEXT] = turn.text;
  slots[REASONING] = turn.reasoning;
  slots[FINISH_REASON] = turn.finishReason;
  slots[USAGE] = usage;
  if (usage === undefined) {
    const reported = turn.usage;
    const inputTokens = reported.inputTokens ?? 0;
    const outputTokens = reported.outputTokens ?? 0;
    slots[INPUT_TOKENS] = inputTokens;
    slots[OUTPUT_TOKENS] = outputTokens;
    slots[TOTAL_TOKENS] = reported.totalTokens ?? inputTokens + outputTokens;
    slots[CACHE_READ_TOKENS] = reported.cacheReadTokens;
    slots[CACHE_WRITE_TOKENS] = reported.cacheWriteTokens;
  }
  let at = HEADER_SLOTS;
  for (let index = 0; index < resultCount; index++, at += RESULT_SLOTS) {
    const result = results[index]!;
    const call = index < callCount ? calls[index]! : undefined;
    slots[at] = result.toolCallId;
    slots[at + 1] = result.toolName;
    slots[at + 2] = result.qualifiedName;
    slots[at + 3] = result.args;
    slots[at + 4] = result.result;
    slots[at + 5] =
      (result.executed ? EXECUTED : 0) |
      (result.isError ? IS_ERROR : 0) |
      (result.replayed ? REPLAYED : 0) |
      (call !== undefined && isSameCall(call, result) ? SAME_CALL : 0);
  }
  for (let index = 0; index < callCount; index++) {
    const call = calls[index]!;
    const result = results[index];
    if (result !== undefined && isSameCall(call, result)) continue;
    slots[at] = call.toolCallId;
    slots[at + 1] = call.toolName;
    slots[at + 2] = result?.args ?? call.rawInput;
    at += CALL_SLOTS;
  }
  state.steps.push(slots as never);
}

/** The last committed step's finish reason and usage (a streamed run's `step-finish`). */
export function lastStepFinish(state: RunState): { finishReason: string; usage: Usage } {
  const step = state.steps[state.steps.length - 1] as unknown;
  if (!Array.isArray(step)) return step as StepRecord;
  return { finishReason: step[FINISH_REASON] as string, usage: usageOf(step) };
}

/** The step's usage: the object made for it, or one as `addUsage` (finish-run.ts) makes it. */
function usageOf(slots: unknown[]): Usage {
  const made = slots[USAGE] as Usage | undefined;
  if (made !== undefined) return made;
  const inputTokens = slots[INPUT_TOKENS] as number;
  const outputTokens = slots[OUTPUT_TOKENS] as number;
  const totalTokens = slots[TOTAL_TOKENS] as number;
  const cacheReadTokens = slots[CACHE_READ_TOKENS] as number | undefined;
  const cacheWriteTokens = slots[CACHE_WRITE_TOKENS] as number | undefined;
  const usage: Usage =
    cacheReadTokens !== undefined && cacheWriteTokens !== undefined
      ? { inputTokens, outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens }
      : { inputTokens, outputTokens, totalTokens };
  if (cacheReadTokens !== undefined) usage.cacheReadTokens = cacheReadTokens;
  if (cacheWriteTokens !== undefined) usage.cacheWriteTokens = cacheWriteTokens;
  return usage;
}

/**
 * Makes every step kept as slots (`keepStep`) its record: its `toolCalls`, `toolResults`,
 * usage, and its request (rebuilt, or its history). Before a result or a suspension carries
 * the steps, and before the transcript changes other than by growing.
 */
export function settleSteps(state: RunState): void {
  const { steps } = state;
  for (let step = state.settledSteps; step < steps.length; step++) {
    const slots = steps[step] as unknown;
    // A resumed run's earlier steps are records already.
    if (!Array.isArray(slots)) continue;
    const resultCount = slots[RESULT_COUNT] as number;
    const callCount = slots[CALL_COUNT] as number;
    const prefix = slots[PREFIX] as number;
    const kept = slots[REQUEST] as ModelRequest | undefined;
    const requestIndex = slots[REQUEST_INDEX] as number;
    if (requestIndex >= 0) {
      const template = kept!;
      // The fields in the order the baseline request has them.
      const request: ModelRequest = {
        step: slots[INDEX] as number,
        attempt: slots[ATTEMPTS] as number,
        system: template.system,
        messages: state.messages.slice(0, prefix),
        tools: template.tools,
        toolChoice: template.toolChoice,
        model: slots[MODEL] as string,
      };
      if (template.temperature !== undefined) request.temperature = template.temperature;
      if (template.maxOutputTokens !== undefined) request.maxOutputTokens = template.maxOutputTokens;
      if (template.providerOptions !== undefined) request.providerOptions = template.providerOptions;
      state.requests[requestIndex] = request;
    } else if (kept !== undefined) kept.messages = state.messages.slice(0, prefix);
    const toolResults: ToolResultRecord[] = new Array(resultCount);
    let at = HEADER_SLOTS;
    for (let index = 0; index < resultCount; index++, at += RESULT_SLOTS) {
      const flags = slots[at + 5] as number;
      const item: ToolResultRecord = {
        toolCallId: slots[at] as string,
        toolName: slots[at + 1] as string,
        qualifiedName: slots[at + 2] as string,
        args: slots[at + 3],
        result: slots[at + 4],
        isError: (flags & IS_ERROR) !== 0,
        executed: (flags & EXECUTED) !== 0,
      };
      if (flags & REPLAYED) item.replayed = true;
      toolResults[index] = item;
    }
    const toolCalls: StepRecord["toolCalls"] = new Array(callCount);
    for (let index = 0; index < callCount; index++) {
      const result = HEADER_SLOTS + index * RESULT_SLOTS;
      if (index < resultCount && (slots[result + 5] as number) & SAME_CALL) {
        toolCalls[index] = {
          toolCallId: slots[result] as string,
          toolName: slots[result + 1] as string,
          args: slots[result + 3],
        };
        continue;
      }
      toolCalls[index] = {
        toolCallId: slots[at] as string,
        toolName: slots[at + 1] as string,
        args: slots[at + 2],
      };
      at += CALL_SLOTS;
    }
    steps[step] = {
      index: slots[INDEX] as number,
      text: slots[TEXT] as string,
      reasoning: slots[REASONING] as string,
      toolCalls,
      toolResults,
      finishReason: slots[FINISH_REASON] as string,
      usage: usageOf(slots),
      attempts: slots[ATTEMPTS] as number,
    };
  }
  state.settledSteps = steps.length;
}
