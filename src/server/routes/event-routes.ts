/** `GET /events`: notifications (`notify`, `lsp_diagnose`) and inbox / session changes, as SSE. */
import type { Hono } from "hono";
import { SseChannel } from "../http/sse-channel.js";
import type { ServerContext } from "../server-context.js";

export function eventRoutes(app: Hono, ctx: ServerContext): void {
  app.get("/events", (c) => {
    const session = c.req.query("session");
    const channel = new SseChannel(ctx.scrub);
    const stop = ctx.feed.subscribe((item) => {
      if (session !== undefined && item.data.sessionId !== session) return;
      channel.send(item.event, item.data);
    });
    const close = () => channel.close();
    c.req.raw.signal.addEventListener("abort", close, { once: true });
    ctx.closing.addEventListener("abort", close, { once: true });
    channel.onClose(() => {
      stop();
      ctx.closing.removeEventListener("abort", close);
    });
    channel.comment("listening");
    return channel.response;
  });
}
