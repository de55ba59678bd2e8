/**
 * The drive loop: one loop for `run()` and `stream()` (they differ only in their Surface).
 * session_start → run_start → [step_start → model_request… → model_turn_finished →
 * tool batch → step_end]* → run_end. Decisions (what is next, what is committed) are made
 * here over plain data; hooks are dispatched by the HookRunner.
 */

import { SessionBusyError } from "../errors/session-busy-error.js";
import { SessionNotKeptError } from "../errors/session-not-kept-error.js";
import type { EventPayload, ModelMessage } from "../events/payloads.js";
import { HookRunner } from "../hooks/hook-runner.js";
import type { ModelTurn } from "../models/language-model.js";
import { runIndex } from "../sessions/run-index.js";
import { acquireSessionLease } from "../sessions/session-lease.js";
import { lockSession, releaseSession } from "../sessions/session-lock.js";
import type { SaveSessionOptions, SessionRecord } from "../state/state-store.js";
import { startRunTelemetry } from "../telemetry/run-telemetry.js";
import type { RunSummary } from "../telemetry/types.js";
import { abortError, type RunSignal, runSignal } from "./abortable.js";
import { applyMessageEdits, editsEnd } from "./apply-message-edits.js";
import { assistantParts, retryFeedback } from "./assistant-message.js";
import { Attempt } from "./attempt.js";
import { resolveBatch, runToolBatch } from "./batch/run-tool-batch.js";
import { dispatchEvent, stopOf } from "./dispatch-event.js";
import { endStep } from "./end-step.js";
import { addUsage, commitStep, finishRun } from "./finish-run.js";
import { flatUuid } from "./flat-uuid.js";
import { LoopState } from "./loop-state.js";
import { firstAnswered, firstFailed, requestStep, sendFirst } from "./request-step.js";
import { type RunInput, type SplitInput, splitInput, userMessage } from "./run-input.js";
import { createRunMeter } from "./run-meter.js";
import type { AgentEvent, RunResult } from "./run-result.js";
import { type ApprovalFlow, contextFor, type GoverningRegistry, type RunState } from "./run-state.js";
import { stepCount } from "./step-slots.js";
import { checkAnswer, OutputValidationError, outputFeedback } from "./structured-output.js";
import type { Surface } from "./surface.js";
import { PromptBuilder } from "./to-prompt.js";
import type { LoopRuntime, RunEnd, RunOptions, StepRequestOutcome } from "./types.js";

/** A suspended run being resumed: built by approvals/resume-run.ts, which settles its pending step. */
export interface ResumePoint {
  readonly runId: string;
  readonly sessionId: string;
  /** The suspended run was given no sessionId (its session is kept for the one-shot time). */
  readonly oneShot: boolean;
  /** The suspended run's span, when telemetry recorded it (the resumed run's span links to it). */
  readonly suspendedSpan?: { traceId: string; spanId: string } | undefined;
  /** Puts the saved transcript, steps, trace and usage back into the new run state. */
  restore(state: RunState): void;
  /** Settles the pending batch, commits the step, and continues with `runSteps`. */
  settle(state: RunState, surface: Surface): Promise<RunEnd>;
}

/** A top-level run's lineage: its agent path and the registries it dispatches to. */
interface Lineage {
  readonly agentPath: readonly string[];
  readonly registries: readonly GoverningRegistry[];
}

/** Made once per agent and shared by its top-level runs (both are read, never written). */
const lineages = new WeakMap<LoopRuntime, Lineage>();

function lineageOf(runtime: LoopRuntime): Lineage {
  let lineage = lineages.get(runtime);
  if (lineage === undefined) {
    lineage = {
      agentPath: Object.freeze([runtime.name]),
      registries: Object.freeze([Object.freeze({ registry: runtime.registry, depth: 0 })]),
    };
    lineages.set(runtime, lineage);
  }
  return lineage;
}

export function drive(
  runtime: LoopRuntime,
  runInput: RunInput,
  options: RunOptions,
  surface: Surface,
  /** Asks for approvals and suspends the run: approvals/ implements it (see `ApprovalFlow`). */
  approvals: ApprovalFlow,
  agentPath: readonly string[] = lineageOf(runtime).agentPath,
  /** A sub-agent's run: the registries governing its parent (their owners' depths in agentPath). */
  inherited: readonly GoverningRegistry[] = [],
  /** A suspended run continuing (approvals/resume-run.ts): its identity, saved state and pending step. */
  resumed?: ResumePoint,
): Promise<RunResult> {
  return driveOpen(
    runtime,
    surface,
    approvals,
    resumed,
    openRun(runtime, runInput, options, surface, approvals, agentPath, inherited, resumed),
  );
}

/**
 * The run once `opening` (its set-up) is done, to its end. This frame waits for the whole
 * run, and a new run's steps are taken in it: it holds as little as it can (the set-up is
 * `openRun`'s, the end `closeRun`'s and `releaseRun`'s), each slot of it costing every
 * parked run its heap.
 */
async function driveOpen(
  runtime: LoopRuntime,
  surface: Surface,
  approvals: ApprovalFlow,
  resumed: ResumePoint | undefined,
  opening: OpenRun | Promise<OpenRun>,
): Promise<RunResult> {
  // Awaited even when the set-up was synchronous: the run's steps start after `run()` returned.
  const open = await opening;
  try {
    const state = open.state;
    let end: RunEnd | undefined;
    try {
      end = resumed
        ? await resumed.settle(state, surface)
        : open.existed
          ? await approvals.waiting(runtime, state)
          : undefined;
      const hooked =
        end === undefined
          ? startRun(runtime, state, surface, !open.existed && state.messages.length === 0)
          : undefined;
      if (hooked !== undefined) end = await hooked;
      else if (end === undefined) {
        // The common path takes its steps here, as `runSteps` does: a run waiting on its
        // model then keeps one frame of its own (this one), not two.
        const cursor: StepCursor = { text: "", ephemeral: NO_EPHEMERAL };
        for (let step = 0; end === undefined; step++) {
          if (step >= runtime.maxSteps) {
            end = maxStepsEnd(runtime, cursor.text);
            break;
          }
          const begun = beginStep(runtime, state, surface, step, cursor);
          let requested: StepRequestOutcome | RunEnd;
          if (begun instanceof Attempt) {
            let turn: ModelTurn | undefined;
            let failure: { error: unknown } | undefined;
            try {
              turn = surface.turnOf(await sendFirst(runtime, begun));
            } catch (error) {
              failure = { error };
            }
            requested = failure
              ? await firstFailed(runtime, begun, cursor.ephemeral, failure.error)
              : firstAnswered(runtime, begun, turn!);
          } else requested = await begun;
          if ("outcome" in requested) end = requested;
          else {
            const after = afterRequest(runtime, state, surface, step, cursor, requested);
            end = after instanceof Promise ? await after : after;
            if (end === undefined) letGo(requested);
          }
        }
      }
    } catch (error) {
      end = {
        outcome: "error",
        text: "",
        reason: error instanceof Error ? error.message : String(error),
        error: error as Error,
      };
    }
    return await closeRun(runtime, open, surface, end);
  } finally {
    const releasing = releaseRun(runtime, open);
    if (releasing) await releasing;
  }
}

/** What a run holds from its set-up to its end (what `releaseRun` releases, what `closeRun` saves). */
class OpenRun {
  // Read from the prototype's defaults (below) until the set-up writes its own: a run
  // without a lease or a signal of its own holds no field for them.
  declare lease: Awaited<ReturnType<typeof acquireSessionLease>> | undefined;
  declare signal: RunSignal | undefined;
  declare state: RunState;
  declare session: SessionRecord;
  /** Whether the session was stored before (a new session's first run fires `session_start` unless it was given messages). */
  declare existed: boolean;
  /** A top-level run that is not resumed, of an agent asked what to commit with it (`LoopRuntime.onCommit`). */
  declare commit: { startedAt: number; input: string } | undefined;

  constructor(
    readonly sessionId: string,
    /**
     * A session the agent named itself (no sessionId given): `fresh`, not kept by a store
     * that keeps no such session; `resumed` (its run waited for an approval), kept for the
     * one-shot time on every store; false: the caller's.
     */
    readonly oneShot: "fresh" | "resumed" | false,
  ) {}
}

Object.assign(OpenRun.prototype, { lease: undefined, signal: undefined, existed: false, commit: undefined });

/**
 * A commit refused because another run committed first, when this run's lease was taken
 * while it ran: the error says so (the process was paused past the lease), not only that
 * the session is busy.
 */
function leaseLost(open: OpenRun, error: unknown): unknown {
  if (!open.lease?.lost || !SessionBusyError.isInstance(error) || error.reason !== "changed") return error;
  return new SessionBusyError({
    reason: "changed",
    sessionId: open.sessionId,
    message: `session "${open.sessionId}" was taken by another run while this one ran: this run's lease lapsed (its process was paused or blocked for longer than the lease lasts) and the other run committed first, so this run's messages were not saved; run it again, or give runs a longer lease (sessions.leaseMs)`,
  });
}

/**
 * The run's signal, its session's lease and its turn, given back (after its end, or a failed
 * set-up). A promise only while a lease is given back (a run without one has nothing to await).
 */
function releaseRun(runtime: LoopRuntime, open: OpenRun): Promise<void> | undefined {
  open.signal?.release();
  if (open.lease) return releaseLease(runtime, open, open.lease);
  releaseSession(runtime, open.sessionId);
  return undefined;
}

async function releaseLease(
  runtime: LoopRuntime,
  open: OpenRun,
  lease: NonNullable<OpenRun["lease"]>,
): Promise<void> {
  try {
    await lease.release();
  } finally {
    releaseSession(runtime, open.sessionId);
  }
}

/**
 * The run's set-up: its turn in the session, then (`setUp`) the lease, its signal, the
 * stored session and its state. What it could take is given back if the set-up fails.
 * Synchronous when nothing in it waits (a session this run named itself, its turn not
 * queued); a failure is always a rejection, never a throw.
 */
function openRun(
  runtime: LoopRuntime,
  runInput: RunInput,
  options: RunOptions,
  surface: Surface,
  approvals: ApprovalFlow,
  agentPath: readonly string[],
  inherited: readonly GoverningRegistry[],
  resumed: ResumePoint | undefined,
): OpenRun | Promise<OpenRun> {
  try {
    const given = splitInput(runInput);
    const sessionId = resumed?.sessionId ?? options.sessionId ?? flatUuid();
    // Runs of one session take turns: each loads the transcript, adds to it and saves it, so
    // two at once would lose one's messages — in this process (the lock), and across
    // processes sharing the store (the lease). Both waits together stay within waitMs.
    const started = Date.now();
    const locking = lockSession(runtime, sessionId, runtime.sessions.waitMs);
    const opened = (): OpenRun | Promise<OpenRun> => {
      const open = new OpenRun(
        sessionId,
        resumed ? resumed.oneShot && "resumed" : options.sessionId === undefined && "fresh",
      );
      if (runtime.onCommit !== undefined && resumed === undefined && agentPath.length === 1)
        open.commit = { startedAt: started, input: given.text };
      let setting: Promise<void> | undefined;
      try {
        setting = setUp(
          runtime,
          given,
          options,
          surface,
          approvals,
          agentPath,
          inherited,
          resumed,
          started,
          open,
        );
      } catch (error) {
        return failedSetUp(runtime, open, error);
      }
      if (setting === undefined) return open;
      return setting.then(
        () => open,
        (error: unknown) => failedSetUp(runtime, open, error),
      );
    };
    return locking ? locking.then(opened) : opened();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A set-up that failed gives back what it took, then fails the run with its error. */
async function failedSetUp(runtime: LoopRuntime, open: OpenRun, error: unknown): Promise<never> {
  await releaseRun(runtime, open);
  throw error;
}

/**
 * The run's set-up once it holds its session: the lease, its signal, the stored session, its
 * state, and whether the session was stored before (into `open`). Synchronous for a session
 * this run named itself (no lease, nothing stored to read); a promise otherwise.
 */
function setUp(
  runtime: LoopRuntime,
  given: SplitInput,
  options: RunOptions,
  surface: Surface,
  approvals: ApprovalFlow,
  agentPath: readonly string[],
  inherited: readonly GoverningRegistry[],
  resumed: ResumePoint | undefined,
  started: number,
  open: OpenRun,
): Promise<void> | undefined {
  // A session this run named itself (no sessionId given) needs no lease: its id is new, so
  // no run elsewhere holds it or has stored it, and the commit's compare-and-swap still
  // refuses a run that learnt the id meanwhile and committed first (never a silent lost
  // turn). Nor is it stored yet: nothing to read.
  if (open.oneShot !== "fresh")
    return setUpStored(
      runtime,
      given,
      options,
      surface,
      approvals,
      agentPath,
      inherited,
      resumed,
      started,
      open,
    );
  const runId = resumed?.runId ?? flatUuid();
  const composed = ownSignal(open, options);
  const session = sessionOf(open, undefined, options);
  // A new session's first run is 0 (a transcript passed in counts its user messages).
  if (options.messages === undefined && resumed === undefined) {
    openState(runtime, given, surface, approvals, agentPath, inherited, resumed, open, runId, composed, 0);
    return undefined;
  }
  return runIndex(runtime, open.sessionId, session, true).then((turn) =>
    openState(runtime, given, surface, approvals, agentPath, inherited, resumed, open, runId, composed, turn),
  );
}

/** `setUp` for a session that may be stored: its lease (on a shared store), then it is read. */
async function setUpStored(
  runtime: LoopRuntime,
  given: SplitInput,
  options: RunOptions,
  surface: Surface,
  approvals: ApprovalFlow,
  agentPath: readonly string[],
  inherited: readonly GoverningRegistry[],
  resumed: ResumePoint | undefined,
  started: number,
  open: OpenRun,
): Promise<void> {
  const { sessionId } = open;
  const { waitMs, leaseMs } = runtime.sessions;
  // A store only this process sees needs no lease: the queue above is all the turn-taking.
  // The lease and the stored session are read in one step where the store can (not when a
  // transcript is passed in: a session the store did not keep is no error then).
  if (runtime.store.sharing !== "process")
    open.lease = await acquireSessionLease(runtime.store, sessionId, {
      waitMs: Math.max(0, waitMs - (Date.now() - started)),
      leaseMs,
      ...(options.signal ? { signal: options.signal } : {}),
      load: options.messages === undefined,
    });
  const runId = resumed?.runId ?? flatUuid();
  const composed = ownSignal(open, options);

  // A transcript passed in needs no stored one: a session the store did not keep is no error.
  const begun = open.lease?.begun;
  const existing = begun
    ? begun.session
    : options.messages
      ? await runtime.store.loadSession(sessionId).catch((error: unknown) => {
          if (SessionNotKeptError.isInstance(error)) return undefined;
          throw error;
        })
      : await runtime.store.loadSession(sessionId);
  const session = sessionOf(open, existing, options);
  const turn = await runIndex(
    runtime,
    sessionId,
    session,
    resumed !== undefined || options.messages !== undefined,
  );
  openState(runtime, given, surface, approvals, agentPath, inherited, resumed, open, runId, composed, turn);
  if (existing !== undefined) open.existed = true;
}

/**
 * The run's own signal, following the caller's (one listener on it for the whole run). A
 * run that got none can never be aborted, and shares one signal that never aborts.
 */
function ownSignal(open: OpenRun, options: RunOptions): RunSignal {
  const composed = runSignal(options.signal);
  // The shared signal that never aborts has nothing to release.
  if (composed.abortable) open.signal = composed;
  return composed;
}

/** The session the run continues: the stored one, or a new one; a transcript passed in replaces its messages. */
function sessionOf(open: OpenRun, existing: SessionRecord | undefined, options: RunOptions): SessionRecord {
  const now = Date.now();
  const session: SessionRecord = existing ?? {
    id: open.sessionId,
    messages: [],
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
  // A transcript passed in (a stateless server's client holds it) replaces the stored one.
  if (options.messages) session.messages = options.messages.slice();
  open.session = session;
  return session;
}

/** The run's state over its session (into `open`), its telemetry started, its `run-start` surfaced. */
function openState(
  runtime: LoopRuntime,
  given: SplitInput,
  surface: Surface,
  approvals: ApprovalFlow,
  agentPath: readonly string[],
  inherited: readonly GoverningRegistry[],
  resumed: ResumePoint | undefined,
  open: OpenRun,
  runId: string,
  composed: RunSignal,
  turn: number,
): void {
  const { sessionId, session } = open;
  const { signal } = composed;
  const registries =
    inherited.length === 0 && agentPath.length === 1
      ? lineageOf(runtime).registries
      : [...inherited, { registry: runtime.registry, depth: agentPath.length - 1 }];
  // Undefined unless telemetry is on and something records the run's span.
  const telemetry =
    runtime.telemetry &&
    startRunTelemetry(runtime.telemetry, {
      agentName: runtime.name,
      runId,
      sessionId,
      agentPath,
      resumed: resumed !== undefined,
      suspendedSpan: resumed?.suspendedSpan,
    });
  const input = given.text;
  const state = new LoopState(runtime, {
    runId,
    sessionId,
    agentPath,
    registries,
    isStreaming: surface.streaming,
    signal,
    runner: new HookRunner({
      registries,
      // The stream surfaces each firing live (unless asked not to); both surfaces keep the
      // trace (RunResult.events).
      trace: surface.hookEvents ? surface.emit : undefined,
      keep: { capacity: runtime.traceCapacity },
      log: runtime.log,
      observer: telemetry,
      ...(composed.abortable ? { signal } : {}),
    }),
    telemetry,
    approvals,
    messages: session.messages,
    input,
    inputParts: given.parts ? given : undefined,
    turn,
    emit: surface.emit,
    prompts: new PromptBuilder(),
  });
  (state as { meter: RunState["meter"] }).meter = createRunMeter(runtime, state);
  open.state = state;

  resumed?.restore(state);
  if (surface.streaming) {
    const start: Extract<AgentEvent, { type: "run-start" }> = {
      type: "run-start",
      runId,
      sessionId,
      input,
      agentPath,
    };
    if (resumed) start.resumed = true;
    surface.emit(start);
  }
}

/** The run's end: `run_end` hooks, the session saved, the result (and its stream event). */
async function closeRun(
  runtime: LoopRuntime,
  open: OpenRun,
  surface: Surface,
  ended: RunEnd,
): Promise<RunResult> {
  const { state } = open;
  const telemetry = state.telemetry;
  // Wherever the abort surfaced (model, backoff, tool, between steps), one reason says so.
  const end =
    state.signal.aborted && ended.outcome === "error" ? abortedEnd(ended.text, state.signal) : ended;
  const save: SaveSessionOptions =
    open.oneShot === "fresh"
      ? { ttlMs: runtime.sessions.oneShotTtlMs, oneShot: true }
      : open.oneShot === "resumed"
        ? { ttlMs: runtime.sessions.oneShotTtlMs }
        : {};
  let result: RunResult;
  try {
    result = await finishRun(
      runtime,
      state,
      open.session,
      end,
      (text) => continueSteps(runtime, state, surface, text),
      save,
      open.commit,
      open.lease,
    );
  } catch (error) {
    state.runner.close();
    telemetry?.runEnded({
      outcome: "error",
      text: "",
      reason: error instanceof Error ? error.message : String(error),
      input: state.input,
      usage: state.usage,
      steps: stepCount(state),
    });
    runtime.onRunFailed?.(state.runId);
    throw leaseLost(open, error);
  }
  state.runner.close();
  if (telemetry) {
    const summary: RunSummary = {
      outcome: result.outcome,
      text: result.text,
      input: state.input,
      usage: result.usage,
      steps: result.steps.length,
    };
    if (result.reason !== undefined) summary.reason = result.reason;
    if (result.hook !== undefined) summary.hook = result.hook;
    telemetry.runEnded(summary);
  }
  surface.emit({ type: "run-finish", result });
  return result;
}

/** The run goes on after a `run_end` hook's `flow.retry`: its next step, errors handled as above. */
async function continueSteps(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  text: string,
): Promise<RunEnd> {
  let end: RunEnd;
  try {
    end = await runSteps(runtime, state, surface, state.step + 1, text);
  } catch (error) {
    end = {
      outcome: "error",
      text: "",
      reason: error instanceof Error ? error.message : String(error),
      error: error as Error,
    };
  }
  if (state.signal.aborted && end.outcome === "error") end = abortedEnd(end.text, state.signal);
  return end;
}

function abortedEnd(text: string, signal: AbortSignal): RunEnd {
  const error = abortError(signal);
  const detail = /abort/i.test(error.message) ? "" : `: ${error.message}`;
  return { outcome: "error", text, reason: `aborted${detail}`, error };
}

/**
 * The run up to its first step: its user message, or (session_start, run_start hooks) a
 * promise of the run's end, `hookedStart` taking the steps on. `undefined`: the caller
 * takes the steps from the first (`drive` does, in its own frame).
 */
function startRun(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  isNewSession: boolean,
): Promise<RunEnd> | undefined {
  // An event nobody hooks is not dispatched: no payload, context or await.
  if ((isNewSession && state.runner.wants("session_start")) || state.runner.wants("run_start"))
    return hookedStart(runtime, state, surface, isNewSession);
  state.userMessageIndex = state.messages.length;
  state.messages.push(userMessage(state.input, state.inputParts));
  return undefined;
}

/** `startRun` when session_start or run_start hooks fire: they run, then the steps. */
async function hookedStart(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  isNewSession: boolean,
): Promise<RunEnd> {
  if (isNewSession && state.runner.wants("session_start")) {
    const event: EventPayload<"session_start"> = {
      type: "session_start",
      agentPath: state.agentPath,
      sessionId: state.sessionId,
    };
    const dispatch = dispatchEvent(state, event, "session_start");
    const started = dispatch.outcome instanceof Promise ? await dispatch.outcome : dispatch.outcome;
    const stop = stopOf(started, "");
    if (stop) return stop;
    if (started.injected.length) state.messages.push(...started.injected);
    state.runner.inspect(event, dispatch.context, dispatch.selection);
  }

  if (!state.runner.wants("run_start")) {
    state.userMessageIndex = state.messages.length;
    state.messages.push(userMessage(state.input, state.inputParts));
    return runSteps(runtime, state, surface, 0, "");
  }
  const startEvent: EventPayload<"run_start"> = {
    type: "run_start",
    agentPath: state.agentPath,
    input: state.input,
  };
  const startDispatch = dispatchEvent(state, startEvent, "run_start");
  const started =
    startDispatch.outcome instanceof Promise ? await startDispatch.outcome : startDispatch.outcome;
  const startStop = stopOf(started, "");
  if (startStop) return startStop;
  if (started.edits.length) {
    const edited = editsEnd(await applyMessageEdits(state, "run_start", started.edits), "");
    if (edited) return edited;
  }
  state.input = started.payload.input;
  state.userMessageIndex = state.messages.length;
  state.messages.push(userMessage(state.input, state.inputParts));
  if (started.injected.length) state.messages.push(...started.injected);
  state.runner.inspect(started.payload, startDispatch.context, startDispatch.selection);
  return runSteps(runtime, state, surface, 0, "");
}

/**
 * What one step hands the next: the last answer's text, and the ephemeral messages (retry
 * or output feedback) the next request carries once.
 */
interface StepCursor {
  text: string;
  ephemeral: ModelMessage[];
}

const NO_EPHEMERAL: ModelMessage[] = Object.freeze([]) as unknown as ModelMessage[];

/**
 * Steps from `first` until the run ends: a resumed run's once its pending step settled, a
 * run's whose start hooks fired, a run's that a run_end hook sent back to work (a new run
 * without those takes its steps in `drive`'s frame, the same way). This frame waits for
 * every model call itself (no frame per step between it and the model) and holds nothing
 * of the steps before it.
 */
export async function runSteps(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  first: number,
  lastText: string,
): Promise<RunEnd> {
  const cursor: StepCursor = { text: lastText, ephemeral: NO_EPHEMERAL };
  // `drive` takes a new run's steps as this does, in its own frame: a change here is one there.
  for (let step = first; step < runtime.maxSteps; step++) {
    const begun = beginStep(runtime, state, surface, step, cursor);
    let requested: StepRequestOutcome | RunEnd;
    if (begun instanceof Attempt) {
      // The common path: the model is awaited here, with no promise chained to its answer.
      let turn: ModelTurn | undefined;
      let failure: { error: unknown } | undefined;
      try {
        turn = surface.turnOf(await sendFirst(runtime, begun));
      } catch (error) {
        failure = { error };
      }
      requested = failure
        ? await firstFailed(runtime, begun, cursor.ephemeral, failure.error)
        : firstAnswered(runtime, begun, turn!);
    } else requested = await begun;
    // A step_start hook's stop ends the run here.
    if ("outcome" in requested) return requested;
    const after = afterRequest(runtime, state, surface, step, cursor, requested);
    const end = after instanceof Promise ? await after : after;
    if (end !== undefined) return end;
    letGo(requested);
  }
  return maxStepsEnd(runtime, cursor.text);
}

/**
 * A committed step's outcome lets go of its turn, request, history and attempt: the frame
 * that waits on the next step's model may still hold the outcome in a register it no longer
 * reads (V8 keeps a suspended frame's registers whole), and with it all of those.
 */
function letGo(requested: StepRequestOutcome): void {
  const spent = requested as Partial<Record<"turn" | "request" | "sent" | "context", unknown>>;
  spent.turn = undefined;
  spent.request = undefined;
  spent.sent = undefined;
  spent.context = undefined;
}

function maxStepsEnd(runtime: LoopRuntime, text: string): RunEnd {
  return { outcome: "max_steps", text, reason: `stopped after ${runtime.maxSteps} steps (maxSteps)` };
}

/**
 * One step up to its model request: the first attempt ready to send (`sendFirst`) when
 * nothing awaits before it, else a promise of the request's outcome, or of the run's end
 * when a step_start hook stops it.
 */
function beginStep(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  step: number,
  cursor: StepCursor,
): Attempt | Promise<StepRequestOutcome | RunEnd> {
  if (state.signal.aborted) throw abortError(state.signal);
  state.step = step;
  // The step's scratchpad is made when a hook first needs it.
  state.stepScratch = undefined;
  if (surface.streaming) surface.emit({ type: "step-start", step });
  state.telemetry?.stepStarted(step);
  runtime.onStepStart?.(state.runId, state.runner.traceLength);
  if (state.runner.wants("step_start")) return hookedStep(runtime, state, surface, step, cursor);
  return requestStep(runtime, state, surface, cursor.ephemeral);
}

/** `beginStep` when step_start hooks fire: they run first, then the step's request, awaited here. */
async function hookedStep(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  step: number,
  cursor: StepCursor,
): Promise<StepRequestOutcome | RunEnd> {
  const stepEvent: EventPayload<"step_start"> = {
    type: "step_start",
    agentPath: state.agentPath,
    step,
  };
  const stepDispatch = dispatchEvent(state, stepEvent, "step_start");
  const stepped = stepDispatch.outcome instanceof Promise ? await stepDispatch.outcome : stepDispatch.outcome;
  // A step_start decide is not an accepted kind, so only failures and terminate stop here.
  const stepStop = stopOf(stepped, cursor.text);
  if (stepStop) return stepStop;
  if (stepped.edits.length) {
    const edited = editsEnd(await applyMessageEdits(state, "step_start", stepped.edits), cursor.text);
    if (edited) return edited;
  }
  if (stepped.injected.length) state.messages.push(...stepped.injected);
  state.runner.inspect(stepEvent, stepDispatch.context, stepDispatch.selection);
  const first = requestStep(runtime, state, surface, cursor.ephemeral);
  if (first instanceof Promise) return first;
  let turn: ModelTurn;
  try {
    turn = surface.turnOf(await sendFirst(runtime, first));
  } catch (error) {
    return firstFailed(runtime, first, cursor.ephemeral, error);
  }
  return firstAnswered(runtime, first, turn);
}

/**
 * The step after its model answered: the answer checked, its tool batch, step_end.
 * Synchronous while nothing in it needs a promise (calls valid, tools and hooks answering
 * synchronously, no output schema): the common step then costs no async frame and no
 * microtask here. A throw is the caller's, as a rejection would be (it awaits in a `try`).
 */
function afterRequest(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  step: number,
  cursor: StepCursor,
  requested: StepRequestOutcome,
): RunEnd | undefined | Promise<RunEnd | undefined> {
  const text = cursor.text;
  if (requested.kind === "terminate")
    return { outcome: "terminated", text, reason: requested.reason, hook: requested.hook };
  if (requested.kind === "error") {
    return {
      outcome: "error",
      text,
      reason: requested.error.message,
      hook: requested.hook,
      error: requested.error,
    };
  }
  const { turn } = requested;
  // Written only when it changes: most runs keep the default (none) all along.
  if (requested.request.tools !== runtime.toolSpecs)
    state.offeredTools = new Set(requested.request.tools.map((tool) => tool.name));
  else if (state.offeredTools !== undefined) state.offeredTools = undefined;
  // The provider's count of what this step sent: token accounting measures from it. The
  // baseline's history is a snapshot of the transcript (when nothing ephemeral was added).
  if (cursor.ephemeral.length) {
    state.meter.observe(state.messages, turn.usage.inputTokens);
    cursor.ephemeral = NO_EPHEMERAL;
  } else if (requested.sent === state.messages)
    // The history sent is the live transcript's first messages (request-step.ts `sharesHistory`).
    state.meter.observePrefix(state.messages, state.sentLength, turn.usage.inputTokens);
  else state.meter.observeSnapshot(requested.sent, turn.usage.inputTokens);
  cursor.text = turn.text;
  if (surface.streaming)
    for (const call of turn.toolCalls)
      surface.emit({
        type: "tool-call",
        step,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        args: call.args,
      });
  // Calls are found and checked before the turn counts as accepted: a turn that an
  // invalid_tool_call hook sends back for a retry fires no model_turn_finished (seed 001).
  const resolving = turn.toolCalls.length ? resolveBatch(runtime, state, turn.toolCalls) : undefined;
  if (resolving instanceof Promise)
    return resolving.then((resolved) => afterResolve(runtime, state, surface, cursor, requested, resolved));
  return afterResolve(runtime, state, surface, cursor, requested, resolving);
}

type Answered = Extract<StepRequestOutcome, { kind: "turn" }>;
type Resolved = Exclude<ReturnType<typeof resolveBatch>, Promise<unknown>>;

/** `afterRequest` once the step's calls are found and checked: model_turn_finished, the answer or the batch. */
function afterResolve(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  cursor: StepCursor,
  requested: Answered,
  resolved: Resolved | undefined,
): RunEnd | undefined | Promise<RunEnd | undefined> {
  const { turn } = requested;
  if (resolved?.kind === "terminate") {
    addUsage(state, turn.usage);
    return { outcome: "terminated", text: turn.text, reason: resolved.reason, hook: resolved.hook };
  }
  if (resolved?.kind === "retry") {
    // The invalid step is not committed; the next request carries the feedback, once.
    cursor.ephemeral = retryFeedback(turn, turn.toolCalls, resolved.feedback);
    commitStep(state, requested, [], false);
    return undefined;
  }
  // The calls as payloads show them: the model's calls themselves (arguments parsed once),
  // not copies (their raw input comes along; nothing in a payload is for writing).
  const toolCalls: { toolCallId: string; toolName: string; args: unknown }[] = turn.toolCalls;
  if (state.runner.wants("model_turn_finished")) {
    const finished: EventPayload<"model_turn_finished"> = {
      type: "model_turn_finished",
      agentPath: state.agentPath,
      text: turn.text,
      toolCalls,
      content: assistantParts(turn.text, turn.reasoning, toolCalls),
    };
    state.runner.inspect(
      finished,
      // The model call's operation: the context its model_request and model_response hooks got.
      requested.context?.context() ?? contextFor(state, requested.attempts),
      state.runner.select(finished, "model_turn_finished"),
    );
  }

  if (turn.toolCalls.length === 0) {
    if (runtime.output) return checkedAnswer(runtime, state, surface, cursor, requested);
    commitStep(state, requested, []);
    return answered(state, surface, turn.text, toolCalls);
  }

  const running = runToolBatch(runtime, state, turn.toolCalls, resolved!.resolutions);
  if (running instanceof Promise)
    return running.then((batch) => afterBatch(runtime, state, surface, requested, batch));
  return afterBatch(runtime, state, surface, requested, running);
}

/** The final answer checked against the agent's output schema (a missed one is sent back, up to `retries`). */
async function checkedAnswer(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  cursor: StepCursor,
  requested: Answered,
): Promise<RunEnd | undefined> {
  const { turn } = requested;
  const output = runtime.output!;
  const checked = await checkAnswer(output, turn.text);
  if (!checked.ok) {
    if (state.outputMisses < output.retries) {
      // The missed answer is not committed; the next request carries it and the problem, once.
      state.outputMisses++;
      cursor.ephemeral = outputFeedback(turn.text, checked.message);
      commitStep(state, requested, [], false);
      return undefined;
    }
    commitStep(state, requested, []);
    const reason = `the final answer does not match the output schema after ${state.outputMisses + 1} answer${state.outputMisses ? "s" : ""}: ${checked.message}`;
    return {
      outcome: "error",
      text: turn.text,
      reason,
      error: new OutputValidationError(reason, turn.text),
    };
  }
  state.output = checked.value;
  commitStep(state, requested, []);
  return answered(state, surface, turn.text, turn.toolCalls);
}

/** The step with the final answer committed: step_end, then the run completes (unless a step_end hook ends it otherwise). */
function answered(
  state: RunState,
  surface: Surface,
  text: string,
  toolCalls: { toolCallId: string; toolName: string; args: unknown }[],
): RunEnd | Promise<RunEnd> {
  // Synchronous unless a step_end hook needs a promise: no await on the common path.
  const ending = endStep(state, surface, text, toolCalls);
  if (ending instanceof Promise) return ending.then((ended) => completedOr(ended, text));
  return completedOr(ending, text);
}

function completedOr(ended: Awaited<ReturnType<typeof endStep>>, text: string): RunEnd {
  if (ended) return { ...ended, text };
  return { outcome: "completed", text };
}

/** The step's tool batch ran: it is committed (or ends or suspends the run), then step_end. */
function afterBatch(
  runtime: LoopRuntime,
  state: RunState,
  surface: Surface,
  requested: Answered,
  batch: Awaited<ReturnType<typeof runToolBatch>>,
): RunEnd | undefined | Promise<RunEnd | undefined> {
  const { turn } = requested;
  // What the step's tools saw of the run is theirs: the run does not keep it past the batch.
  if (state.toolView !== undefined) state.toolView = undefined;
  if (batch.kind === "terminate") {
    addUsage(state, turn.usage);
    return { outcome: "terminated", text: turn.text, reason: batch.reason, hook: batch.hook };
  }
  if (batch.kind === "suspend")
    return state.approvals.suspend(runtime, state, requested, batch.outcomes, turn.text);
  commitStep(state, requested, batch.results);
  // Synchronous unless a step_end hook needs a promise: no await on the common path.
  const ending = endStep(state, surface, turn.text, turn.toolCalls);
  if (ending instanceof Promise) return ending.then((ended) => endedWith(ended, turn.text));
  return endedWith(ending, turn.text);
}

function endedWith(ended: Awaited<ReturnType<typeof endStep>>, text: string): RunEnd | undefined {
  return ended ? { ...ended, text } : undefined;
}
