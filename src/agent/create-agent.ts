/**
 * `createAgent`: the public entry point. `run()` and `stream()` drive the same
 * loop; `stream()` surfaces events as they happen and resolves `result` with the same
 * RunResult `run()` would give.
 */

import { approvalFlow } from "../approvals/approval-flow.js";
import { bindApprovalSettings, resolveApprovalSettings } from "../approvals/approval-settings.js";
import { listSuspendedRuns } from "../approvals/list-suspended-runs.js";
import { pendingApprovals, resumeRun } from "../approvals/resume-run.js";
import { drive } from "../loop/drive.js";
import { type RunInput, splitInput } from "../loop/run-input.js";
import type { AgentEvent, RunResult } from "../loop/run-result.js";
import { generateSurface, type Surface, streamSurface } from "../loop/surface.js";
import type { RunOptions } from "../loop/types.js";
import { endSession } from "../sessions/end-session.js";
import { resolveRuntime } from "./agent-runtime.js";
import { AsyncQueue } from "./async-queue.js";
import { isMark } from "./run-record.js";
import { type RunRecorder, recordsByDefault, runRecorder } from "./run-recorder.js";
import type { Agent, AgentOptions, AgentRuntime, AgentStream } from "./types.js";

/** Drives `start` on a stream surface; the stream ends after the last event. */
function streamOf(start: (surface: Surface) => Promise<RunResult>): AgentStream {
  const queue = new AsyncQueue<AgentEvent>();
  const result = start(streamSurface((event) => queue.push(event))).finally(() => queue.close());
  // The caller may only iterate; the rejection is still delivered through `result`.
  result.catch(() => {});
  return {
    result,
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}

export function createAgent(options: AgentOptions): Agent {
  // The approval channel is checked before anything else is built (its errors are load-time errors).
  const approvals = resolveApprovalSettings(options);
  const runtime = resolveRuntime(options);
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
        streamSurface((event) => queue.push(event)),
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
      return resumeRun(runtime, runId, decisions, resumeOptions, generateSurface());
    },
    resumeStream(runId, decisions, resumeOptions = {}) {
      return streamOf((surface) => resumeRun(runtime, runId, decisions, resumeOptions, surface));
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
    warn: (message) => runtime.log.warn(message),
    ...(options.onRunRecord ? { onRecord: options.onRunRecord } : {}),
  });
  for (const hook of recorder.hooks) runtime.registry.register(hook);
  return recorder;
}

/** `stream()` of a recording agent: its marks never reach the caller; the record is saved before `result` resolves. */
function recordedStream(
  recorder: RunRecorder,
  agent: string,
  input: RunInput,
  runOptions: RunOptions,
  queue: AsyncQueue<AgentEvent>,
  runtime: AgentRuntime,
): AgentStream {
  const startedAt = Date.now();
  const result = drive(
    runtime,
    input,
    runOptions,
    streamSurface((event) => {
      if (event.type === "hook" && isMark(event.hook)) return;
      // The record is built (and the marks leave the trace) before the caller sees the result.
      if (event.type === "run-finish")
        recorder.finish(event.result, { agent, input: inputText(input), startedAt });
      queue.push(event);
    }),
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
