/**
 * The suspended runs of an agent in its StateStore, whichever process suspended them: what
 * an approval inbox lists. A scan of the store's `run:` keys (see suspended-run.ts), so it
 * sees runs suspended by the CLI, a server, or any process sharing the store.
 */
import type { PendingApproval } from "../loop/run-result.js";
import type { LoopRuntime } from "../loop/types.js";
import { listApprovals } from "./suspend-run.js";
import type { RunRecord } from "./suspended-run.js";

export interface SuspendedRunSummary {
  runId: string;
  sessionId: string;
  agentName: string;
  /** The user input of the run. */
  input: string;
  /** When it suspended (ISO 8601). */
  suspendedAt: string;
  /** What it waits for; empty when every approval is decided but a sibling call is still deferred. */
  approvals: PendingApproval[];
}

export interface SuspendedRunsOptions {
  /** Only this session's run (a session has at most one). */
  sessionId?: string;
}

const SUSPENDED_KEY = /^run:(.+):suspended$/;

export async function listSuspendedRuns(
  runtime: LoopRuntime,
  options: SuspendedRunsOptions = {},
): Promise<SuspendedRunSummary[]> {
  const summaries: SuspendedRunSummary[] = [];
  for (const key of await runtime.store.keys("run:")) {
    if (!SUSPENDED_KEY.test(key)) continue;
    const record = await runtime.store.get<RunRecord>(key);
    if (record?.status !== "suspended" || record.agentName !== runtime.name) continue;
    // A sub-agent's suspended run cannot be resumed on its own (see resumeRun): nothing to list.
    if (record.agentPath.length > 1) continue;
    if (options.sessionId !== undefined && record.sessionId !== options.sessionId) continue;
    summaries.push({
      runId: record.runId,
      sessionId: record.sessionId,
      agentName: record.agentName,
      input: record.input,
      suspendedAt: new Date(record.suspendedAt).toISOString(),
      approvals: listApprovals(runtime, record.runId, record.pending.entries),
    });
  }
  return summaries.sort((a, b) => a.suspendedAt.localeCompare(b.suspendedAt));
}
