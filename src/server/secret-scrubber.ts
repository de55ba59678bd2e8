/**
 * The last guard before a byte leaves the server: every JSON and SSE body goes through it,
 * and the value of each secret-looking environment variable (API keys, tokens, passwords —
 * the server's own bearer token included), and of every variable the config hands its
 * toolsets as `${VAR}` (whatever its name: `GH_PAT`, `DATABASE_URL`), is replaced by
 * `[redacted]`, in its raw and its JSON-escaped spelling. A provider error that echoes a
 * key, or a tool that prints one, cannot carry it out of an endpoint.
 */
import { envReferences } from "../tools/expand-env.js";

const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_?KEY|ACCESS_?KEY)/i;
/** Shorter values are too likely to occur by chance ("true", a port number). */
const MIN_LENGTH = 8;

/** Replaces every secret in a text; `secrets` lists the values it replaces. */
export interface Scrubber {
  (text: string): string;
  readonly secrets: readonly string[];
}

export function secretScrubber(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Scrubber {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value === undefined || value.length < MIN_LENGTH) return;
    secrets.add(value);
    secrets.add(JSON.stringify(value).slice(1, -1));
  };
  for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) add(value);
  for (const value of extra) add(value);
  // Longest first: a secret that contains another is replaced whole.
  const list = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
    return out;
  };
  return Object.assign(scrub, { secrets: list });
}

/**
 * The values of the variables the config's toolsets read as `${VAR}` (MCP args, env, url
 * and headers; OpenAPI credentials…): credentials by construction, whatever their names.
 */
export function toolsetSecrets(toolsets: unknown, ...envs: NodeJS.ProcessEnv[]): string[] {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") for (const name of envReferences(value)) names.add(name);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit(toolsets);
  const values = [...names].flatMap((name) => envs.map((env) => env[name] ?? ""));
  return [...new Set(values.filter((value) => value !== ""))];
}
