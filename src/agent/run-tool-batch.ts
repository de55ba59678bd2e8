/**
 * A step's tool calls as one atomic batch (DESIGN §5), at any `toolConcurrency`. On the
 * first terminate (or an invalid-call retry): start no new call, let in-flight calls
 * drain, report the lowest call index's reason, and commit nothing of the batch.
 * A call that awaits approval does not stop its siblings: each gets its own decision, and
 * calls not yet started are decided but deferred, so the batch suspends with every
 * pending approval listed and resumes in call order (DESIGN §7b). Nothing is committed
 * until `resume` settles the batch.
 */
import type { ModelToolCall } from "../models/language-model.js";
import type { AgentRuntime } from "./agent-runtime.js";
import type { RunState } from "./run-state.js";
import {
  type CallOutcome,
  type PendingCall,
  type Resolution,
  resolveCall,
  runToolCall,
} from "./run-tool-call.js";

export type BatchOutcome =
  | { kind: "committed"; results: Extract<CallOutcome, { kind: "result" }>[] }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "retry"; feedback: string; hook: string }
  | { kind: "suspend"; outcomes: (Extract<CallOutcome, { kind: "result" }> | PendingCall)[] };

type Resolved =
  | { kind: "resolved"; resolutions: Resolution[] }
  | Extract<BatchOutcome, { kind: "terminate" | "retry" }>;

/**
 * Finds and checks every call of the batch (invalid_tool_call recovery included) before any
 * runs, so a retry or terminate decided there stops the batch before any tool body ran.
 * Synchronous when every call is valid (no recovery to await).
 */
export function resolveBatch(
  runtime: AgentRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
): Resolved | Promise<Resolved> {
  const resolutions: Resolution[] = [];
  for (let index = 0; index < calls.length; index++) {
    if (state.signal.aborted) break;
    const resolution = resolveCall(runtime, state, calls[index]!);
    if (resolution instanceof Promise)
      return resolveRest(runtime, state, calls, resolutions, index, resolution);
    if (stops(resolution)) return resolution.outcome;
    resolutions.push(resolution);
  }
  return { kind: "resolved", resolutions };
}

function stops(
  resolution: Resolution,
): resolution is { ok: false; outcome: Extract<CallOutcome, { kind: "terminate" | "retry" }> } {
  return !resolution.ok && (resolution.outcome.kind === "terminate" || resolution.outcome.kind === "retry");
}

/** The rest of `resolveBatch` once a call needs recovery (awaited, in call order). */
async function resolveRest(
  runtime: AgentRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
  resolutions: Resolution[],
  from: number,
  pending: Promise<Resolution>,
): Promise<Resolved> {
  for (let index = from; index < calls.length; index++) {
    if (index > from && state.signal.aborted) break;
    const resolution = index === from ? await pending : await resolveCall(runtime, state, calls[index]!);
    if (stops(resolution)) return resolution.outcome;
    resolutions.push(resolution);
  }
  return { kind: "resolved", resolutions };
}

export async function runToolBatch(
  runtime: AgentRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
  resolutions: readonly Resolution[],
): Promise<Exclude<BatchOutcome, { kind: "retry" }>> {
  const outcomes: (CallOutcome | undefined)[] = new Array(calls.length);
  let next = 0;
  let stopped = false;
  let suspending = false;
  const width = Math.max(1, Math.min(runtime.toolConcurrency, calls.length));
  const control = { defer: () => suspending, concurrent: width > 1 };
  const record = (index: number, outcome: CallOutcome) => {
    outcomes[index] = outcome;
    if (outcome.kind === "pending") suspending = true;
    else if (outcome.kind !== "result") stopped = true;
  };

  if (width === 1) {
    // One call at a time: a plain loop (no worker closure, no Promise.all).
    for (let index = 0; !stopped && index < calls.length; index++)
      record(index, await runToolCall(runtime, state, calls[index]!, control, resolutions[index]));
  } else {
    const worker = async () => {
      while (!stopped && next < calls.length) {
        const index = next++;
        record(index, await runToolCall(runtime, state, calls[index]!, control, resolutions[index]));
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
  }

  if (stopped) {
    // Calls arrive resolved, so only a terminate stops the batch here. Outcomes are in
    // call-index order: the first terminate is the lowest index's.
    const terminate = outcomes.find(
      (outcome): outcome is Extract<CallOutcome, { kind: "terminate" }> => outcome?.kind === "terminate",
    );
    if (terminate) return terminate;
  }
  if (suspending) {
    return {
      kind: "suspend",
      outcomes: outcomes as (Extract<CallOutcome, { kind: "result" }> | PendingCall)[],
    };
  }
  return { kind: "committed", results: outcomes as Extract<CallOutcome, { kind: "result" }>[] };
}
