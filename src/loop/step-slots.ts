/**
 * A committed step, kept light while the run goes on: its record is one list of slots of
 * exactly its size, made into the result's `StepRecord` (its `toolCalls`, `toolResults`,
 * usage and request) by `settleSteps` when the run ends or suspends, or before the
 * transcript changes other than by growing. The lists of the steps not settled yet are
 * chained from `state.lastStep` (no list of them), and a request kept as a prefix of the
 * transcript waits outside `state.requests` until then, as does the run's last request
 * (`state.lastRequest`): a run that no hook or span watches holds one list per step, and no
 * record, usage, request or object per call, nor a copy of its history per step.
 *
 * Slots of a step: [previous, resultCount, callCount, request | template, prefixLength,
 * position, model, attempts, index, text, reasoning, finishReason, usage | inputTokens,
 * outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens, …5 or 6 per result, …3 per
 * call whose result does not name it].
 */
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import type { CallOutcome } from "./batch/types.js";
import type { StepRecord, ToolResultRecord, Usage } from "./run-result.js";
import type { RunState } from "./run-state.js";
import type { StepRequestOutcome } from "./types.js";

/** What a request's `messages` read while its history is kept as a prefix of the transcript. */
const AS_PREFIX: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

/** The step committed before it, while that one is not settled either. */
const PREVIOUS = 0;
const RESULT_COUNT = 1;
const CALL_COUNT = 2;
/** The request itself (its history kept as a prefix), or the template a rebuilt one copies. */
const REQUEST = 3;
const PREFIX = 4;
/** Where the request goes in `state.requests` when settled; -1: it is there already. */
const POSITION = 5;
/** The rebuilt request's model; undefined when `REQUEST` is the request itself. */
const MODEL = 6;
const ATTEMPTS = 7;
const INDEX = 8;
const TEXT = 9;
const REASONING = 10;
const FINISH_REASON = 11;
/** The step's usage object when one was made (a streamed run surfaces it); else its counts from here. */
const USAGE = 12;
const INPUT_TOKENS = 12;
const OUTPUT_TOKENS = 13;
const TOTAL_TOKENS = 14;
const CACHE_READ_TOKENS = 15;
const CACHE_WRITE_TOKENS = 16;
const HEADER_SLOTS = 17;
/** A result's slots: flags, id, name, arguments, result, and its qualified name when it is not its name. */
const RESULT_SLOTS = 5;
const CALL_SLOTS = 3;
const EXECUTED = 1;
const IS_ERROR = 2;
const REPLAYED = 4;
/** The result's call has the result's id, name and arguments (no call slots). */
const SAME_CALL = 8;
/** The result's qualified name is its name (no slot for it). */
const QUALIFIED_AS_NAME = 16;

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

/** Records a request the run sends (`state.requests`, in order, once the run settles its steps). */
export function recordRequest(state: RunState, request: ModelRequest): void {
  const last = state.lastRequest;
  if (last !== undefined) state.requests.push(last);
  state.lastRequest = request;
}

/** The request the previous unsettled step kept (its own, or its template): the next one's template. */
function templateOf(state: RunState): ModelRequest | undefined {
  const previous = state.lastStep as unknown[] | undefined;
  return previous === undefined ? undefined : (previous[REQUEST] as ModelRequest | undefined);
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
  let size = HEADER_SLOTS + resultCount * RESULT_SLOTS;
  for (let index = 0; index < resultCount; index++) {
    const result = results[index]!;
    if (result.qualifiedName !== result.toolName) size++;
  }
  for (let index = 0; index < callCount; index++) {
    const result = results[index];
    if (result === undefined || !isSameCall(calls[index]!, result)) size += CALL_SLOTS;
  }
  const prefix = prefixLength(state, requested);
  const slots: unknown[] = new Array(size);
  slots[PREVIOUS] = state.lastStep;
  slots[RESULT_COUNT] = resultCount;
  slots[CALL_COUNT] = callCount;
  slots[REQUEST] = undefined;
  slots[PREFIX] = prefix;
  slots[POSITION] = -1;
  slots[MODEL] = undefined;
  if (prefix >= 0) {
    // Its history is read from the transcript when the step settles. The run's last
    // request waits there too, outside `state.requests`; after the run's first, one that
    // is the first's but for its step, attempt and model is rebuilt from it then.
    const template = templateOf(state);
    if (state.lastRequest === request) {
      state.lastRequest = undefined;
      slots[POSITION] = state.requests.length;
    }
    if (template !== undefined && slots[POSITION] !== -1 && sameBaseline(request, template)) {
      slots[REQUEST] = template;
      slots[MODEL] = request.model;
    } else {
      slots[REQUEST] = request;
      request.messages = AS_PREFIX;
    }
    // The token meter reads the history it measured from the transcript too.
    state.meter.observedAsPrefix(requested.sent, state.messages);
  }
  slots[ATTEMPTS] = requested.attempts;
  slots[INDEX] = state.step;
  slots[TEXT] = turn.text;
  slots[REASONING] = turn.reasoning;
  slots[FINISH_REASON] = turn.finishReason;
  if (usage !== undefined) slots[USAGE] = usage;
  else {
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
  for (let index = 0; index < resultCount; index++) {
    const result = results[index]!;
    const call = index < callCount ? calls[index]! : undefined;
    const qualifiedAsName = result.qualifiedName === result.toolName;
    slots[at] =
      (result.executed ? EXECUTED : 0) |
      (result.isError ? IS_ERROR : 0) |
      (result.replayed ? REPLAYED : 0) |
      (call !== undefined && isSameCall(call, result) ? SAME_CALL : 0) |
      (qualifiedAsName ? QUALIFIED_AS_NAME : 0);
    slots[at + 1] = result.toolCallId;
    slots[at + 2] = result.toolName;
    slots[at + 3] = result.args;
    slots[at + 4] = result.result;
    at += RESULT_SLOTS;
    if (!qualifiedAsName) slots[at++] = result.qualifiedName;
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
  state.lastStep = slots;
}

/** The last committed step's finish reason and usage (a streamed run's `step-finish`). */
export function lastStepFinish(state: RunState): { finishReason: string; usage: Usage } {
  const step = state.lastStep as unknown[] | undefined;
  if (step === undefined) return state.steps[state.steps.length - 1]!;
  return { finishReason: step[FINISH_REASON] as string, usage: usageOf(step) };
}

/** How many steps the run committed, settled or not. */
export function stepCount(state: RunState): number {
  let count = state.steps.length;
  for (let step = state.lastStep as unknown[] | undefined; step !== undefined; step = step[PREVIOUS] as never)
    count++;
  return count;
}

/** The step's usage: the object made for it, or one as `addUsage` (finish-run.ts) makes it. */
function usageOf(slots: unknown[]): Usage {
  const made = slots[USAGE];
  if (typeof made === "object") return made as Usage;
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
  state.meter.detach();
  // The chain runs from the last step back: its steps in order, then each made its record.
  const chain: unknown[][] = [];
  for (let step = state.lastStep as unknown[] | undefined; step !== undefined; step = step[PREVIOUS] as never)
    chain.push(step);
  state.lastStep = undefined;
  const { steps, requests } = state;
  let inserted = 0;
  for (let link = chain.length - 1; link >= 0; link--) {
    const slots = chain[link]!;
    const resultCount = slots[RESULT_COUNT] as number;
    const callCount = slots[CALL_COUNT] as number;
    const prefix = slots[PREFIX] as number;
    const kept = slots[REQUEST] as ModelRequest | undefined;
    let request = kept;
    if (kept !== undefined && slots[MODEL] !== undefined) {
      // The fields in the order the baseline request has them.
      request = {
        step: slots[INDEX] as number,
        attempt: slots[ATTEMPTS] as number,
        system: kept.system,
        messages: state.messages.slice(0, prefix),
        tools: kept.tools,
        toolChoice: kept.toolChoice,
        model: slots[MODEL] as string,
      };
      if (kept.temperature !== undefined) request.temperature = kept.temperature;
      if (kept.maxOutputTokens !== undefined) request.maxOutputTokens = kept.maxOutputTokens;
      if (kept.providerOptions !== undefined) request.providerOptions = kept.providerOptions;
    } else if (kept !== undefined) kept.messages = state.messages.slice(0, prefix);
    const position = slots[POSITION] as number;
    if (position >= 0) requests.splice(position + inserted++, 0, request!);
    const toolResults: ToolResultRecord[] = new Array(resultCount);
    const toolCalls: StepRecord["toolCalls"] = new Array(callCount);
    let at = HEADER_SLOTS;
    for (let index = 0; index < resultCount; index++) {
      const flags = slots[at] as number;
      const toolCallId = slots[at + 1] as string;
      const toolName = slots[at + 2] as string;
      const args = slots[at + 3];
      const result = slots[at + 4];
      at += RESULT_SLOTS;
      const item: ToolResultRecord = {
        toolCallId,
        toolName,
        qualifiedName: flags & QUALIFIED_AS_NAME ? toolName : (slots[at++] as string),
        args,
        result,
        isError: (flags & IS_ERROR) !== 0,
        executed: (flags & EXECUTED) !== 0,
      };
      if (flags & REPLAYED) item.replayed = true;
      toolResults[index] = item;
      if (index < callCount && flags & SAME_CALL) toolCalls[index] = { toolCallId, toolName, args };
    }
    for (let index = 0; index < callCount; index++) {
      if (toolCalls[index] !== undefined) continue;
      toolCalls[index] = {
        toolCallId: slots[at] as string,
        toolName: slots[at + 1] as string,
        args: slots[at + 2],
      };
      at += CALL_SLOTS;
    }
    steps.push({
      index: slots[INDEX] as number,
      text: slots[TEXT] as string,
      reasoning: slots[REASONING] as string,
      toolCalls,
      toolResults,
      finishReason: slots[FINISH_REASON] as string,
      usage: usageOf(slots),
      attempts: slots[ATTEMPTS] as number,
    });
  }
  // The run's last request, after every request before it.
  if (state.lastRequest !== undefined) {
    requests.push(state.lastRequest);
    state.lastRequest = undefined;
  }
}
