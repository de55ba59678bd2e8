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
import type { AgentEvent, RunResult } from "../loop/run-result.js";
import { generateSurface, type Surface, streamSurface } from "../loop/surface.js";
import { endSession } from "../sessions/end-session.js";
import { resolveRuntime } from "./agent-runtime.js";
import { AsyncQueue } from "./async-queue.js";
import type { Agent, AgentOptions, AgentStream } from "./types.js";

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
  // The approval channel is checked before anything else is built (DESIGN §7: load-time errors).
  const approvals = resolveApprovalSettings(options);
  const runtime = resolveRuntime(options);
  bindApprovalSettings(runtime, approvals);
  return {
    name: runtime.name,
    runtime,
    run(input, runOptions = {}) {
      return drive(runtime, input, runOptions, generateSurface(), approvalFlow);
    },
    stream(input, runOptions = {}) {
      const queue = new AsyncQueue<AgentEvent>();
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
