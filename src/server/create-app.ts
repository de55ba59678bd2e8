/**
 * The HTTP app: middleware in order — request metrics, errors as `{ error: { code, message } }`,
 * the loopback host guard (no token) or bearer auth (token), CORS when configured, body
 * limits — then the API routes, then the web UI's files.
 */
import type { Context, Hono } from "hono";
import { HookwiseError } from "../errors/hookwise-error.js";
import { bearerAuth, isApiPath, loopbackHostGuard } from "./http/auth.js";
import { HttpError } from "./http/http-error.js";
import { sendJson } from "./http/json-response.js";
import type { HonoKit } from "./http/load-hono.js";
import { tooLarge } from "./http/request-body.js";
import { approvalRoutes } from "./routes/approval-routes.js";
import { chatRoutes } from "./routes/chat-routes.js";
import { eventRoutes } from "./routes/event-routes.js";
import { gatewayRoutes } from "./routes/gateway-routes.js";
import { hookRoutes } from "./routes/hook-routes.js";
import { messageRoutes } from "./routes/message-routes.js";
import { opsRoutes } from "./routes/ops-routes.js";
import { sessionRoutes } from "./routes/session-routes.js";
import type { ServerContext } from "./server-context.js";
import { webAssets } from "./web-assets.js";

export interface AppOptions {
  version: string;
  webRoot: string | undefined;
  log: (line: string) => void;
}

function errorResponse(
  ctx: ServerContext,
  c: Context,
  error: unknown,
  log: (line: string) => void,
): Response {
  if (error instanceof HttpError) return sendJson(ctx, c, error.body(), error.status);
  const status = (error as { status?: number }).status;
  if (status === 413) return sendJson(ctx, c, tooLarge(ctx.settings.bodyLimit).body(), 413);
  // A config that cannot build an agent (a toolset that fails to start…): the operator's to fix.
  if (HookwiseError.isInstance(error)) {
    log(`error: ${error.message}`);
    return sendJson(ctx, c, new HttpError(500, "agent_error", error.message).body(), 500);
  }
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return sendJson(
    ctx,
    c,
    new HttpError(500, "internal_error", "internal server error (see the server's log)").body(),
    500,
  );
}

export function createApp(kit: HonoKit, ctx: ServerContext, options: AppOptions): Hono {
  const app = new kit.Hono();
  app.onError((error, c) => errorResponse(ctx, c, error, options.log));
  app.notFound((c) =>
    isApiPath(c.req.path)
      ? sendJson(
          ctx,
          c,
          new HttpError(404, "not_found", `no endpoint ${c.req.method} ${c.req.path}`).body(),
          404,
        )
      : c.text("not found", 404),
  );
  app.use("*", async (c, next) => {
    await next();
    if (isApiPath(c.req.path) || c.req.path === "/healthz") {
      ctx.metrics.httpRequests.inc({
        method: c.req.method,
        route: c.req.routePath,
        status: String(c.res.status),
      });
    }
  });
  // Before auth: a browser's preflight carries no credentials, and an allowed page could not
  // send its JSON POST if the preflight were refused (CORS answers it, allowed origins only).
  if (ctx.settings.cors.length > 0) {
    app.use(
      "*",
      kit.cors({
        origin: [...ctx.settings.cors],
        allowHeaders: ["Authorization", "Content-Type", "Accept"],
        allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
        maxAge: 600,
      }),
    );
  }
  app.use("*", ctx.settings.token ? bearerAuth(ctx.settings.token) : loopbackHostGuard());
  const bodyLimit = kit.bodyLimit({
    maxSize: ctx.settings.bodyLimit,
    onError: () => {
      throw tooLarge(ctx.settings.bodyLimit);
    },
  });
  app.use("*", (c, next) => {
    // A GET or HEAD has no body to limit. One that gives its length is judged by it, as the
    // body limit does, but without opening the body as a web stream (which the limit does
    // first): a route then reads it straight from the connection. Any other body is counted
    // as it streams.
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return bodyLimit(c, next);
    if (Number.parseInt(length, 10) > ctx.settings.bodyLimit) throw tooLarge(ctx.settings.bodyLimit);
    return next();
  });
  opsRoutes(app, ctx, options.version);
  sessionRoutes(app, ctx);
  messageRoutes(app, ctx);
  chatRoutes(app, ctx);
  approvalRoutes(app, ctx);
  eventRoutes(app, ctx);
  hookRoutes(app, ctx, options.log);
  gatewayRoutes(app, ctx);
  webAssets(app, kit, options.webRoot);
  return app;
}
