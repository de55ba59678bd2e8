/**
 * What a suspended run leaves in the StateStore, and the store operations on it. Keys:
 *
 *   run:<runId>:suspended         the SuspendedRunRecord (status "suspended"), then a small
 *                                 FinishedRunRecord once a resume ended the run (kept 7 days)
 *   session:<id>:suspended-run    the run a session waits on: new runs of it are refused
 *   run:<runId>:claim:<token>     one link of the resume claim chain (see `claimRun`)
 *   approval:<id>                 exactly-once keys of an approved call (`:intent`, `:result`)
 *   run:<runId>:call:<callId>     the same for a deferred (allowed) call of the batch
 */

import { hostname } from "node:os";
import { nodeCrypto } from "../deps/node-crypto.js";
import { ApprovalError } from "../errors/approval-error.js";
import type { ModelMessage } from "../events/payloads.js";
import type { HookTraceEntry } from "../hooks/trace.js";
import type { OnceLedger } from "../loop/batch/settle-batch.js";
import type { BatchEntry, PendingEntry } from "../loop/batch/types.js";
import type { RunOutcome, StepRecord, Usage } from "../loop/run-result.js";
import type { ModelToolCall, ModelUsage } from "../models/language-model.js";
import type { StateStore } from "../state/state-store.js";
import { StateStoreError } from "../state/state-store-error.js";
import { exactlyOnce, intentKey } from "./exactly-once.js";
import { suspendedRunProblem } from "./suspended-run-shape.js";

export const FINISHED_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const CLAIM_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A claim held by a process on another host counts as abandoned after this long. */
export const RESUME_LEASE_MS = 10 * 60 * 1000;
/** A claim held by a live pid on this host counts as abandoned after this long (pid reuse). */
const LOCAL_CLAIM_MAX_MS = 24 * 60 * 60 * 1000;

export const runKey = (runId: string) => `run:${runId}:suspended`;
export const sessionGuardKey = (sessionId: string) => `session:${sessionId}:suspended-run`;
const claimKey = (runId: string, token: string) => `run:${runId}:claim:${token}`;
/** The exactly-once key of a pending call: its approval's id, or the run and call ids. */
export const onceKey = (runId: string, entry: PendingEntry) =>
  entry.approval ? `approval:${entry.approval.id}` : `run:${runId}:call:${entry.toolCallId}`;

/** The step whose batch is pending: the model's accepted output and each call's state. */
export interface PendingStep {
  index: number;
  turn: {
    text: string;
    reasoning: string;
    toolCalls: ModelToolCall[];
    finishReason: string;
    usage: ModelUsage;
  };
  attempts: number;
  entries: BatchEntry[];
}

export interface SuspendedRunRecord {
  version: 1;
  status: "suspended";
  runId: string;
  sessionId: string;
  agentName: string;
  agentPath: string[];
  input: string;
  turn: number;
  userMessageIndex: number;
  /** Changes at every save; the base of the claim chain. */
  token: string;
  suspendedAt: number;
  /** The transcript committed before the pending step (what the session holds). */
  messages: ModelMessage[];
  steps: StepRecord[];
  events: HookTraceEntry[];
  usage: Usage;
  pending: PendingStep;
  /** Exactly-once keys this run used in earlier resumes; deleted when the run finishes. */
  onceKeys: string[];
  /** The suspended run's span, when telemetry recorded it: the resumed run's span links to it. */
  trace?: { traceId: string; spanId: string };
  /**
   * The run was given no sessionId: its session is kept while it waits, and after its resume
   * for the agent's one-shot time (`sessions.oneShotTtlMs`) on every store.
   */
  oneShot?: boolean;
}

export interface FinishedRunRecord {
  version: 1;
  status: "finished";
  runId: string;
  outcome: RunOutcome;
  finishedAt: number;
}

export type RunRecord = SuspendedRunRecord | FinishedRunRecord;

/** Whether the call's tool already started in an earlier process (its exactly-once intent exists). */
export async function hasStarted(store: StateStore, runId: string, entry: PendingEntry): Promise<boolean> {
  return (await store.get(intentKey(onceKey(runId, entry)))) !== undefined;
}

/** A resumed run's exactly-once records; each guard's key joins `onceKeys` (deleted when the run ends). */
export function onceLedger(store: StateStore, runId: string, onceKeys: Set<string>): OnceLedger {
  return {
    started: (entry) => hasStarted(store, runId, entry),
    guard(entry, label) {
      const key = onceKey(runId, entry);
      onceKeys.add(key);
      return exactlyOnce(store, key, label);
    },
  };
}

export function pendingApprovalsOf(record: SuspendedRunRecord): PendingEntry[] {
  return record.pending.entries.filter(
    (entry): entry is PendingEntry => entry.kind === "pending" && entry.approval !== undefined,
  );
}

/** The suspended run, or an ApprovalError saying why there is none to resume. */
export async function loadSuspendedRun(store: StateStore, runId: string): Promise<SuspendedRunRecord> {
  const record = await store.get<RunRecord>(runKey(runId));
  if (!record) {
    throw new ApprovalError({
      reason: "unknown_run",
      runId,
      message: `no suspended run "${runId}" in this state store (${store.kind})`,
    });
  }
  const problem =
    record.status === "finished"
      ? typeof record.outcome === "string" && Number.isFinite(record.finishedAt)
        ? undefined
        : "a finished run needs outcome and finishedAt"
      : suspendedRunProblem(record);
  if (problem) {
    throw new StateStoreError({
      kind: store.kind,
      message: `The stored suspended run "${runId}" in ${store.location} is malformed (${problem}); it cannot be resumed: delete its key "${runKey(runId)}" from that store (and "${sessionGuardKey((record as { sessionId?: string }).sessionId ?? "<its session>")}", which keeps its session waiting)`,
    });
  }
  if (record.status !== "suspended") {
    throw new ApprovalError({
      reason: "not_suspended",
      runId,
      message: `run "${runId}" is not suspended: it already ended (${record.outcome}) at ${new Date(record.finishedAt).toISOString()}; nothing was run`,
    });
  }
  return record;
}

export interface Claim {
  runId: string;
  /** The token this claim holds; a takeover from it writes `claim:<token>`. */
  token: string;
  /** The key this claim created (the link from the previous holder). */
  key: string;
}

interface ClaimValue {
  token: string;
  pid: number;
  host: string;
  at: number;
}

/** On this host the holder's pid says (a live resume may take long); elsewhere the lease does. */
function abandoned(holder: ClaimValue, now: number): boolean {
  const age = now - holder.at;
  if (holder.host !== hostname()) return age > RESUME_LEASE_MS;
  try {
    process.kill(holder.pid, 0);
    return age > LOCAL_CLAIM_MAX_MS;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

/**
 * Takes the right to resume a run. Claims form a chain from the record's token: each
 * link is written with `setIfAbsent`, so exactly one process wins it. A link held by a
 * live process means "being resumed" (refused); one held by a dead process (same host,
 * pid gone) or older than the lease is taken over by writing the next link — so a resume
 * killed mid-tool never locks its run, and two takeovers of one dead holder cannot both win.
 */
export async function claimRun(store: StateStore, record: SuspendedRunRecord): Promise<Claim> {
  const mine: ClaimValue = {
    token: nodeCrypto().randomUUID(),
    pid: process.pid,
    host: hostname(),
    at: Date.now(),
  };
  let previous = record.token;
  for (let hop = 0; hop < 1000; hop++) {
    const key = claimKey(record.runId, previous);
    if (await store.setIfAbsent(key, mine, { ttlMs: CLAIM_TTL_MS })) {
      return { runId: record.runId, token: mine.token, key };
    }
    const holder = await store.get<ClaimValue>(key);
    if (!holder) continue;
    if (!abandoned(holder, Date.now())) {
      const who =
        holder.pid === process.pid && holder.host === hostname()
          ? "this process"
          : `pid ${holder.pid} on ${holder.host}`;
      throw new ApprovalError({
        reason: "busy",
        runId: record.runId,
        message: `run "${record.runId}" is being resumed by ${who} since ${new Date(holder.at).toISOString()}; nothing was run`,
      });
    }
    previous = holder.token;
  }
  throw new ApprovalError({
    reason: "busy",
    runId: record.runId,
    message: `run "${record.runId}": too many abandoned resumes`,
  });
}

/** Gives a claim back (a resume refused after claiming): the run stays resumable. */
export async function releaseClaim(store: StateStore, claim: Claim): Promise<void> {
  await store.delete(claim.key);
}

/** Whether another process took this claim over (its lease lapsed); the holder then writes nothing. */
export async function claimLost(store: StateStore, claim: Claim): Promise<boolean> {
  return (await store.get(claimKey(claim.runId, claim.token))) !== undefined;
}

/** Ends a resumed run: its record becomes a tombstone and its session accepts runs again. */
export async function markFinished(
  store: StateStore,
  record: SuspendedRunRecord,
  outcome: RunOutcome,
): Promise<void> {
  const finished: FinishedRunRecord = {
    version: 1,
    status: "finished",
    runId: record.runId,
    outcome,
    finishedAt: Date.now(),
  };
  await store.set(runKey(record.runId), finished, { ttlMs: FINISHED_TTL_MS });
  if ((await store.get(sessionGuardKey(record.sessionId))) === record.runId) {
    await store.delete(sessionGuardKey(record.sessionId));
  }
}
