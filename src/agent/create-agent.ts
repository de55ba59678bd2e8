/**
 * `createAgent`: the public entry point. `run()` and `stream()` drive the same
 * loop; `stream()` surfaces events as they happen and resolves `result` with the same
 * RunResult `run()` would give.
 */

import { approvalFlow } from "../approvals/approval-flow.js";
import { bindApprovalSettings, resolveApprovalSettings } from "../approvals/approval-settings.js";
import { listSuspendedRuns } from "../approvals/list-suspended-runs.js";
import { pendingApprovals, resumeRun } from "../approvals/resume-run.js";
import { loadSuspendedRun } from "../approvals/suspended-run.js";
import type { HookLiveEvent } from "../hooks/trace.js";
import { drive } from "../loop/drive.js";
import { type RunInput, splitInput } from "../loop/run-input.js";
import type { AgentEvent, RunResult } from "../loop/run-result.js";
import { generateSurface, type Surface, streamSurface } from "../loop/surface.js";
import type { StreamOptions } from "../loop/types.js";
import { endSession } from "../sessions/end-session.js";
import { resolveRuntime } from "./agent-runtime.js";
import { AsyncQueue } from "./async-queue.js";
import { checkToolReferences } from "./check-tool-references.js";
import { isMark } from "./run-record.js";
import { type RunRecorder, recordsByDefault, runRecorder } from "./run-recorder.js";
import type { Agent, AgentOptions, AgentRuntime, AgentStream, OutputOf } from "./types.js";

/** Drives `start` on a stream surface; the stream ends after the last event. */
function streamOf(start: (surface: Surface) => Promise<RunResult>, hookEvents: boolean): AgentStream {
  const queue = new AsyncQueue<AgentEvent>();
  const result = start(streamSurface((event) => queue.push(event), hookEvents)).finally(() => queue.close());
  // The caller may only iterate; the rejection is still delivered through `result`.
  result.catch(() => {});
  return {
    result,
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

/**
 * Makes an agent. With `output: schema`, `result.output` has the schema's type (zod, or any
 * Standard Schema); without one it is `unknown`. The agent's type keeps its `tools`, so a
 * hook added with `agent.use(defineHook({ match: "read_file", … }))` sees typed `event.args`.
 */
export function createAgent<SCHEMA = unknown, TOOLS = unknown>(
  options: AgentOptions & { output?: SCHEMA; tools?: TOOLS },
): Agent<OutputOf<SCHEMA>, TOOLS> {
  return makeAgent(options) as Agent<OutputOf<SCHEMA>, TOOLS>;
}

function makeAgent(options: AgentOptions): Agent {
  // The approval channel is checked before anything else is built (its errors are load-time errors).
  const approvals = resolveApprovalSettings(options);
  const runtime = resolveRuntime(options);
  checkToolReferences(options, runtime);
  bindApprovalSettings(runtime, approvals);
  const recorder = recorderOf(options, runtime);
  return {
    name: runtime.name,
    runtime,
    run(input, runOptions = {}) {
      if (!recorder) return drive(runtime, input, runOptions, generateSurface(), approvalFlow);
      const startedAt = Date.now();
      return drive(runtime, input, runOptions, generateSurface(), approvalFlow).then(async (result) => {
        await recorder.save(
          recorder.finish(result, { agent: runtime.name, input: inputText(input), startedAt }),
        );
        return result;
      });
    },
    stream(input, runOptions = {}) {
      const queue = new AsyncQueue<AgentEvent>();
      if (recorder) return recordedStream(recorder, runtime.name, input, runOptions, queue, runtime);
      const result = drive(
        runtime,
        input,
        runOptions,
        streamSurface((event) => queue.push(event), runOptions.hookEvents !== false),
        approvalFlow,
      ).finally(() => queue.close());
      // The caller may only iterate; the rejection is still delivered through `result`.
      result.catch(() => {});
      return {
        result,
        [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
      };
    },
    resume(runId, decisions, resumeOptions = {}) {
      const start = (surface: Surface) => resumeRun(runtime, runId, decisions, resumeOptions, surface);
      if (!recorder) return start(generateSurface());
      return recordedResume(recorder, runtime, runId, start, generateSurface());
    },
    resumeStream(runId, decisions, resumeOptions = {}) {
      const start = (surface: Surface) => resumeRun(runtime, runId, decisions, resumeOptions, surface);
      const hookEvents = resumeOptions.hookEvents !== false;
      if (!recorder) return streamOf(start, hookEvents);
      return streamOf((surface) => recordedResume(recorder, runtime, runId, start, surface), hookEvents);
    },
    pendingApprovals(runId) {
      return pendingApprovals(runtime, runId);
    },
    suspendedRuns(listOptions) {
      return listSuspendedRuns(runtime, listOptions);
    },
    endSession(sessionId, endOptions) {
      return endSession(runtime, sessionId, endOptions);
    },
    use(hook) {
      return runtime.registry.register(hook);
    },
  };
}

/** The agent's recorder, its marker hooks registered; none when runs are not recorded. */
function recorderOf(options: AgentOptions, runtime: AgentRuntime): RunRecorder | undefined {
  const save = options.recordRuns ?? recordsByDefault(options.store);
  if (!save && !options.onRunRecord) return undefined;
  const recorder = runRecorder({
    store: save ? runtime.store : undefined,
    agent: runtime.name,
    warn: (message) => runtime.log.warn(message),
    ...(options.onRunRecord ? { onRecord: options.onRunRecord } : {}),
  });
  for (const hook of recorder.hooks) runtime.registry.register(hook);
  runtime.onAnswer = recorder.onAnswer;
  runtime.onStepStart = recorder.onStepStart;
  runtime.onToolCallStart = recorder.onToolCallStart;
  runtime.onRunFailed = recorder.forget;
  if (save) runtime.onCommit = recorder.onCommit;
  return recorder;
}

/**
 * A resume of a recording agent: the run's record is carried on (the one it suspended with,
 * kept here or read from the store) and saved again, replacing it. Its marks never reach
 * the caller: not in the stream, not in `result.events`. A run whose suspension was not
 * recorded is resumed unrecorded.
 */
async function recordedResume(
  recorder: RunRecorder,
  runtime: AgentRuntime,
  runId: string,
  start: (surface: Surface) => Promise<RunResult>,
  surface: Surface,
): Promise<RunResult> {
  // A run that is not suspended is refused by the resume itself, with its own error.
  const waiting = await loadSuspendedRun(runtime.store, runId).catch(() => undefined);
  const earlier = waiting ? await recorder.earlier(waiting.sessionId, runId) : undefined;
  const resumedAt = Date.now();
  const meta = { restored: waiting?.events.length ?? 0, resumedAt };
  const finish = (result: RunResult) => {
    if (earlier) return recorder.finishResumed(result, earlier, meta);
    dropMarks(result);
    return undefined;
  };
  const filtered: Surface = surface.streaming
    ? streamSurface((event) => {
        if (event.type === "hook") {
          const kept = withoutMarks(event);
          if (kept === undefined) return;
          surface.emit(kept);
          return;
        }
        // The record is built (and the marks leave the trace) before the caller sees the result.
        if (event.type === "run-finish") finish(event.result);
        surface.emit(event);
      }, surface.hookEvents)
    : surface;
  const result = await start(filtered);
  const record = finish(result);
  if (record) await recorder.save(record);
  return result;
}

/**
 * A live `hook` event without the recorder's marks: the same event when it has none, none
 * when nothing else fired.
 */
function withoutMarks(event: HookLiveEvent): HookLiveEvent | undefined {
  const { firings } = event;
  let index = 0;
  while (index < firings.length && !isMark(firings[index]!.hook)) index++;
  if (index === firings.length) return event;
  const kept = firings.filter((entry) => !isMark(entry.hook));
  return kept.length === 0 ? undefined : { type: "hook", event: event.event, firings: kept };
}

/** Removes the recorder's marks from a result's trace (a run resumed unrecorded). */
function dropMarks(result: RunResult): void {
  const kept = result.events.filter((entry) => !isMark(entry.hook));
  result.events.length = 0;
  result.events.push(...kept);
}

/** `stream()` of a recording agent: its marks never reach the caller; the record is saved before `result` resolves. */
function recordedStream(
  recorder: RunRecorder,
  agent: string,
  input: RunInput,
  runOptions: StreamOptions,
  queue: AsyncQueue<AgentEvent>,
  runtime: AgentRuntime,
): AgentStream {
  const startedAt = Date.now();
  const result = drive(
    runtime,
    input,
    runOptions,
    streamSurface((event) => {
      if (event.type === "hook") {
        const kept = withoutMarks(event);
        if (kept !== undefined) queue.push(kept);
        return;
      }
      // The record is built (and the marks leave the trace) before the caller sees the result.
      if (event.type === "run-finish")
        recorder.finish(event.result, { agent, input: inputText(input), startedAt });
      queue.push(event);
    }, runOptions.hookEvents !== false),
    approvalFlow,
  )
    .then(async (done) => {
      await recorder.save(recorder.finish(done, { agent, input: inputText(input), startedAt }));
      return done;
    })
    .finally(() => queue.close());
  result.catch(() => {});
  return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
}

/** What a run record keeps of a run's input: its text (a run that got this far had valid input). */
function inputText(input: RunInput): string {
  return typeof input === "string" ? input : splitInput(input).text;
}
