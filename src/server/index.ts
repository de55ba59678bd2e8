/** `serve`: a config's agents over HTTP, with the web UI (loaded, with Hono, on first call). */
import type { HookwiseServer, ServeOptions } from "./serve.js";

export type { HookwiseServer, ServeOptions } from "./serve.js";
export { SERVER_TOKEN_ENV } from "./server-settings.js";

/**
 * Serves a config's agents over HTTP (what `hookwise serve` runs): sessions, streamed runs,
 * `/api/chat` for `useChat`, the approval inbox, notifications, metrics and the web UI.
 * Resolves once listening; `close()` stops it gracefully. The server's code loads only here,
 * so `import "hookwise"` stays light.
 */
export async function serve(options: ServeOptions): Promise<HookwiseServer> {
  const { serve: start } = await import("./serve.js");
  return start(options);
}
