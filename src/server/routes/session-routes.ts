/**
 * Sessions: create, list, read (transcript, status, pending approvals, runs), end, watch;
 * and a run's timeline. A session ends by `DELETE` or after `server.session_idle` without
 * activity: `session_end` fires for its agent's hooks and its transcript is deleted.
 */
import type { Hono } from "hono";
import { z } from "../../deps/zod.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/json-response.js";
import { readBody } from "../http/request-body.js";
import { SseChannel } from "../http/sse-channel.js";
import { appendEvent, eachSent, type TimelineEvent } from "../runs/run-timeline.js";
import type { ServerContext } from "../server-context.js";
import { checkSessionId, type SessionMeta } from "../sessions/session-directory.js";
import { endSession } from "../sessions/session-end.js";

const createBody = z.strictObject({
  agent: z.string().optional().describe("the agent its messages go to (default: the config's first)"),
  id: z.string().optional().describe("an id of your own (default: a random UUID)"),
});

export type SessionStatus = "running" | "waiting" | "idle";

async function statusOf(ctx: ServerContext, meta: SessionMeta): Promise<SessionStatus> {
  if (ctx.runs.session(meta.id) || (await ctx.leases.held(meta.id))) return "running";
  return meta.suspendedRunId !== undefined ? "waiting" : "idle";
}

function summary(meta: SessionMeta, status: SessionStatus) {
  return {
    id: meta.id,
    agent: meta.agent,
    title: meta.title ?? null,
    status,
    createdAt: new Date(meta.createdAt).toISOString(),
    lastActiveAt: new Date(meta.lastActiveAt).toISOString(),
  };
}

export function sessionRoutes(app: Hono, ctx: ServerContext): void {
  app.get("/sessions", async (c) => {
    const metas = await ctx.directory.list();
    const sessions = await Promise.all(metas.map(async (meta) => summary(meta, await statusOf(ctx, meta))));
    return sendJson(ctx, c, { sessions });
  });

  app.post("/sessions", async (c) => {
    const body = await readBody(c, createBody, { optional: true });
    const agent = ctx.agents.check(body.agent);
    const { meta, created } = await ctx.directory.create(body.id ?? crypto.randomUUID(), agent);
    if (!created) throw new HttpError(409, "session_exists", `session "${meta.id}" exists already`);
    ctx.feed.publish({ event: "session", data: { reason: "created", sessionId: meta.id } });
    return sendJson(ctx, c, summary(meta, "idle"), 201);
  });

  app.get("/sessions/:id", async (c) => {
    const meta = await ctx.directory.require(c.req.param("id"));
    const [status, record, approvals, runs] = await Promise.all([
      statusOf(ctx, meta),
      ctx.loaded.store.loadSession(meta.id),
      meta.suspendedRunId !== undefined ? ctx.inbox.list(meta.id) : Promise.resolve([]),
      Promise.all(meta.runs.map((runId) => ctx.directory.timeline(runId))),
    ]);
    return sendJson(ctx, c, {
      ...summary(meta, status),
      messages: record?.messages ?? [],
      pendingApprovals: approvals,
      runs: runs
        .filter((timeline) => timeline !== undefined)
        .map((timeline) => ({
          runId: timeline.runId,
          agent: timeline.agent,
          input: timeline.input,
          outcome: timeline.outcome ?? null,
          reason: timeline.reason ?? null,
          startedAt: new Date(timeline.startedAt).toISOString(),
          endedAt: timeline.endedAt === undefined ? null : new Date(timeline.endedAt).toISOString(),
        })),
    });
  });

  app.delete("/sessions/:id", async (c) => {
    const meta = await ctx.directory.require(c.req.param("id"));
    await endSession(ctx, meta, "deleted");
    return sendJson(ctx, c, { id: meta.id, ended: true });
  });

  // The events of the session's runs as they happen (a resumed run included).
  app.get("/sessions/:id/events", async (c) => {
    const meta = await ctx.directory.require(c.req.param("id"));
    const channel = new SseChannel(ctx.scrub);
    // A `hook` event goes out as one SSE event per firing, as on the message routes.
    const stop = ctx.runs.watch(meta.id, {
      event: (event) => eachSent(event, (sent) => channel.send(sent.type, sent)),
    });
    const close = () => channel.close();
    c.req.raw.signal.addEventListener("abort", close, { once: true });
    ctx.closing.addEventListener("abort", close, { once: true });
    channel.onClose(() => {
      stop();
      ctx.closing.removeEventListener("abort", close);
    });
    channel.comment("watching");
    return channel.response;
  });

  app.get("/runs/:runId", async (c) => {
    const runId = c.req.param("runId");
    checkSessionId(runId);
    const live = ctx.runs.byRun(runId);
    if (live && !live.ended) {
      const events: TimelineEvent[] = [];
      for (const event of live.events) appendEvent(events, event);
      const previous = live.kind === "resume" ? await ctx.directory.timeline(runId) : undefined;
      return sendJson(ctx, c, {
        runId,
        sessionId: live.sessionId,
        agent: live.agent,
        live: true,
        events: [...(previous?.events ?? []), ...events],
      });
    }
    const timeline = await ctx.directory.timeline(runId);
    if (!timeline) throw new HttpError(404, "unknown_run", `no run "${runId}" in this server's timelines`);
    // A run another replica is running: its timeline as of its last step.
    return sendJson(ctx, c, { ...timeline, live: timeline.endedAt === undefined });
  });
}
