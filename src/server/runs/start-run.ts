/**
 * Starting a run in a session — a client's message, or a decision from the approval inbox —
 * with the rules every entry point shares: a session takes one run at a time (its lease;
 * a busy one waits `busy_wait`, then 409), a session waiting on approvals takes no new
 * message (409 listing them), a draining server takes nothing (503). The run's timeline
 * and the session's metadata are saved, and the lease given back, before its `run-finish`
 * reaches any listener.
 */
import type { Agent } from "../../agent/types.js";
import type { RunResult } from "../../loop/run-result.js";
import { approvalHttpError } from "../approval-inbox.js";
import { HttpError } from "../http/http-error.js";
import type { ServerContext } from "../server-context.js";
import type { Lease } from "../sessions/session-lease.js";
import type { LiveRun, StartRunOptions } from "./live-runs.js";
import { appendEvent, type RunTimeline, type TimelineEvent } from "./run-timeline.js";

function refuseWhileDraining(ctx: ServerContext): void {
  if (ctx.draining)
    throw new HttpError(503, "shutting_down", "the server is shutting down; retry on another instance");
}

async function takeLease(ctx: ServerContext, sessionId: string): Promise<Lease> {
  const lease = await ctx.leases.acquire(sessionId, ctx.settings.busyWaitMs);
  if (!lease) {
    throw new HttpError(
      409,
      "session_busy",
      `session "${sessionId}" is running another message; retry when it finished (waited ${ctx.settings.busyWaitMs} ms)`,
    );
  }
  return lease;
}

/** 409 when the session waits on a suspended run's approvals. */
async function refuseWhileWaiting(ctx: ServerContext, sessionId: string): Promise<void> {
  const meta = await ctx.directory.require(sessionId);
  if (meta.suspendedRunId === undefined) return;
  const approvals = await ctx.inbox.list(sessionId);
  if (approvals.length === 0) return;
  throw new HttpError(
    409,
    "session_waiting",
    `session "${sessionId}" waits for ${approvals.length} approval(s) of run "${meta.suspendedRunId}": approve or deny them first (POST /approvals/:id)`,
    { approvals },
  );
}

/** Keeps the run's events and, when it ends, saves its timeline and the session's metadata. */
function recorder(ctx: ServerContext, run: LiveRun, lease: Lease) {
  const events: TimelineEvent[] = [];
  const startedAt = Date.now();
  let input = "";
  let ended = false;
  // A new run's timeline so far is saved as it starts and after each step, so that every
  // replica on the store can show it while it runs (`GET /runs/:id`).
  let saving: Promise<void> = Promise.resolve();
  const saveSoFar = (event: { type: string; runId?: string; sessionId?: string }) => {
    if (run.kind !== "message" || ended) return;
    const runId = event.type === "run-start" ? event.runId! : (events[0] as { runId?: string })?.runId;
    if (runId === undefined) return;
    const sofar: RunTimeline = {
      runId,
      sessionId: run.sessionId,
      agent: run.agent,
      input,
      startedAt,
      events: events.slice(),
    };
    saving = saving
      .then(() => (ended ? undefined : ctx.directory.saveTimeline(sofar)))
      .catch(() => {
        // The next step (or the end) saves it again; the live process serves it meanwhile.
      });
  };
  run.subscribe({
    event: (event) => {
      if (event.type === "run-start") input = event.input;
      appendEvent(events, event);
      if (event.type === "run-start" || event.type === "step-finish") saveSoFar(event);
    },
  });
  const observe = ctx.metrics.observer(run.agent);
  run.subscribe({ event: (event) => event.type !== "attempt-error" && observe(event) });
  return async (_run: LiveRun, outcome: { result?: RunResult }): Promise<void> => {
    try {
      ended = true;
      await saving;
      const result = outcome.result;
      if (!result) {
        // It ended without a result (it failed to start, or was cut short): a timeline saved
        // so far must not read as running.
        const runId = (events[0] as { runId?: string } | undefined)?.runId;
        if (run.kind === "message" && runId !== undefined) {
          await ctx.directory.saveTimeline({
            runId,
            sessionId: run.sessionId,
            agent: run.agent,
            input,
            startedAt,
            endedAt: Date.now(),
            outcome: "error",
            reason: "the run ended without a result",
            events,
          });
        }
        return;
      }
      // The run-finish event reaches listeners after this, so it joins the timeline here.
      appendEvent(events, { type: "run-finish", result });
      const previous = run.kind === "resume" ? await ctx.directory.timeline(result.runId) : undefined;
      const timeline: RunTimeline = {
        runId: result.runId,
        sessionId: result.sessionId,
        agent: run.agent,
        input: previous?.input ?? input,
        startedAt: previous?.startedAt ?? startedAt,
        endedAt: Date.now(),
        outcome: result.outcome,
        events: [...(previous?.events ?? []), ...events],
      };
      if (result.reason !== undefined) timeline.reason = result.reason;
      await ctx.directory.saveTimeline(timeline);
      // A run suspended elsewhere (`hookwise run`) and resumed here joins the session list.
      if (!(await ctx.directory.get(result.sessionId)))
        await ctx.directory.create(result.sessionId, run.agent);
      await ctx.directory.update(result.sessionId, (meta) => {
        if (!meta.runs.includes(result.runId)) meta.runs.push(result.runId);
        meta.lastActiveAt = Date.now();
        meta.title ??= timeline.input.slice(0, 80);
        if (result.outcome === "suspended") meta.suspendedRunId = result.runId;
        else if (meta.suspendedRunId === result.runId) delete meta.suspendedRunId;
      });
      if (result.outcome === "suspended" || run.kind === "resume") {
        ctx.feed.publish({
          event: "inbox",
          data: {
            reason: result.outcome === "suspended" ? "suspended" : "resumed",
            runId: result.runId,
            sessionId: result.sessionId,
          },
        });
      }
    } finally {
      await lease.release();
    }
  };
}

function start(
  ctx: ServerContext,
  lease: Lease,
  options: Pick<StartRunOptions, "sessionId" | "agent" | "kind" | "stream">,
): LiveRun {
  let settle!: ReturnType<typeof recorder>;
  const run = ctx.runs.start({ ...options, settle: (live, outcome) => settle(live, outcome) });
  settle = recorder(ctx, run, lease);
  return run;
}

export async function startMessage(
  ctx: ServerContext,
  options: { sessionId: string; text: string; agent?: string },
): Promise<LiveRun> {
  refuseWhileDraining(ctx);
  const meta = await ctx.directory.require(options.sessionId);
  const agentId = ctx.agents.check(options.agent ?? meta.agent);
  const agent: Agent = await ctx.agents.get(agentId);
  await refuseWhileWaiting(ctx, options.sessionId);
  const lease = await takeLease(ctx, options.sessionId);
  try {
    // While it waited, the session may have ended or started waiting on approvals.
    await refuseWhileWaiting(ctx, options.sessionId);
    refuseWhileDraining(ctx);
  } catch (error) {
    await lease.release();
    throw error;
  }
  await ctx.directory.update(options.sessionId, (current) => {
    current.lastActiveAt = Date.now();
  });
  return start(ctx, lease, {
    sessionId: options.sessionId,
    agent: agentId,
    kind: "message",
    stream: (signal) => agent.stream(options.text, { sessionId: options.sessionId, signal }),
  });
}

/** Decides one pending approval: its run continues in this server (a refusal runs nothing). */
export function startDecision(
  ctx: ServerContext,
  options: { approval: string; approved: boolean; reason?: string },
): Promise<LiveRun> {
  return startDecisions(ctx, [options]);
}

/**
 * Decides pending approvals of one run together (a chat answering each of its step's
 * approvals): the run continues in this server with all of them at once.
 */
export async function startDecisions(
  ctx: ServerContext,
  decided: readonly { approval: string; approved: boolean; reason?: string }[],
  /** The session they must belong to, when the client named one (a chat's id). */
  sessionId?: string,
): Promise<LiveRun> {
  refuseWhileDraining(ctx);
  const found = [];
  for (const options of decided) {
    found.push(
      await ctx.inbox.find(options.approval, {
        approved: options.approved,
        ...(options.reason !== undefined ? { reason: options.reason } : {}),
      }),
    );
  }
  const { item } = found[0]!;
  const other = found.find((entry) => entry.item.runId !== item.runId);
  if (other) {
    throw new HttpError(
      409,
      "approvals_of_several_runs",
      `approvals "${item.id}" and "${other.item.id}" belong to different runs; decide each run's approvals on their own`,
    );
  }
  if (sessionId !== undefined && item.sessionId !== sessionId) {
    throw new HttpError(
      409,
      "wrong_session",
      `approval "${item.id}" belongs to session "${item.sessionId}", not "${sessionId}"; nothing was run`,
    );
  }
  const agent = await ctx.agents.get(item.agent);
  const lease = await takeLease(ctx, item.sessionId);
  const decisions = found.map((entry) => entry.decision);
  const run = start(ctx, lease, {
    sessionId: item.sessionId,
    agent: item.agent,
    kind: "resume",
    // The server owns a resumed run: no client's disconnect stops it, only a shutdown.
    stream: (signal) => agent.resumeStream(item.runId, decisions, { signal }),
  });
  try {
    await run.started;
  } catch (error) {
    throw approvalHttpError(error) ?? error;
  }
  return run;
}
