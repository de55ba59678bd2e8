/**
 * Runs a Claude Code `type: http` handler: the event JSON POSTed to its `url`, its
 * `headers` sent with `$VAR` / `${VAR}` filled only from the variables `allowedEnvVars`
 * lists (any other reference becomes empty, as in Claude Code), within the timeout.
 * Header values are never logged: they usually carry tokens.
 */
import type { HttpHandlerSpec } from "../settings/claude-handler-spec.js";

const REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export function interpolateHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(REFERENCE, (_match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return allowed.includes(name) ? (env[name] ?? "") : "";
  });
}

export interface HttpResult {
  status: number;
  body: string;
}

/** Resolves with the response; rejects on a connection failure, a timeout or an abort. */
export async function runHttpHandler(
  handler: Pick<HttpHandlerSpec, "url" | "headers" | "allowedEnvVars">,
  options: { input: string; timeoutMs: number; env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<HttpResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(handler.headers))
    headers[name] = interpolateHeader(value, handler.allowedEnvVars, options.env);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(handler.url, { method: "POST", headers, body: options.input, signal });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    if (timeout.aborted) throw new Error(`timed out after ${options.timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(cause?.code ?? cause?.message ?? (error as Error).message);
  }
}
