/**
 * A committed step, kept light while the run goes on. What only the run's result needs —
 * the step record's `toolCalls` and `toolResults`, and the history its request sent — is
 * kept as one list of slots of exactly its size, held by the record itself (in
 * `toolResults`, `toolCalls` marking it unsettled), and made into the result's lists by
 * `settleSteps` when the run ends or suspends, or before the transcript changes other than
 * by growing. A long run in flight then holds no object per call and no copy of its
 * history per step.
 *
 * Slots of a step: [resultCount, callCount, request | undefined, prefixLength,
 * …6 per result, …3 per call whose result does not name it].
 */
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import type { CallOutcome } from "./batch/types.js";
import type { StepRecord, ToolResultRecord } from "./run-result.js";
import type { RunState } from "./run-state.js";
import type { StepRequestOutcome } from "./types.js";

/** A step record's `toolCalls` until `settleSteps` made them (shared: nothing writes to it). */
export const UNSETTLED: never[] = Object.freeze([]) as unknown as never[];
/** What a request's `messages` read while its history is kept as a prefix of the transcript. */
const AS_PREFIX: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

const HEADER_SLOTS = 4;
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
 * A step's calls and results (none when `commit` is false) and its request's history as
 * slots: the record's `toolResults` while its `toolCalls` is `UNSETTLED`. Called before the
 * step's messages are added to the transcript.
 */
export function keepStep(
  state: RunState,
  requested: Extract<StepRequestOutcome, { kind: "turn" }>,
  results: Extract<CallOutcome, { kind: "result" }>[],
  commit: boolean,
): never[] {
  const calls = requested.turn.toolCalls;
  const resultCount = commit ? results.length : 0;
  const callCount = commit ? calls.length : 0;
  let callSlots = 0;
  for (let index = 0; index < callCount; index++) {
    const result = results[index];
    if (result === undefined || !isSameCall(calls[index]!, result)) callSlots += CALL_SLOTS;
  }
  const prefix = prefixLength(state, requested);
  const slots: unknown[] = new Array(HEADER_SLOTS + resultCount * RESULT_SLOTS + callSlots);
  slots[0] = resultCount;
  slots[1] = callCount;
  slots[2] = prefix < 0 ? undefined : requested.request;
  slots[3] = prefix;
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
  if (prefix >= 0) requested.request.messages = AS_PREFIX;
  return slots as never[];
}

/**
 * Makes the lists of every step kept as slots (`keepStep`): its `toolCalls`,
 * `toolResults` and its request's history. Before a result or a suspension carries the
 * steps, and before the transcript changes other than by growing.
 */
export function settleSteps(state: RunState): void {
  const { steps } = state;
  for (let step = state.settledSteps; step < steps.length; step++) {
    const record = steps[step]!;
    if (record.toolCalls !== UNSETTLED) continue;
    const slots = record.toolResults as unknown[];
    const resultCount = slots[0] as number;
    const callCount = slots[1] as number;
    const request = slots[2] as ModelRequest | undefined;
    if (request !== undefined) request.messages = state.messages.slice(0, slots[3] as number);
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
    record.toolCalls = toolCalls;
    record.toolResults = toolResults;
  }
  state.settledSteps = steps.length;
}
