/** JSON answers, through the secret scrubber like every byte the server sends. */
import type { Context } from "hono";
import type { ServerContext } from "../server-context.js";

export function sendJson(ctx: ServerContext, c: Context, value: unknown, status = 200): Response {
  return c.body(ctx.scrub(JSON.stringify(value)), status as 200, {
    "content-type": "application/json; charset=utf-8",
  });
}
