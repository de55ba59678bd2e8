/**
 * An OpenAPI document as a toolset: one tool per selected operation, named by its
 * `operationId` (`api.create_invoice`, function `api_create_invoice`), described by its
 * summary and description, whose input holds its parameters and JSON body. A call sends
 * the HTTP request (credentials from the environment, by the document's security schemes)
 * and returns `{ status, body }`; a 4xx/5xx answer, a timeout, an oversized answer or a
 * redirect to another host is a tool error the model reads. Hooks and policies see these
 * tools like any other.
 */
import type { HookwiseError } from "../../errors/hookwise-error.js";
import { EnvVariableError, envReferences, expandEnv, unsetVariableProblem } from "../expand-env.js";
import { normalizeSchema } from "../input-schema.js";
import { type ResolvedTool, resolveTool } from "../resolved-tool.js";
import type { ToolExecutionOptions } from "../tool.js";
import type { Toolset } from "../toolset.js";
import type { ApiDescription, ApiOperation } from "./api-description.js";
import { describeOpenApi3 } from "./describe-openapi3.js";
import { describeSwagger2 } from "./describe-swagger2.js";
import { type ApiDocument, loadOpenApiDocument } from "./document/load-openapi-document.js";
import {
  type ApiCredentials,
  type AuthSetting,
  credentialsFor,
  resolveCredentials,
  withoutCredentialParameters,
} from "./http/api-credentials.js";
import { buildHttpRequest } from "./http/build-http-request.js";
import { operationBaseUrl, type ServerSettings } from "./http/operation-base-url.js";
import { rawBody } from "./http/raw-body.js";
import { type Redactor, secretRedactor } from "./http/secret-redactor.js";
import { sendHttpRequest } from "./http/send-http-request.js";
import { OpenApiToolsetError, type SettingPath } from "./openapi-toolset-error.js";
import { operationInput } from "./operation-input.js";
import { operationToolNames } from "./operation-tool-names.js";
import { selectOperations } from "./select-operations.js";
import { validationSchema } from "./validation-schema.js";

export interface OpenApiToolsetOptions {
  /** The document: a path (relative to `baseDir`) or an `https://` URL. `${VAR}` is expanded. */
  spec: string;
  /** Where a relative `spec` is found. Default: the working folder. */
  baseDir?: string;
  /** Replaces the document's servers (`${VAR}` is expanded). */
  baseUrl?: string;
  /** Globs over tool names; `!glob` drops. Default: every operation. */
  operations?: readonly string[];
  /** Credentials per security scheme of the document; secrets as `${VAR}`. */
  auth?: Readonly<Record<string, AuthSetting>>;
  /** Sent with every request; `${VAR}` values are read from the environment and redacted like credentials. */
  headers?: Readonly<Record<string, string>>;
  /** Per attempt (and for fetching the document). Default 30 000. */
  timeoutMs?: number;
  /** Larger answers are refused. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Retries of a 429 / 503 answer. Default 2. */
  retries?: number;
  /** Default true: function names are `toolset_tool`. */
  prefix?: boolean;
  /** Where `${VAR}`s are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Problems that do not stop the toolset (an operation skipped, a credential never used). */
  onWarning?: (warning: { at: SettingPath; message: string }) => void;
}

export interface OpenApiToolset extends Toolset {
  /** Per qualified tool name, its endpoint: `POST /invoices`. */
  readonly endpoints: ReadonlyMap<string, string>;
}

const DEFAULTS = { timeoutMs: 30_000, maxResponseBytes: 1_048_576, retries: 2 };
const MAX_DOCUMENT_BYTES = 10 * 1_048_576;
/** Above this, the tools' descriptions and schemas cost a request more than most prompts do. */
export const SCHEMA_BUDGET_BYTES = 100 * 1024;

/** What the tools cost every model request: their names, descriptions and input schemas as JSON. */
function schemaBytes(tools: readonly ResolvedTool[]): number {
  let bytes = 0;
  for (const tool of tools)
    bytes += Buffer.byteLength(
      JSON.stringify({
        name: tool.functionName,
        description: tool.description,
        inputSchema: tool.input.jsonSchema,
      }),
    );
  return bytes;
}

export async function openapiToolset(name: string, options: OpenApiToolsetOptions): Promise<OpenApiToolset> {
  const env = options.env ?? process.env;
  const warn = options.onWarning ?? (() => {});
  const expand = (value: string, at: SettingPath) => expandSetting(name, value, at, env);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const loaded = await loadOpenApiDocument(expand(options.spec, ["spec"]), {
    toolset: name,
    baseDir: options.baseDir ?? process.cwd(),
    timeoutMs,
    maxBytes: MAX_DOCUMENT_BYTES,
  });
  const api = describe(loaded);
  const names = operationToolNames(api.operations);
  const selected = selectOperations(name, names, options.operations);
  const credentials = resolveCredentials(name, options.auth ?? {}, api.securitySchemes, env);
  const headers: Record<string, string> = {};
  const secrets = [...credentials.secrets];
  for (const [header, value] of Object.entries(options.headers ?? {})) {
    headers[header.toLowerCase()] = expand(value, ["headers", header]);
    // `Authorization: "Bearer ${TOKEN}"`: the token alone is a secret too (a server may echo it bare).
    for (const variable of envReferences(value)) if (env[variable]) secrets.push(env[variable]!);
  }
  const headerSecrets = secrets.length > credentials.secrets.length;
  const servers: ServerSettings = {
    toolset: name,
    configured: options.baseUrl === undefined ? undefined : expand(options.baseUrl, ["base_url"]),
    documentServer: api.server,
    loaded,
  };
  const context: CallContext = {
    toolset: name,
    baseDir: options.baseDir ?? process.cwd(),
    headers,
    credentials,
    redactor: secretRedactor(secrets),
    timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    retries: options.retries ?? DEFAULTS.retries,
  };
  const tools: ResolvedTool[] = [];
  const endpoints = new Map<string, string>();
  const used = new Set<string>();
  api.operations.forEach((operation, index) => {
    if (!selected[index]) return;
    const tool = names[index]!;
    // Optional or not, a body the tool could not send would be dropped without a word.
    if (operation.unsupportedBody) {
      warn({
        at: ["spec"],
        message: `${operation.method} ${operation.path} (${tool}) is left out: its request body is ${operation.unsupportedBody.mediaTypes.join(" or ")}, and OpenAPI tools send JSON or application/octet-stream`,
      });
      return;
    }
    const sent = credentialsFor(operation.security, credentials);
    if (sent === undefined) {
      const needed = operation.security
        .map((alternative) => Object.keys(alternative).join(" + "))
        .join(" or ");
      warn({
        at: ["auth"],
        message: `${tool} requires ${needed}, which has no credentials under auth: it is called without`,
      });
    }
    for (const alternative of operation.security)
      for (const scheme of Object.keys(alternative)) used.add(scheme);
    const baseUrl = operationBaseUrl(servers, operation, {
      tool,
      sendsSecrets: (sent?.length ?? 0) > 0 || headerSecrets,
    });
    const callable = withoutCredentialParameters(operation, sent ?? []);
    const resolved = operationTool(tool, callable, { ...context, baseUrl }, options.prefix ?? true, warn);
    tools.push(resolved);
    endpoints.set(resolved.qualifiedName, `${operation.method} ${operation.path}`);
  });
  if (tools.length === 0)
    warn({ at: ["spec"], message: "no operation is selected: the toolset has no tools" });
  const sent = schemaBytes(tools);
  if (sent > SCHEMA_BUDGET_BYTES)
    warn({
      at: options.operations ? ["operations"] : ["spec"],
      message: `its ${tools.length} tools' descriptions and schemas are ${Math.round(sent / 1024)} KB, sent with every model request (over ${SCHEMA_BUDGET_BYTES / 1024} KB): list the operations the agent needs under operations: (globs over tool names, "!glob" drops)`,
    });
  for (const scheme of Object.keys(options.auth ?? {})) {
    if (!used.has(scheme))
      warn({ at: ["auth", scheme], message: `no selected operation requires "${scheme}": it is never sent` });
  }
  return { name, tools, endpoints, close: async () => {} };
}

interface CallContext {
  toolset: string;
  /** The folder uploads are read from (the config's). */
  baseDir: string;
  headers: Readonly<Record<string, string>>;
  credentials: ApiCredentials;
  redactor: Redactor;
  timeoutMs: number;
  maxResponseBytes: number;
  retries: number;
}

function operationTool(
  tool: string,
  operation: ApiOperation,
  context: CallContext & { baseUrl: string },
  prefix: boolean,
  warn: NonNullable<OpenApiToolsetOptions["onWarning"]>,
): ResolvedTool {
  const input = operationInput(operation);
  const execute = async (args: Record<string, unknown>, execution: ToolExecutionOptions) => {
    let given = args ?? {};
    if (operation.body?.raw && input.bodyProperty && given[input.bodyProperty] !== undefined) {
      const label = `${operation.method} ${operation.path}`;
      given = {
        ...given,
        [input.bodyProperty]: await rawBody(given[input.bodyProperty], context.baseDir, label),
      };
    }
    const request = buildHttpRequest({
      operation,
      input,
      args: given,
      baseUrl: context.baseUrl,
      headers: context.headers,
      credentials: credentialsFor(operation.security, context.credentials) ?? [],
    });
    return sendHttpRequest(request, {
      timeoutMs: context.timeoutMs,
      maxResponseBytes: context.maxResponseBytes,
      retries: context.retries,
      signal: execution.signal,
      redactor: context.redactor,
    });
  };
  const description =
    [operation.summary, operation.description].filter(Boolean).join("\n\n") ||
    `${operation.method} ${operation.path}`;
  const definition = {
    description: operation.deprecated ? `(deprecated) ${description}` : description,
    inputSchema: input.schema,
    execute,
  };
  const checked = validationSchema(input.schema);
  try {
    normalizeSchema(checked, `tool "${context.toolset}.${tool}"`);
  } catch (error) {
    // A schema the local validator cannot read still reaches the model; the server validates.
    warn({
      at: ["spec"],
      message: `${tool}: input not checked locally (${(error as HookwiseError).message})`,
    });
    const accept = (value: unknown) => ({ ok: true as const, value });
    const resolved = resolveTool(
      tool,
      { ...definition, inputSchema: undefined },
      { toolset: context.toolset, prefix },
    );
    return { ...resolved, input: { jsonSchema: input.schema, validate: accept, check: accept } };
  }
  // The model is sent the document's schema (defaults included, as hints); the input is
  // checked against its validation form (validation-schema.ts), which fills nothing in.
  const resolved = resolveTool(
    tool,
    { ...definition, inputSchema: checked },
    { toolset: context.toolset, prefix },
  );
  return { ...resolved, input: { ...resolved.input, jsonSchema: input.schema } };
}

function describe(loaded: ApiDocument): ApiDescription {
  return loaded.document.swagger !== undefined
    ? describeSwagger2(loaded.document)
    : describeOpenApi3(loaded.document);
}

function expandSetting(toolset: string, value: string, at: SettingPath, env: NodeJS.ProcessEnv): string {
  try {
    return expandEnv(value, at.join("."), env);
  } catch (error) {
    if (!EnvVariableError.isInstance(error)) throw error;
    throw new OpenApiToolsetError({ toolset, at, ...unsetVariableProblem(error.variable) });
  }
}
