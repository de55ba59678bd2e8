/**
 * How to reach an MCP server: a command spoken to over stdio, or a streamable
 * HTTP endpoint. `${VAR}` / `${VAR:-default}` in `args`, `env`, `url` and `headers` are
 * read from the environment when the server starts, so tokens stay out of config files
 * (`headers: { Authorization: "Bearer ${GITHUB_TOKEN}" }`).
 */
import { HookwiseError } from "../../errors/hookwise-error.js";
import { envReferences, expandEnv } from "../expand-env.js";

export { expandEnv };

export type McpServerSpec =
  | {
      command: string;
      args?: readonly string[];
      /** Added to the SDK's safe default environment (HOME, PATH, …), not the whole of ours. */
      env?: Readonly<Record<string, string>>;
      /** Working directory of the server process (a config's folder). */
      cwd?: string;
    }
  | { url: string; headers?: Readonly<Record<string, string>> };

function expandRecord(
  record: Readonly<Record<string, string>> | undefined,
  where: string,
): Record<string, string> | undefined {
  if (!record) return undefined;
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, expandEnv(value, `${where}.${key}`)]),
  );
}

/** The spec with every `${VAR}` filled in; throws a HookwiseError for a spec that is neither kind. */
export function expandSpec(spec: McpServerSpec, where: string): McpServerSpec {
  if ("command" in spec && "url" in spec) {
    throw new HookwiseError(`${where}: give either command (stdio) or url (streamable HTTP), not both`);
  }
  if ("command" in spec) {
    if (!spec.command) throw new HookwiseError(`${where}: command is empty`);
    const expanded: McpServerSpec = {
      command: expandEnv(spec.command, `${where}.command`),
      args: (spec.args ?? []).map((arg, index) => expandEnv(arg, `${where}.args[${index}]`)),
    };
    const env = expandRecord(spec.env, `${where}.env`);
    if (env) expanded.env = env;
    if (spec.cwd) expanded.cwd = spec.cwd;
    return expanded;
  }
  if ("url" in spec && spec.url) {
    const url = expandEnv(spec.url, `${where}.url`);
    try {
      new URL(url);
    } catch {
      // The URL as written: its expansion may hold a token.
      throw new HookwiseError(
        `${where}: url "${spec.url}" is not a valid URL (e.g. http://127.0.0.1:3000/mcp)`,
      );
    }
    const headers = expandRecord(spec.headers, `${where}.headers`);
    return headers ? { url, headers } : { url };
  }
  throw new HookwiseError(
    `${where}: an MCP toolset needs command (stdio, e.g. command: node, args: [./server.js]) or url (streamable HTTP)`,
  );
}

/**
 * A short label for messages: the command line, or the URL without its user, password,
 * query and fragment (where tokens ride). Give it the spec as written (`${VAR}` kept), not
 * the expanded one, so no value from the environment is printed.
 */
export function describeSpec(spec: McpServerSpec): string {
  if ("command" in spec) return [spec.command, ...(spec.args ?? [])].join(" ");
  try {
    const url = new URL(spec.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return spec.url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, "$1").replace(/[?#].*$/s, "");
  }
}

/**
 * The values `expandSpec` substitutes from the environment (non-empty), to be masked in
 * whatever a server or the SDK says about a failed start.
 */
export function substitutedValues(spec: McpServerSpec, env: NodeJS.ProcessEnv = process.env): string[] {
  const written =
    "command" in spec
      ? [spec.command, ...(spec.args ?? []), ...Object.values(spec.env ?? {})]
      : [spec.url, ...Object.values(spec.headers ?? {})];
  const values = written.flatMap(envReferences).map((name) => env[name] ?? "");
  return [...new Set(values.filter((value) => value !== ""))];
}

/** Two specs that would start the same server share one connection (see mcp-pool.ts). */
export function specKey(spec: McpServerSpec): string {
  return JSON.stringify(
    "command" in spec
      ? ["stdio", spec.command, spec.args ?? [], Object.entries(spec.env ?? {}).sort(), spec.cwd ?? ""]
      : ["http", spec.url, Object.entries(spec.headers ?? {}).sort()],
  );
}

/** What a URL carries besides its address (user and password, query, fragment): masked in messages. */
export function urlSecrets(spec: McpServerSpec): string[] {
  if (!("url" in spec)) return [];
  try {
    const url = new URL(spec.url);
    const userinfo = url.password ? `${url.username}:${url.password}` : url.username;
    return [userinfo, url.password, url.search.slice(1), url.hash.slice(1)].filter((part) => part !== "");
  } catch {
    return [];
  }
}
