/** Committing a step to the transcript, and ending a run: run_end hooks, inspections, save. */
import type { ToolResultPart } from "@ai-sdk/provider-utils";
import type { EventPayload, ModelMessage } from "../events/payloads.js";
import type { ModelTurn } from "../models/language-model.js";
import type { SessionLease } from "../sessions/session-lease.js";
import type { SaveSessionOptions, SessionRecord } from "../state/state-store.js";
import { toToolOutput } from "../tools/tool-output.js";
import { applyMessageEdits, editsEnd } from "./apply-message-edits.js";
import type { CallOutcome } from "./batch/types.js";
import type { RunResult, Usage } from "./run-result.js";
import { contextFor, type RunState } from "./run-state.js";
import { beforeTranscriptChange, keepStep, setHistory, settleWhenRead } from "./step-slots.js";
import type { LoopRuntime, RunEnd, StepRequestOutcome } from "./types.js";

/** Adds one model call's reported usage to the run's (a terminated step's call counts too). */
export function addUsage(state: RunState, reported: ModelTurn["usage"]): Usage {
  const inputTokens = reported.inputTokens ?? 0;
  const outputTokens = reported.outputTokens ?? 0;
  const totalTokens = reported.totalTokens ?? inputTokens + outputTokens;
  const { cacheReadTokens, cacheWriteTokens } = reported;
  // Every field the provider reported, in one literal (fields added later cost a second store).
  const usage: Usage =
    cacheReadTokens !== undefined && cacheWriteTokens !== undefined
      ? { inputTokens, outputTokens, totalTokens, cacheReadTokens, cacheWriteTokens }
      : { inputTokens, outputTokens, totalTokens };
  state.usage.inputTokens += inputTokens;
  state.usage.outputTokens += outputTokens;
  state.usage.totalTokens += totalTokens;
  if (cacheReadTokens !== undefined) {
    usage.cacheReadTokens = cacheReadTokens;
    state.usage.cacheReadTokens = (state.usage.cacheReadTokens ?? 0) + cacheReadTokens;
  }
  if (cacheWriteTokens !== undefined) {
    usage.cacheWriteTokens = cacheWriteTokens;
    state.usage.cacheWriteTokens = (state.usage.cacheWriteTokens ?? 0) + cacheWriteTokens;
  }
  return usage;
}

/** `addUsage` with no object for the step (its counts are kept with the step: step-slots.ts). */
function addRunUsage(state: RunState, reported: ModelTurn["usage"]): void {
  const inputTokens = reported.inputTokens ?? 0;
  const outputTokens = reported.outputTokens ?? 0;
  const { cacheReadTokens, cacheWriteTokens } = reported;
  const usage = state.usage;
  usage.inputTokens += inputTokens;
  usage.outputTokens += outputTokens;
  usage.totalTokens += reported.totalTokens ?? inputTokens + outputTokens;
  if (cacheReadTokens !== undefined) usage.cacheReadTokens = (usage.cacheReadTokens ?? 0) + cacheReadTokens;
  if (cacheWriteTokens !== undefined)
    usage.cacheWriteTokens = (usage.cacheWriteTokens ?? 0) + cacheWriteTokens;
}

/**
 * Records the step, and (when `commit`) appends the assistant message and its tool
 * results to the transcript and surfaces execution starts and results in call order.
 * The record is kept as slots while the run goes on (step-slots.ts).
 */
export function commitStep(
  state: RunState,
  requested: Extract<StepRequestOutcome, { kind: "turn" }>,
  results: Extract<CallOutcome, { kind: "result" }>[],
  commit = true,
): void {
  const { turn } = requested;
  // The step's usage object is made now only when something reads it before the run ends.
  let usage: Usage | undefined;
  if (state.isStreaming) usage = addUsage(state, turn.usage);
  else addRunUsage(state, turn.usage);
  const calls = turn.toolCalls;
  // The step's record is kept as slots until the run ends: step-slots.ts.
  keepStep(state, requested, results, commit, usage);
  if (!commit) return;

  // The assistant's parts, built directly into a list of their size (no intermediate list).
  let at = (turn.reasoning ? 1 : 0) + (turn.text ? 1 : 0);
  const content: unknown[] = new Array(at + calls.length);
  if (turn.text) content[--at] = { type: "text", text: turn.text };
  if (turn.reasoning) content[--at] = { type: "reasoning", text: turn.reasoning };
  at = content.length - calls.length;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    content[at + index] = {
      type: "tool-call",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      // The transcript keeps what the model asked for; results record what ran.
      input: call.argsParsed ? call.args : (results[index]?.args ?? call.rawInput),
    };
  }
  if (content.length) state.messages.push({ role: "assistant", content: content as never });
  if (results.length) {
    const parts: ToolResultPart[] = new Array(results.length);
    for (let index = 0; index < results.length; index++) {
      const result = results[index]!;
      parts[index] = {
        type: "tool-result",
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: result.modelOutput ?? toToolOutput(result.result, result.isError),
      };
    }
    state.messages.push({ role: "tool", content: parts });
  }
  // Only the stream surfaces items; run() builds none of them.
  if (state.isStreaming)
    for (const result of results) {
      // A replayed call ran in an earlier process; its body does not start again here.
      if (result.executed && !result.replayed) {
        state.emit({
          type: "tool-execution-start",
          step: state.step,
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          args: result.args,
        });
      }
      state.emit({
        type: "tool-result",
        step: state.step,
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        result: result.result,
        isError: result.isError,
      });
    }
}

/**
 * Replaces the text of the run's final answer (the last assistant message, committed by a
 * step with no tool calls) with `text`, or removes that message when `text` is undefined.
 */
function replaceFinalAnswer(state: RunState, text: string | undefined): void {
  const index = state.messages.length - 1;
  const last = state.messages[index];
  if (last?.role !== "assistant") return;
  const parts =
    typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content;
  if (parts.some((part) => part.type === "tool-call")) return;
  // Requests kept as prefixes of the transcript take their lists before it changes, and
  // histories made views of it keep reading it as it was.
  beforeTranscriptChange(state);
  if (text === undefined) {
    state.messages.splice(index, 1);
    return;
  }
  const kept = parts.filter((part) => part.type !== "text");
  state.messages[index] = { ...last, content: [...kept, { type: "text", text }] } as ModelMessage;
}

/**
 * The `run_end` hooks: a guardrail's deny, a rewrite, transcript edits, or (for a completed
 * run) a `flow.retry` that sends the run back to work; then the inspections of the end that
 * stands. A suspended run has not ended: run_end fires when its resume ends it.
 */
async function runEndHooks(
  runtime: LoopRuntime,
  state: RunState,
  initial: RunEnd,
  continueRun: ContinueRun | undefined,
): Promise<RunEnd> {
  let end = initial;
  // No run_end hook: the dispatch would change nothing (no payload, context or await).
  while (hasRunEnd(state, end)) {
    const event: EventPayload<"run_end"> = {
      type: "run_end",
      agentPath: state.agentPath,
      output: end.text,
      outcome: end.outcome,
      continuations: state.continuations,
    };
    const context = contextFor(state);
    const selection = state.runner.select(event, "run_end");
    const deciding = state.runner.dispatch(event, context, selection);
    const decided = deciding instanceof Promise ? await deciding : deciding;
    const terminal = decided.terminal;
    if (!decided.failure && terminal?.flow.type === "retry") {
      const next = await continueAfter(
        runtime,
        state,
        end,
        terminal.hook,
        terminal.flow.feedback,
        continueRun,
      );
      if (next) {
        end = next;
        continue;
      }
    }
    let final = end;
    if (decided.failure) {
      final = {
        outcome: "error",
        text: "",
        reason: decided.failure.message,
        hook: decided.failure.hook,
        error: decided.failure,
      };
    } else if (terminal && (terminal.flow.type === "terminate" || terminal.flow.type === "deny")) {
      final = { outcome: "terminated", text: "", reason: terminal.flow.reason, hook: terminal.hook };
      // An output guardrail's verdict holds for the transcript too: the refused answer is
      // neither saved nor sent with the session's next run.
      if (end.outcome === "completed") replaceFinalAnswer(state, undefined);
    } else if (decided.payload.output !== end.text) {
      final = { ...end, text: decided.payload.output };
      // A rewrite (e.g. redaction) is what the session keeps, not only what the caller sees.
      if (end.outcome === "completed") replaceFinalAnswer(state, decided.payload.output);
    }
    let edited: RunEnd | undefined;
    if (!decided.failure && !terminal && decided.edits.length) {
      edited = editsEnd(await applyMessageEdits(state, "run_end", decided.edits), "");
      final = edited ?? final;
    }
    // Injected at the end of the run: kept with the session, seen on its next run.
    if (!decided.failure && !terminal && !edited && decided.injected.length)
      state.messages.push(...decided.injected);
    // Built field by field: a spread-then-property literal takes V8's slow path.
    const inspected = Object.assign({}, decided.payload);
    inspected.output = final.text;
    inspected.outcome = final.outcome;
    state.runner.inspect(inspected, context, selection);
    return final;
  }
  return end;
}

/** Whether `run_end` hooks fire for this end (a suspended run has not ended; an aborted one fires none). */
function hasRunEnd(state: RunState, end: RunEnd): boolean {
  return !state.signal.aborted && end.outcome !== "suspended" && state.runner.wants("run_end");
}

/**
 * A `run_end` hook's `flow.retry`: the feedback becomes a user message and the run takes its
 * next step. Only a completed run goes on (another outcome stands, with a warning); a run
 * that has no step left ends with `max_steps`, the feedback unsent.
 */
async function continueAfter(
  runtime: LoopRuntime,
  state: RunState,
  end: RunEnd,
  hook: string,
  feedback: string | undefined,
  continueRun: ContinueRun | undefined,
): Promise<RunEnd | undefined> {
  if (end.outcome !== "completed" || !continueRun) {
    state.log.warn(
      `run_end hook "${hook}" asked the run to continue, but only a completed run can (outcome: ${end.outcome}); the run ends as it was`,
    );
    return undefined;
  }
  if (state.step + 1 >= runtime.maxSteps) {
    return {
      outcome: "max_steps",
      text: end.text,
      reason: `run_end hook "${hook}" asked the run to continue, but it already took maxSteps (${runtime.maxSteps}) steps`,
      hook,
    };
  }
  state.messages.push({ role: "user", content: feedback ?? "Continue." });
  state.continuations++;
  return continueRun(end.text);
}

/**
 * Takes the run on after a `run_end` hook's `flow.retry` (drive.ts): the next step, with the
 * loop's error handling. Its end goes through the `run_end` hooks again.
 */
export type ContinueRun = (text: string) => Promise<RunEnd>;

export async function finishRun(
  runtime: LoopRuntime,
  state: RunState,
  session: SessionRecord,
  end: RunEnd,
  continueRun?: ContinueRun,
  save: SaveSessionOptions = {},
  /** A top-level run that is not resumed: its start and input (see `LoopRuntime.onCommit`). */
  run?: { startedAt: number; input: string },
  /** The session's lease, when the run holds one: freed with the commit where the store can. */
  lease?: SessionLease,
): Promise<RunResult> {
  // No run_end hook: nothing to dispatch or await.
  const final = hasRunEnd(state, end) ? await runEndHooks(runtime, state, end, continueRun) : end;
  if (state.runner.unsettled) await state.runner.settle();
  session.messages = state.messages;
  // What compaction removed stays with the session: nothing is lost.
  if (state.archived.length) session.archived = [...(session.archived ?? []), ...state.archived];
  session.updatedAt = Date.now();
  // This run counts once it is committed (a resumed run was counted when it suspended).
  session.runs = state.turn + 1;
  // On top of the version this run read, or SessionBusyError: never over another run's turn.
  // A suspension is saved only once its session committed, so a refused commit leaves none.
  // A run that suspends keeps its session whoever named it: its resume continues it. So
  // does a run whose compaction archived messages (they are in no result).
  const keep = final.saveSuspension !== undefined || (session.archived?.length ?? 0) > 0;
  const events = state.runner.events();
  // The next run of this agent makes room for as long a trace up front (bounded: a freak
  // run does not make every later one reserve megabytes).
  const traceSize = state.runner.traceSize;
  if (traceSize > runtime.traceCapacity) runtime.traceCapacity = Math.min(traceSize, 100_000);
  // Built field by field in the result's order: an accessor defined over a field the object
  // already has turns it into a dictionary, one added as a new field does not.
  const result = { outcome: final.outcome, text: final.text } as RunResult;
  // The transcript after the run: a long one is a view, made a list when read (step-slots.ts).
  setHistory(result, "messages", state.messages, state.messages.length);
  // The steps kept as slots are settled when the result's steps or requests are read.
  settleWhenRead(result, state);
  result.events = events;
  result.usage = state.usage;
  result.runId = state.runId;
  result.sessionId = state.sessionId;
  if (final.reason !== undefined) result.reason = final.reason;
  if (final.hook !== undefined) result.hook = final.hook;
  if (final.error) result.error = { name: final.error.name, message: final.error.message };
  if (final.approvals) result.approvals = final.approvals;
  if (final.outcome === "completed" && state.output !== undefined) result.output = state.output;

  const options = save.oneShot && keep ? { ...save, oneShot: false } : save;
  const store = runtime.store;
  // What the agent writes with this commit (a run's record), when the store can take it.
  // One commit also frees the session's lease where the store can, unless the run suspends:
  // its suspension is saved after the commit, while the run still holds the session.
  const freeing = lease !== undefined && store.commitSession !== undefined && !final.saveSuspension;
  const writes =
    run !== undefined && runtime.onCommit !== undefined && (store.saveSessionWith !== undefined || freeing)
      ? runtime.onCommit(result, run)
      : undefined;
  session.version = freeing
    ? await lease.commitWith((held) => store.commitSession!(session, writes ?? [], held, options))
    : writes !== undefined && writes.length > 0
      ? await store.saveSessionWith!(session, writes, options)
      : await store.saveSession(session, options);
  // Only a one-shot session's save has a time of its own.
  if (final.saveSuspension) await final.saveSuspension(save.ttlMs !== undefined);
  // A session the store did not keep has no next run: its hooks' session scope goes too.
  if (save.oneShot && !keep && store.keepsOneShot === false) runtime.sessionScratch.delete(state.sessionId);
  return result;
}
