/** `POST /sessions/:id/messages`: a message starts a run; the answer streams it (SSE) or is its RunResult (JSON). */
import type { Hono } from "hono";
import { z } from "../../deps/zod.js";
import { readBody } from "../http/request-body.js";
import { respondWithRun } from "../runs/run-responses.js";
import { startMessage } from "../runs/start-run.js";
import type { ServerContext } from "../server-context.js";

const messageBody = z.strictObject({
  text: z.string().min(1, "the message is empty").describe("the user's message"),
  agent: z.string().optional().describe("the agent to run (default: the session's)"),
});

export function messageRoutes(app: Hono, ctx: ServerContext): void {
  app.post("/sessions/:id/messages", async (c) => {
    const body = await readBody(c, messageBody);
    const run = await startMessage(ctx, {
      sessionId: c.req.param("id"),
      text: body.text,
      ...(body.agent !== undefined ? { agent: body.agent } : {}),
    });
    return respondWithRun(ctx, c, run, { owned: true });
  });
}
