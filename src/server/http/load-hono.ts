/**
 * Hono and its Node adapter are optional peers: loaded on the first `serve`, never by
 * `import "hookwise"`, so a user who never serves installs neither. Route modules receive
 * what they need from this kit and import only types.
 */
import { HookwiseError } from "../../errors/hookwise-error.js";

export interface HonoKit {
  Hono: typeof import("hono").Hono;
  bodyLimit: typeof import("hono/body-limit").bodyLimit;
  cors: typeof import("hono/cors").cors;
  serveStatic: typeof import("@hono/node-server/serve-static").serveStatic;
  listen: typeof import("@hono/node-server").serve;
}

function missing(error: unknown): HookwiseError {
  const message = error instanceof Error ? error.message : String(error);
  const name = /@hono\/node-server/.test(message) ? "@hono/node-server" : "hono";
  return new HookwiseError(
    `hookwise serve needs the optional package "${name}", which is not installed: npm install hono @hono/node-server`,
    { cause: error },
  );
}

let loading: Promise<HonoKit> | undefined;

export function loadHono(): Promise<HonoKit> {
  loading ??= (async () => {
    try {
      const [hono, limit, cors, statics, node] = await Promise.all([
        import("hono"),
        import("hono/body-limit"),
        import("hono/cors"),
        import("@hono/node-server/serve-static"),
        import("@hono/node-server"),
      ]);
      return {
        Hono: hono.Hono,
        bodyLimit: limit.bodyLimit,
        cors: cors.cors,
        serveStatic: statics.serveStatic,
        listen: node.serve,
      };
    } catch (error) {
      loading = undefined;
      const code = (error as { code?: string }).code;
      if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw missing(error);
      throw error;
    }
  })();
  return loading;
}
