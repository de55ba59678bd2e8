/**
 * The approval inbox: `GET /approvals` lists, `POST /approvals/:id` decides (a suspended run
 * continues in the server; a waiting hook or gateway call gets its answer).
 */
import type { Hono } from "hono";
import { z } from "../../deps/zod.js";
import { sendJson } from "../http/json-response.js";
import { readBody } from "../http/request-body.js";
import { respondWithRun } from "../runs/run-responses.js";
import { startDecision } from "../runs/start-run.js";
import type { ServerContext } from "../server-context.js";

const decisionBody = z.strictObject({
  decision: z.enum(["approve", "deny"]).describe("approve or deny the call"),
  reason: z.string().optional().describe("why (a denial's reason reaches the model)"),
});

export function approvalRoutes(app: Hono, ctx: ServerContext): void {
  app.get("/approvals", async (c) => sendJson(ctx, c, { approvals: await ctx.inbox.list() }));

  app.post("/approvals/:id", async (c) => {
    const body = await readBody(c, decisionBody);
    const id = c.req.param("id");
    const decision = {
      approved: body.decision === "approve",
      ...(body.reason !== undefined ? { reason: body.reason } : {}),
    };
    // A call a hook or gateway process waits on: the decision is its answer (no run here).
    const waiting = await ctx.inbox.decideWaiting(id, decision);
    if (waiting) {
      ctx.feed.publish({
        event: "inbox",
        data: { reason: "decided", approvalId: id, sessionId: waiting.sessionId },
      });
      return sendJson(ctx, c, { approval: id, decision: body.decision, sessionId: waiting.sessionId });
    }
    const run = await startDecision(ctx, {
      approval: c.req.param("id"),
      approved: body.decision === "approve",
      ...(body.reason !== undefined ? { reason: body.reason } : {}),
    });
    return respondWithRun(ctx, c, run, { owned: false });
  });
}
