/** `serve`: a config's agents over HTTP, with the web UI (Hono is loaded on first use). */
export type { HookwiseServer, ServeOptions } from "./serve.js";
export { serve } from "./serve.js";
export { SERVER_TOKEN_ENV } from "./server-settings.js";
