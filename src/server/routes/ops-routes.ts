/** `/healthz`, `/metrics`, `/openapi.json`, `/agents`: what operators and tools read. */
import type { Hono } from "hono";
import { sendJson } from "../http/json-response.js";
import { openApiDocument } from "../http/openapi-document.js";
import { PROMETHEUS_CONTENT_TYPE } from "../prometheus.js";
import type { ServerContext } from "../server-context.js";

export function opsRoutes(app: Hono, ctx: ServerContext, version: string): void {
  app.get("/healthz", (c) =>
    sendJson(
      ctx,
      c,
      // Public: says whether the server is up, nothing about what it serves (/agents does).
      { status: ctx.draining ? "draining" : "ok" },
      ctx.draining ? 503 : 200,
    ),
  );

  app.get("/metrics", async (c) => {
    ctx.metrics.approvalsPending.set((await ctx.inbox.list()).length);
    return c.body(ctx.metrics.render(), 200, { "content-type": PROMETHEUS_CONTENT_TYPE });
  });

  app.get("/openapi.json", (c) => sendJson(ctx, c, openApiDocument(version, new URL(c.req.url).origin)));

  app.get("/agents", async (c) => {
    const agents = await Promise.all(
      ctx.agents.ids.map(async (id) => {
        const { runtime } = await ctx.agents.get(id);
        const { model } = runtime;
        return {
          id,
          model: `${model.provider}:${model.modelId}`,
          scripted: model.provider === "scripted",
          // The timeline shows a request patch's system prompt against these.
          instructions: runtime.options.instructions ?? null,
        };
      }),
    );
    return sendJson(ctx, c, { agents, default: ctx.agents.defaultId });
  });
}
