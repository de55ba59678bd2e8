/**
 * A step's tool calls as one atomic batch, at any `toolConcurrency`. On the
 * first terminate (or an invalid-call retry): start no new call, let in-flight calls
 * drain, report the lowest call index's reason, and commit nothing of the batch.
 * A call that awaits approval does not stop its siblings: each gets its own decision, and
 * calls not yet started are decided but deferred, so the batch suspends with every
 * pending approval listed and resumes in call order. Nothing is committed
 * until `resume` settles the batch.
 */

import type { ModelToolCall } from "../../models/language-model.js";
import type { RunState } from "../run-state.js";
import type { LoopRuntime } from "../types.js";
import { type CallControl, type Resolution, resolveCall, runToolCall } from "./run-tool-call.js";
import type { CallOutcome, PendingCall } from "./types.js";

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
  runtime: LoopRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
): Resolved | Promise<Resolved> {
  // Sized once (a list grown by pushes reserves room for 16 at the first).
  const resolutions: Resolution[] = new Array(calls.length);
  for (let index = 0; index < calls.length; index++) {
    if (state.signal.aborted) {
      resolutions.length = index;
      break;
    }
    const resolution = resolveCall(runtime, state, calls[index]!);
    if (resolution instanceof Promise) {
      resolutions.length = index;
      return resolveRest(runtime, state, calls, resolutions, index, resolution);
    }
    if (stops(resolution)) return resolution.outcome;
    resolutions[index] = resolution;
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
  runtime: LoopRuntime,
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

type BatchEnd = Exclude<BatchOutcome, { kind: "retry" }>;

/** Synchronous while every call is (a sequential batch of synchronous tools with no hook awaiting). */
export function runToolBatch(
  runtime: LoopRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
  resolutions: readonly Resolution[],
): BatchEnd | Promise<BatchEnd> {
  const width = Math.max(1, Math.min(runtime.toolConcurrency, calls.length));
  const batch = new Batch(calls.length, width > 1);
  if (width === 1) {
    // One call at a time: a plain loop (no worker closure, no Promise.all, no await while
    // calls answer synchronously).
    for (let index = 0; !batch.stopped && index < calls.length; index++) {
      const outcome = runToolCall(runtime, state, calls[index]!, batch.control, resolutions[index]);
      if (outcome instanceof Promise)
        return sequentialRest(runtime, state, calls, resolutions, batch, index, outcome);
      batch.record(index, outcome);
    }
    return batch.end();
  }
  return concurrentBatch(runtime, state, calls, resolutions, batch, width);
}

/** `width` workers taking calls in order (a function of its own: its closure would cost every batch). */
function concurrentBatch(
  runtime: LoopRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
  resolutions: readonly Resolution[],
  batch: Batch,
  width: number,
): Promise<BatchEnd> {
  let next = 0;
  const worker = async () => {
    while (!batch.stopped && next < calls.length) {
      const index = next++;
      batch.record(
        index,
        await runToolCall(runtime, state, calls[index]!, batch.control, resolutions[index]),
      );
    }
  };
  return Promise.all(Array.from({ length: width }, worker)).then(() => batch.end());
}

/** The rest of a sequential batch once a call answered with a promise. */
async function sequentialRest(
  runtime: LoopRuntime,
  state: RunState,
  calls: readonly ModelToolCall[],
  resolutions: readonly Resolution[],
  batch: Batch,
  from: number,
  pending: Promise<CallOutcome>,
): Promise<BatchEnd> {
  batch.record(from, await pending);
  for (let index = from + 1; !batch.stopped && index < calls.length; index++)
    batch.record(index, await runToolCall(runtime, state, calls[index]!, batch.control, resolutions[index]));
  return batch.end();
}

/** One batch's outcomes in call order, and whether it stopped (terminate) or suspends (approval). */
class Batch implements CallControl {
  readonly outcomes: (CallOutcome | undefined)[];
  stopped = false;
  suspending = false;

  constructor(
    size: number,
    readonly concurrent: boolean,
  ) {
    this.outcomes = new Array(size);
  }

  /** The batch is its calls' control: a call about to start is deferred once a sibling awaits approval. */
  defer(): boolean {
    return this.suspending;
  }

  get control(): CallControl {
    return this;
  }

  record(index: number, outcome: CallOutcome): void {
    this.outcomes[index] = outcome;
    if (outcome.kind === "pending") this.suspending = true;
    else if (outcome.kind !== "result") this.stopped = true;
  }

  end(): BatchEnd {
    if (this.stopped) {
      // Calls arrive resolved, so only a terminate stops the batch here. Outcomes are in
      // call-index order: the first terminate is the lowest index's.
      const terminate = this.outcomes.find(
        (outcome): outcome is Extract<CallOutcome, { kind: "terminate" }> => outcome?.kind === "terminate",
      );
      if (terminate) return terminate;
    }
    if (this.suspending) {
      return {
        kind: "suspend",
        outcomes: this.outcomes as (Extract<CallOutcome, { kind: "result" }> | PendingCall)[],
      };
    }
    return { kind: "committed", results: this.outcomes as Extract<CallOutcome, { kind: "result" }>[] };
  }
}
