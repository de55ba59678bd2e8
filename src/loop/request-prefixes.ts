/**
 * A run's requests, kept light while it goes: a request whose history is a prefix of the
 * transcript holds the prefix's length instead of a list of its own until the run ends.
 */
import type { ModelMessage, ModelRequest } from "../events/payloads.js";
import type { RunState } from "./run-state.js";
import type { StepRequestOutcome } from "./types.js";

/** What a request's `messages` read while its list is kept as a prefix of the transcript. */
const AS_PREFIX: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

/**
 * A step's request whose history is the transcript as it was (its baseline: no patch, no
 * feedback appended) is kept as its length, not as a list of its own, until the run ends
 * (`settleRequests`): the transcript only grows meanwhile, and anything that changes it
 * otherwise settles first. Only when nothing outside the loop was handed the request (no
 * hook on the model's events, no telemetry), so nothing else reads its list before then.
 */
export function keepAsPrefix(
  state: RunState,
  requested: Extract<StepRequestOutcome, { kind: "turn" }>,
): void {
  const { request } = requested;
  const messages = request.messages;
  if (
    messages !== requested.sent ||
    state.telemetry !== undefined ||
    messages.length > state.messages.length ||
    messages[messages.length - 1] !== state.messages[messages.length - 1] ||
    state.runner.wants("model_request") ||
    state.runner.wants("model_response") ||
    state.runner.wants("model_error")
  )
    return;
  state.requestPrefixes ??= [];
  state.requestPrefixes.push(request, messages.length);
  request.messages = AS_PREFIX;
}

/**
 * Gives requests kept as transcript prefixes (`keepAsPrefix`) their lists back: before a
 * result carries them, and before the transcript changes other than by growing.
 */
export function settleRequests(state: RunState): void {
  const prefixes = state.requestPrefixes;
  if (prefixes === undefined) return;
  state.requestPrefixes = undefined;
  for (let at = 0; at < prefixes.length; at += 2)
    (prefixes[at] as ModelRequest).messages = state.messages.slice(0, prefixes[at + 1] as number);
}
