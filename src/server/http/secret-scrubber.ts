/**
 * The last guard before a byte leaves the server: every JSON and SSE body goes through it.
 * What a run stored or streamed was masked on its way in (secrets/secret-registry.ts: API
 * keys, every `${VAR}` a toolset read); here, besides those, the value of each
 * secret-looking environment variable (API keys, tokens, passwords — the server's own
 * bearer token included), and of every variable the config hands its toolsets as `${VAR}`
 * (whatever its name: `GH_PAT`, `DATABASE_URL`), is replaced by `[redacted]`, in every
 * spelling (as written, JSON-escaped, percent-encoded, base64, in any case). A provider
 * error that echoes a key, or a tool that prints one, cannot carry it out of an endpoint.
 */
import { SECRET_VARIABLE } from "../../secrets/environment-secrets.js";
import { secretMasker } from "../../secrets/secret-masker.js";
import { maskSecrets, registeredSecrets, SHORTEST_SECRET } from "../../secrets/secret-registry.js";
import { envReferences } from "../../tools/expand-env.js";

/** Replaces every secret in a text; `secrets` lists the spellings it replaces (lower-cased). */
export interface Scrubber {
  (text: string): string;
  readonly secrets: readonly string[];
}

export function secretScrubber(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Scrubber {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    // Shorter values are too likely to occur by chance ("true", a port number).
    if (value !== undefined && value.length >= SHORTEST_SECRET) values.add(value);
  };
  for (const [name, value] of Object.entries(env)) if (SECRET_VARIABLE.test(name)) add(value);
  for (const value of extra) add(value);
  const masker = secretMasker([...values].map((value) => ({ value })));
  const scrub = (text: string): string => masker.text(maskSecrets(text));
  return Object.defineProperty(scrub, "secrets", {
    // Read at each use: a secret registered after the server started is held back too.
    get: () => [...masker.forms, ...registeredSecrets()],
  }) as Scrubber;
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
