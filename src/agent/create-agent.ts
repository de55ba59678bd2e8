/**
 * `createAgent`: the public entry point (DESIGN §11). `run()` and `stream()` drive the same
 * loop; `stream()` surfaces events as they happen and resolves `result` with the same
 * RunResult `run()` would give.
 */
import type { AnyHook } from "../hooks/define-hook.js";
import type { AgentOptions, ApprovalDecision, RunOptions } from "./agent-options.js";
import { type AgentRuntime, resolveRuntime } from "./agent-runtime.js";
import { bindApprovalSettings, resolveApprovalSettings } from "./approval-settings.js";
import { AsyncQueue } from "./async-queue.js";
import { drive } from "./drive.js";
import { type EndSessionOptions, endSession } from "./end-session.js";
import {
  listSuspendedRuns,
  type SuspendedRunSummary,
  type SuspendedRunsOptions,
} from "./list-suspended-runs.js";
import { pendingApprovals, resumeRun } from "./resume-run.js";
import type { AgentEvent, PendingApproval, RunResult } from "./run-result.js";
import { generateSurface, type Surface, streamSurface } from "./surface.js";

export interface AgentStream extends AsyncIterable<AgentEvent> {
  /** The run's result; resolves after the last event. */
  readonly result: Promise<RunResult>;
}

export interface Agent {
  readonly name: string;
  run(input: string, options?: RunOptions): Promise<RunResult>;
  stream(input: string, options?: RunOptions): AgentStream;
  /**
   * Continues a suspended run (DESIGN §7b) from the StateStore, in this or any process
   * sharing it. Decisions name pending approvals by id, or carry signed tokens. Undecided
   * approvals keep the run suspended (the result lists them). Rejects with an
   * ApprovalError — having run nothing, the run still resumable — when the run is not
   * suspended, an id is unknown, a token is forged or for another call, or an approval
   * expired.
   */
  resume(
    runId: string,
    decisions: readonly ApprovalDecision[],
    options?: Pick<RunOptions, "signal">,
  ): Promise<RunResult>;
  /** `resume`, surfacing events as they happen (starts with `run-start` with `resumed: true`). */
  resumeStream(
    runId: string,
    decisions: readonly ApprovalDecision[],
    options?: Pick<RunOptions, "signal">,
  ): AgentStream;
  /** The approvals a suspended run waits for; an ApprovalError when it is not suspended. */
  pendingApprovals(runId: string): Promise<PendingApproval[]>;
  /**
   * This agent's suspended runs in its store, oldest first, each with the approvals it
   * waits for — whichever process suspended them (an approval inbox).
   */
  suspendedRuns(options?: SuspendedRunsOptions): Promise<SuspendedRunSummary[]>;
  /**
   * Ends a session: `session_end` hooks fire (inspect), its scratchpad is dropped; the
   * transcript stays in the store unless `delete: true`.
   */
  endSession(sessionId: string, options?: EndSessionOptions): Promise<void>;
  /** Registers a hook on this agent; returns its disposer. */
  use(hook: AnyHook): () => void;
  /** The resolved runtime (tools, hooks, store), for introspection and the CLI. */
  readonly runtime: AgentRuntime;
}

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
      return drive(runtime, input, runOptions, generateSurface());
    },
    stream(input, runOptions = {}) {
      const queue = new AsyncQueue<AgentEvent>();
      const result = drive(
        runtime,
        input,
        runOptions,
        streamSurface((event) => queue.push(event)),
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
