/**
 * The web UI's files (built by `npm run build` into `dist/web/`), served at `/` with a
 * content security policy that keeps the page to this origin: it loads nothing from
 * elsewhere and works offline. A checkout that was never built says so instead.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { isApiPath } from "./http/auth.js";
import type { HonoKit } from "./http/load-hono.js";

const CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** `dist/web` beside the bundle (installed package), or the checkout's `dist/web` (running from source). */
export function findWebRoot(explicit?: string): string | undefined {
  const candidates = explicit
    ? [explicit]
    : [
        fileURLToPath(new URL("./web/", import.meta.url)),
        fileURLToPath(new URL("../../dist/web/", import.meta.url)),
      ];
  return candidates.find((dir) => existsSync(join(dir, "index.html")));
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>hookwise</title>
<p>The hookwise web UI is not built in this checkout. Run <code>npm run build</code>, then restart <code>hookwise serve</code>.
The API is up: see <a href="/openapi.json">/openapi.json</a>.</p>`;

export function webAssets(app: Hono, kit: HonoKit, root: string | undefined): void {
  app.use("*", async (c, next) => {
    await next();
    if (!isApiPath(c.req.path)) {
      c.header("Content-Security-Policy", CSP);
      c.header("X-Content-Type-Options", "nosniff");
      c.header("Referrer-Policy", "no-referrer");
    }
  });
  if (!root) {
    app.get("/", (c) => c.html(NOT_BUILT, 503));
    return;
  }
  app.get("*", kit.serveStatic({ root }));
}
