/**
 * A committed step, kept light while the run goes on: its record is one list of slots of
 * exactly its size, made into the result's `StepRecord` (its `toolCalls`, `toolResults`,
 * usage and request) by `settleSteps` when the run's result is first asked for its steps or
 * requests (`settleWhenRead`: a caller that reads neither makes none of them), when the run
 * suspends, or before the transcript changes other than by growing. The lists of the steps not settled yet are
 * chained from `state.lastStep` (no list of them), and a request kept as a prefix of the
 * transcript waits outside `state.requests` until then, as does the run's last request
 * (`state.lastRequest`): a run that no hook or span watches holds one list per step, and no
 * record, usage, request or object per call, nor a copy of its history per step. Settled,
 * a long history (a request's, the result's transcript) is a view of the transcript until
 * it is read (`setHistory`, at the end of this file).
 *
 * Slots of a step: [previous, shape, request | template, index, text, finishReason, then
 * those of resultCount, callCount, prefixLength, position, model, attempts, reasoning,
 * usage | (inputTokens, outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens) that
 * differ from their usual value (`shape` says which), …4 to 6 per result, …3 per call whose
 * result does not name it].
 */
import type { ModelMessage, ModelRequest, ToolSpec } from "../events/payloads.js";
import type { ModelToolCall } from "../models/language-model.js";
import type { CallOutcome } from "./batch/types.js";
import type { StepRecord, ToolResultRecord, Usage } from "./run-result.js";
import { ownRequests, ownSteps, type RunState } from "./run-state.js";
import type { StepRequestOutcome } from "./types.js";

/** What a request's `messages` read while its history is kept as a prefix of the transcript. */
const AS_PREFIX: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

/** The step committed before it, while that one is not settled either. */
const PREVIOUS = 0;
/** Which of the optional slots below the step has (`HAS_*`), and its result count (`COUNT_SHIFT`). */
const SHAPE = 1;
/** The request itself (its history kept as a prefix), the template a rebuilt one copies, or undefined. */
const REQUEST = 2;
const INDEX = 3;
const TEXT = 4;
const FINISH_REASON = 5;
const FIXED_SLOTS = 6;
// The optional slots, in this order after the fixed ones, each there only when the step
// needs it: most steps keep none of them but the prefix and two token counts.
/** The result count, when too large for `SHAPE`. */
const HAS_COUNT = 1;
/** The call count, when it is not the result count. */
const HAS_CALL_COUNT = 2;
/** `REQUEST` is the request itself; a prefix slot follows. */
const OWN_REQUEST = 4;
/** `REQUEST` is the template a rebuilt request copies; a prefix slot follows. */
const TEMPLATE = 8;
/** Where the request goes in `state.requests` when settled, when not 0 (-1: it is there already). */
const HAS_POSITION = 16;
/** The rebuilt request's model, when not the template's. */
const HAS_MODEL = 32;
/** The step's attempts, when not 1. */
const HAS_ATTEMPTS = 64;
/** The step's reasoning, when not empty. */
const HAS_REASONING = 128;
/** The step's usage object (a streamed run surfaces it); else its input and output tokens. */
const HAS_USAGE = 256;
/** The total tokens, when not input + output. */
const HAS_TOTAL = 512;
const HAS_CACHE_READ = 1024;
const HAS_CACHE_WRITE = 2048;
/** Cache read and write tokens were both reported as 0 (no slots for them). */
const NO_CACHE_TOKENS = 4096;
/** Every result is `PLAIN_RESULT`: no flags slot per result. */
const PLAIN_RESULTS = 8192;
const COUNT_SHIFT = 14;
/** Result counts below this go in `SHAPE` (a small integer on every platform). */
const INLINE_COUNT = 1 << 16;
/**
 * A result's slots: flags (unless `PLAIN_RESULTS`), id, name, arguments, result, and its
 * qualified name when it is not its name.
 */
const RESULT_SLOTS = 4;
const CALL_SLOTS = 3;
const EXECUTED = 1;
const IS_ERROR = 2;
const REPLAYED = 4;
/** The result's call has the result's id, name and arguments (no call slots). */
const SAME_CALL = 8;
/** The result's qualified name is its name (no slot for it). */
const QUALIFIED_AS_NAME = 16;
/** A result as most are: executed, no error, its call's own, named as qualified. */
const PLAIN_RESULT = EXECUTED | SAME_CALL | QUALIFIED_AS_NAME;

function resultFlags(
  result: Extract<CallOutcome, { kind: "result" }>,
  call: ModelToolCall | undefined,
): number {
  return (
    (result.executed ? EXECUTED : 0) |
    (result.isError ? IS_ERROR : 0) |
    (result.replayed ? REPLAYED : 0) |
    (call !== undefined && isSameCall(call, result) ? SAME_CALL : 0) |
    (result.qualifiedName === result.toolName ? QUALIFIED_AS_NAME : 0)
  );
}

/** A step's slots read back (`readHeader`). */
interface Header {
  resultCount: number;
  callCount: number;
  /** The request (own or template) and its prefix length, or undefined and -1. */
  request: ModelRequest | undefined;
  prefix: number;
  template: boolean;
  position: number;
  model: string | undefined;
  attempts: number;
  reasoning: string;
  usage: Usage;
  /** Where the results' slots start. */
  at: number;
}

/**
 * What `readHeader` answers: one object, written again at each read (every caller takes what
 * it needs from it before the next), so settling a run's steps makes no header per step.
 */
const HEADER: Header = {
  resultCount: 0,
  callCount: 0,
  request: undefined,
  prefix: -1,
  template: false,
  position: -1,
  model: undefined,
  attempts: 1,
  reasoning: "",
  usage: undefined as unknown as Usage,
  at: 0,
};

function readHeader(slots: unknown[]): Header {
  const shape = slots[SHAPE] as number;
  let at = FIXED_SLOTS;
  const resultCount = shape & HAS_COUNT ? (slots[at++] as number) : shape >>> COUNT_SHIFT;
  const callCount = shape & HAS_CALL_COUNT ? (slots[at++] as number) : resultCount;
  const kept = (shape & (OWN_REQUEST | TEMPLATE)) !== 0;
  const prefix = kept ? (slots[at++] as number) : -1;
  const position = shape & HAS_POSITION ? (slots[at++] as number) : kept ? 0 : -1;
  const request = slots[REQUEST] as ModelRequest | undefined;
  const template = (shape & TEMPLATE) !== 0;
  const model =
    shape & HAS_MODEL ? (slots[at++] as string) : template ? (request!.model as string) : undefined;
  const attempts = shape & HAS_ATTEMPTS ? (slots[at++] as number) : 1;
  const reasoning = shape & HAS_REASONING ? (slots[at++] as string) : "";
  let usage: Usage;
  if (shape & HAS_USAGE) usage = slots[at++] as Usage;
  else {
    const inputTokens = slots[at++] as number;
    const outputTokens = slots[at++] as number;
    const totalTokens = shape & HAS_TOTAL ? (slots[at++] as number) : inputTokens + outputTokens;
    const noCache = (shape & NO_CACHE_TOKENS) !== 0;
    const cacheReadTokens = shape & HAS_CACHE_READ ? (slots[at++] as number) : noCache ? 0 : undefined;
    const cacheWriteTokens = shape & HAS_CACHE_WRITE ? (slots[at++] as number) : noCache ? 0 : undefined;
    // As `addUsage` (finish-run.ts) makes it.
    usage =
      cacheReadTokens !== undefined && cacheWriteTokens !== undefined
        ? { inputTokens, outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens }
        : { inputTokens, outputTokens, totalTokens };
    if (cacheReadTokens !== undefined) usage.cacheReadTokens = cacheReadTokens;
    if (cacheWriteTokens !== undefined) usage.cacheWriteTokens = cacheWriteTokens;
  }
  const header = HEADER;
  header.resultCount = resultCount;
  header.callCount = callCount;
  header.request = request;
  header.prefix = prefix;
  header.template = template;
  header.position = position;
  header.model = model;
  header.attempts = attempts;
  header.reasoning = reasoning;
  header.usage = usage;
  header.at = at;
  return header;
}

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
 * One list of keys per depth, reused by every `sameJson` (which runs for every tool call):
 * reading an object's keys once costs no list per object, and a nested call has its own.
 */
const keyScratch: string[][] = [];

/**
 * Whether two values parsed from JSON (or validated from such) read the same: the same
 * primitives, and lists and plain objects with the same entries, keys in the same order.
 * Allocates nothing once warm (it runs for every tool call of a run).
 */
function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth > 64) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const prototype = Object.getPrototypeOf(a);
  if ((prototype !== Object.prototype && prototype !== null) || Object.getPrototypeOf(b) !== prototype)
    return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // The right's keys, in order, into this depth's scratch list (kept for the next call).
  let keys = keyScratch[depth];
  if (keys === undefined) {
    keys = [];
    keyScratch[depth] = keys;
  }
  let size = 0;
  for (const key in right) keys[size++] = key;
  let count = 0;
  let same = true;
  for (const key in left) {
    if (count >= size || keys[count] !== key || !sameJson(left[key], right[key], depth + 1)) {
      same = false;
      break;
    }
    count++;
  }
  // A very wide object's keys are not kept past the call.
  if (size > 256) keyScratch[depth] = [];
  return same && count === size;
}

/**
 * The arguments a result keeps: the model's own parsed arguments (which the transcript holds
 * already) when the ones the tool ran with read the same after it ran, so a parked run does
 * not hold a validated copy of every call's arguments; else the ones it ran with.
 */
function keptArgs(call: ModelToolCall | undefined, args: unknown): unknown {
  if (call === undefined || !call.argsParsed || call.args === args || typeof args !== "object") return args;
  return sameJson(call.args, args) ? call.args : args;
}

/**
 * The length of the transcript prefix a step's request sent as its history, or -1 when it
 * is kept as it is: only a request whose history was the transcript as it was (its
 * baseline: no patch, no feedback appended) that nothing outside the loop was handed (no
 * hook on the model's requests or responses, no telemetry), so nothing else reads its list
 * before the run ends.
 */
function prefixLength(state: RunState, requested: Extract<StepRequestOutcome, { kind: "turn" }>): number {
  const request = requested.request;
  const messages = request.messages;
  // A `model_error` hook is handed only failed requests, which have a history of their own.
  const watched =
    state.telemetry !== undefined ||
    state.runner.wants("model_request") ||
    state.runner.wants("model_response");
  if (messages === state.messages) {
    // The live transcript (the run's last request, sent as it was): its first messages.
    if (!watched && state.lastRequest === request) return state.sentLength;
    detachHistory(state, request);
    return -1;
  }
  if (
    watched ||
    messages !== requested.sent ||
    messages.length > state.messages.length ||
    messages[messages.length - 1] !== state.messages[messages.length - 1]
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

/**
 * Gives a request whose history is the live transcript (`request-step.ts` builds it so when
 * nothing else reads it) a list of its own: the messages it sent. Before anything outside
 * the loop is handed it, and before it is recorded in `state.requests`.
 */
export function detachHistory(state: Pick<RunState, "messages" | "sentLength">, request: ModelRequest): void {
  if (request.messages === state.messages) setHistory(request, "messages", state.messages, state.sentLength);
}

/** Records a request the run sends (`state.requests`, in order, once the run settles its steps). */
export function recordRequest(state: RunState, request: ModelRequest): void {
  const last = state.lastRequest;
  if (last !== undefined) {
    detachHistory(state, last);
    ownRequests(state).push(last);
  }
  state.lastRequest = request;
  if (request.messages === state.messages) state.sentLength = state.messages.length;
}

/**
 * What a request kept as a prefix is rebuilt from when it is the same but for its step,
 * attempt, model and history: one per tool list (one per agent), shared by the agent's runs,
 * which then keep no request of their own.
 */
const sharedTemplates = new WeakMap<readonly ToolSpec[], ModelRequest>();

/**
 * The template of `request`: the request the previous unsettled step kept (its own, or its
 * template), else its agent's shared one.
 */
function templateOf(state: RunState, request: ModelRequest): ModelRequest | undefined {
  const previous = state.lastStep as unknown[] | undefined;
  const kept = previous === undefined ? undefined : (previous[REQUEST] as ModelRequest | undefined);
  if (kept !== undefined) return kept;
  let shared = sharedTemplates.get(request.tools);
  if (shared === undefined && typeof request.model === "string") {
    shared = {
      step: 0,
      attempt: 1,
      system: request.system,
      messages: AS_PREFIX,
      tools: request.tools,
      toolChoice: request.toolChoice,
      model: request.model,
    };
    if (request.temperature !== undefined) shared.temperature = request.temperature;
    if (request.maxOutputTokens !== undefined) shared.maxOutputTokens = request.maxOutputTokens;
    if (request.providerOptions !== undefined) shared.providerOptions = request.providerOptions;
    Object.freeze(shared);
    sharedTemplates.set(request.tools, shared);
  }
  return shared;
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
  // The results' and calls' slots; the header's are counted below.
  let size = resultCount * RESULT_SLOTS;
  let plain = true;
  for (let index = 0; index < resultCount; index++) {
    const result = results[index]!;
    if (result.qualifiedName !== result.toolName) size++;
    if (plain && resultFlags(result, index < callCount ? calls[index] : undefined) !== PLAIN_RESULT)
      plain = false;
  }
  if (!plain) size += resultCount;
  for (let index = 0; index < callCount; index++) {
    const result = results[index];
    if (result === undefined || !isSameCall(calls[index]!, result)) size += CALL_SLOTS;
  }
  const prefix = prefixLength(state, requested);
  let shape = 0;
  let kept: ModelRequest | undefined;
  let position = -1;
  if (prefix >= 0) {
    // Its history is read from the transcript when the step settles. The run's last
    // request waits there too, outside `state.requests`; after the run's first, one that
    // is the first's but for its step, attempt and model is rebuilt from it then.
    const template = templateOf(state, request);
    if (state.lastRequest === request) {
      state.lastRequest = undefined;
      position = state.requests.length;
    }
    if (template !== undefined && position !== -1 && sameBaseline(request, template)) {
      kept = template;
      shape |= TEMPLATE;
      if (request.model !== template.model) shape |= HAS_MODEL;
    } else {
      kept = request;
      shape |= OWN_REQUEST;
      request.messages = AS_PREFIX;
    }
    if (position !== 0) shape |= HAS_POSITION;
    // The token meter reads the history it measured from the transcript too.
    state.meter.observedAsPrefix(requested.sent, state.messages);
  }
  if (resultCount < INLINE_COUNT) shape |= resultCount << COUNT_SHIFT;
  else shape |= HAS_COUNT;
  if (callCount !== resultCount) shape |= HAS_CALL_COUNT;
  if (plain && resultCount > 0) shape |= PLAIN_RESULTS;
  const attempts = requested.attempts;
  if (attempts !== 1) shape |= HAS_ATTEMPTS;
  if (turn.reasoning !== "") shape |= HAS_REASONING;
  const reported = turn.usage;
  const inputTokens = reported.inputTokens ?? 0;
  const outputTokens = reported.outputTokens ?? 0;
  const totalTokens = reported.totalTokens ?? inputTokens + outputTokens;
  if (usage !== undefined) shape |= HAS_USAGE;
  else {
    if (totalTokens !== inputTokens + outputTokens) shape |= HAS_TOTAL;
    if (reported.cacheReadTokens === 0 && reported.cacheWriteTokens === 0) shape |= NO_CACHE_TOKENS;
    else {
      if (reported.cacheReadTokens !== undefined) shape |= HAS_CACHE_READ;
      if (reported.cacheWriteTokens !== undefined) shape |= HAS_CACHE_WRITE;
    }
  }
  let at = FIXED_SLOTS;
  if (shape & HAS_COUNT) at++;
  if (shape & HAS_CALL_COUNT) at++;
  if (prefix >= 0) at++;
  if (shape & HAS_POSITION) at++;
  if (shape & HAS_MODEL) at++;
  if (shape & HAS_ATTEMPTS) at++;
  if (shape & HAS_REASONING) at++;
  if (shape & HAS_USAGE) at++;
  else
    at +=
      2 + (shape & HAS_TOTAL ? 1 : 0) + (shape & HAS_CACHE_READ ? 1 : 0) + (shape & HAS_CACHE_WRITE ? 1 : 0);
  const slots: unknown[] = new Array(at + size);
  slots[PREVIOUS] = state.lastStep;
  slots[SHAPE] = shape;
  slots[REQUEST] = kept;
  slots[INDEX] = state.step;
  slots[TEXT] = turn.text;
  slots[FINISH_REASON] = turn.finishReason;
  at = FIXED_SLOTS;
  if (shape & HAS_COUNT) slots[at++] = resultCount;
  if (shape & HAS_CALL_COUNT) slots[at++] = callCount;
  if (prefix >= 0) slots[at++] = prefix;
  if (shape & HAS_POSITION) slots[at++] = position;
  if (shape & HAS_MODEL) slots[at++] = request.model;
  if (shape & HAS_ATTEMPTS) slots[at++] = attempts;
  if (shape & HAS_REASONING) slots[at++] = turn.reasoning;
  if (usage !== undefined) slots[at++] = usage;
  else {
    slots[at++] = inputTokens;
    slots[at++] = outputTokens;
    if (shape & HAS_TOTAL) slots[at++] = totalTokens;
    if (shape & HAS_CACHE_READ) slots[at++] = reported.cacheReadTokens;
    if (shape & HAS_CACHE_WRITE) slots[at++] = reported.cacheWriteTokens;
  }
  for (let index = 0; index < resultCount; index++) {
    const result = results[index]!;
    const call = index < callCount ? calls[index]! : undefined;
    const qualifiedAsName = result.qualifiedName === result.toolName;
    if (!plain) slots[at++] = resultFlags(result, call);
    slots[at] = result.toolCallId;
    slots[at + 1] = result.toolName;
    slots[at + 2] = keptArgs(call, result.args);
    slots[at + 3] = result.result;
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

/**
 * Before the loop changes the transcript other than by appending to it (a transcript edit,
 * a rewritten final answer): the steps kept as slots are settled, and the token meter and
 * the histories that are views of the transcript keep what it holds now.
 */
export function beforeTranscriptChange(state: RunState): void {
  settleSteps(state);
  state.meter.detach();
  beforeTranscriptEdit(state.messages);
}

/** The last committed step's finish reason and usage (a streamed run's `step-finish`). */
export function lastStepFinish(state: RunState): { finishReason: string; usage: Usage } {
  const step = state.lastStep as unknown[] | undefined;
  if (step === undefined) return state.steps[state.steps.length - 1]!;
  return { finishReason: step[FINISH_REASON] as string, usage: readHeader(step).usage };
}

/** How many steps the run committed, settled or not. */
export function stepCount(state: RunState): number {
  let count = state.steps.length;
  for (let step = state.lastStep as unknown[] | undefined; step !== undefined; step = step[PREVIOUS] as never)
    count++;
  return count;
}

/** What settling reads and writes: a run's state, or what a finished run's result keeps of it. */
type Settling = Pick<RunState, "lastStep" | "lastRequest" | "steps" | "requests" | "messages" | "sentLength">;

/**
 * Makes every step kept as slots (`keepStep`) its record: its `toolCalls`, `toolResults`,
 * usage, and its request (rebuilt, or its history). Before a suspension carries the steps,
 * when a result's are read (`settleWhenRead`), and before the transcript changes other than
 * by growing (`beforeTranscriptChange`).
 */
export function settleSteps(state: Settling): void {
  // The chain runs from the last step back: its steps in order, then each made its record.
  const chain: unknown[][] = [];
  for (let step = state.lastStep as unknown[] | undefined; step !== undefined; step = step[PREVIOUS] as never)
    chain.push(step);
  state.lastStep = undefined;
  if (chain.length === 0 && state.lastRequest === undefined) return;
  const steps = ownSteps(state);
  const requests = ownRequests(state);
  let inserted = 0;
  for (let link = chain.length - 1; link >= 0; link--) {
    const slots = chain[link]!;
    const header = readHeader(slots);
    const { resultCount, callCount, prefix } = header;
    const kept = header.request;
    let request = kept;
    if (header.template) {
      // The fields in the order the baseline request has them.
      request = {
        step: slots[INDEX] as number,
        attempt: header.attempts,
        system: kept!.system,
        messages: AS_PREFIX,
        tools: kept!.tools,
        toolChoice: kept!.toolChoice,
        model: header.model!,
      };
      if (kept!.temperature !== undefined) request.temperature = kept!.temperature;
      if (kept!.maxOutputTokens !== undefined) request.maxOutputTokens = kept!.maxOutputTokens;
      if (kept!.providerOptions !== undefined) request.providerOptions = kept!.providerOptions;
    }
    // Its history: a long one is a view of the transcript, made a list when read.
    if (request !== undefined) setHistory(request, "messages", state.messages, prefix);
    const position = header.position;
    if (position >= 0) {
      // Most go at the end (every request of a run that no hook watches): no splice then.
      const place = position + inserted++;
      if (place === requests.length) requests.push(request!);
      else requests.splice(place, 0, request!);
    }
    const toolResults: ToolResultRecord[] = new Array(resultCount);
    const toolCalls: StepRecord["toolCalls"] = new Array(callCount);
    let at = header.at;
    const plain = ((slots[SHAPE] as number) & PLAIN_RESULTS) !== 0;
    for (let index = 0; index < resultCount; index++) {
      const flags = plain ? PLAIN_RESULT : (slots[at++] as number);
      const toolCallId = slots[at] as string;
      const toolName = slots[at + 1] as string;
      const args = slots[at + 2];
      const result = slots[at + 3];
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
      reasoning: header.reasoning,
      toolCalls,
      toolResults,
      finishReason: slots[FINISH_REASON] as string,
      usage: header.usage,
      attempts: header.attempts,
    });
  }
  // The shared header holds nothing of this run past its settling.
  HEADER.request = undefined;
  // The run's last request, after every request before it.
  if (state.lastRequest !== undefined) {
    detachHistory(state, state.lastRequest);
    requests.push(state.lastRequest);
    state.lastRequest = undefined;
  }
}

/** What a finished run's result keeps of it until its steps are read (`settleWhenRead`). */
interface Unsettled extends Settling {
  /** What the transcript's views read, for a transcript long enough to have them. */
  source: Source | undefined;
}

/** The result's own hidden field holding its `Unsettled` (not enumerable: no copy, JSON or equality sees it). */
const UNSETTLED = Symbol("hookwise.unsettledSteps");

interface PendingResult {
  steps: StepRecord[];
  requests: ModelRequest[];
  [UNSETTLED]?: Unsettled | undefined;
}

/**
 * Adds a finished run's `result.steps` and `result.requests` (new fields: an accessor defined
 * over an existing field makes the object a dictionary): the run's lists when every step
 * is settled, else accessors that settle the steps when either is first read (then both are
 * plain properties again). A result whose steps and requests nobody reads makes no record,
 * request or history for them. The accessors are the same functions for every result, and
 * what they settle is in a hidden field: with accessors closing over each result, results
 * outlived young-generation collections (a full collection every few thousand runs; none
 * with shared ones). The histories read
 * the transcript as it is now: a short one copied (one list instead of one per request), a
 * long one as its views do (appended to later, or copied by the loop before it is edited).
 */
export function settleWhenRead(result: PendingResult, state: RunState): void {
  if (state.lastStep === undefined && state.lastRequest === undefined) {
    result.steps = ownSteps(state);
    result.requests = ownRequests(state);
    return;
  }
  // A last request no step kept may send the live transcript itself: its own history now.
  if (state.lastRequest !== undefined) detachHistory(state, state.lastRequest);
  const long = state.messages.length >= VIEW_FROM;
  const unsettled: Unsettled = {
    lastStep: state.lastStep,
    lastRequest: state.lastRequest,
    steps: state.steps,
    requests: state.requests,
    messages: long ? state.messages : state.messages.slice(),
    sentLength: state.sentLength,
    source: long ? sourceOf(state.messages) : undefined,
  };
  Object.defineProperty(result, UNSETTLED, HIDDEN);
  result[UNSETTLED] = unsettled;
  Object.defineProperty(result, "steps", STEPS_WHEN_READ);
  Object.defineProperty(result, "requests", REQUESTS_WHEN_READ);
}

/** Settles what `settleWhenRead` kept into `result.steps` and `result.requests` (plain properties). */
function settleResult(result: PendingResult): void {
  const unsettled = result[UNSETTLED];
  if (unsettled === undefined) return;
  result[UNSETTLED] = undefined;
  if (unsettled.source !== undefined) unsettled.messages = unsettled.source.messages as ModelMessage[];
  settleSteps(unsettled);
  settleHistory(result, "steps", ownSteps(unsettled));
  settleHistory(result, "requests", ownRequests(unsettled));
}

/** The hidden field (a shared descriptor: defining it allocates nothing). */
const HIDDEN: PropertyDescriptor = {
  configurable: true,
  writable: true,
  enumerable: false,
  value: undefined,
};

const STEPS_WHEN_READ: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: PendingResult) {
    settleResult(this);
    return this.steps;
  },
  set(this: PendingResult, value: StepRecord[]) {
    settleResult(this);
    settleHistory(this, "steps", value);
  },
};

const REQUESTS_WHEN_READ: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: PendingResult) {
    settleResult(this);
    return this.requests;
  },
  set(this: PendingResult, value: ModelRequest[]) {
    settleResult(this);
    settleHistory(this, "requests", value);
  },
};

// Long histories as views. A run's result and its requests each carry a history: the
// transcript's first messages. Copied when the run ends, a long session would cost a copy
// of its whole transcript per request of every run (quadratic in the session's runs, and
// in a long run's steps). A long history is instead a view of the transcript, its list
// made when it is first read. That stays true because the loop only appends to a
// transcript, except where it edits one in place (a transcript edit, a rewritten final
// answer), and there it calls `beforeTranscriptChange` first: the views made so far then
// read a copy of the transcript as it was. A store hands each run a transcript of its own,
// or, when it lends one (a replay), lends it to one run at a time, which edits it only
// through the loop as well.

/** Histories shorter than this are copied at once: a view costs more than the copy. */
const VIEW_FROM = 64;

/** What a transcript's views read: the transcript, or a copy of it as it was before an edit. */
interface Source {
  messages: readonly ModelMessage[];
}

const sources = new WeakMap<readonly ModelMessage[], Source>();

/**
 * Sets `target[key]` to the first `length` messages of `transcript`: a list of its own,
 * made now when short, else when the property is first read (then it is a plain property
 * again). Assigning the property replaces the view. Enumerable: JSON, spreads, clones and
 * equality read the list as they would a copy.
 */
export function setHistory<K extends string>(
  target: { [key in K]: readonly ModelMessage[] },
  key: K,
  transcript: readonly ModelMessage[],
  length: number,
): void {
  if (length < VIEW_FROM) {
    target[key] = transcript.slice(0, length);
    return;
  }
  const read = sourceOf(transcript);
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = read.messages.slice(0, length);
      settleHistory(target, key, value);
      return value;
    },
    set(value: ModelMessage[]) {
      settleHistory(target, key, value);
    },
  });
}

/** What views of `transcript` read (registered on first use). */
function sourceOf(transcript: readonly ModelMessage[]): Source {
  let source = sources.get(transcript);
  if (source === undefined) {
    source = { messages: transcript };
    sources.set(transcript, source);
  }
  return source;
}

function settleHistory(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { configurable: true, enumerable: true, writable: true, value });
}

/**
 * Before the loop changes `transcript` other than by appending: the views made of it so far
 * keep reading what it holds now (one copy, only when there are views).
 */
function beforeTranscriptEdit(transcript: readonly ModelMessage[]): void {
  const source = sources.get(transcript);
  if (source === undefined) return;
  source.messages = transcript.slice();
  sources.delete(transcript);
}
