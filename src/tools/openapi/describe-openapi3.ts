/** An OpenAPI 3.0 / 3.1 document (dereferenced) as an ApiDescription. */
import {
  type ApiDescription,
  type ApiOperation,
  type ApiParameter,
  type ApiRequestBody,
  HTTP_METHODS,
  isJsonMediaType,
  type ParameterLocation,
  type SecurityScheme,
} from "./api-description.js";
import { rawBodySchema } from "./http/raw-body.js";
import { type SchemaDialect, toJsonSchema } from "./to-json-schema.js";

const LOCATIONS = new Set<ParameterLocation>(["path", "query", "header", "cookie"]);
/** Header parameters OpenAPI says to ignore: the toolset sets these itself. */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);

export function describeOpenApi3(document: Record<string, any>): ApiDescription {
  const dialect: SchemaDialect = String(document.openapi).startsWith("3.0") ? "3.0" : "3.1";
  const operations: ApiOperation[] = [];
  for (const [path, pathItem] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    if (!pathItem || typeof pathItem !== "object") continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation || typeof operation !== "object") continue;
      operations.push(describeOperation(document, dialect, path, pathItem, method, operation));
    }
  }
  return {
    title: String(document.info?.title ?? ""),
    server: serverUrl(document.servers?.[0]),
    securitySchemes: securitySchemes(document.components?.securitySchemes ?? {}),
    operations,
  };
}

function describeOperation(
  document: Record<string, any>,
  dialect: SchemaDialect,
  path: string,
  pathItem: Record<string, any>,
  method: string,
  operation: Record<string, any>,
): ApiOperation {
  const described: ApiOperation = {
    method: method.toUpperCase(),
    path,
    deprecated: operation.deprecated === true,
    parameters: mergeParameters(pathItem.parameters, operation.parameters).flatMap((parameter) =>
      describeParameter(parameter, dialect),
    ),
    security: operation.security ?? document.security ?? [],
    responseTypes: responseTypes(operation.responses),
    pointer: ["paths", path, method],
  };
  if (typeof operation.operationId === "string") described.operationId = operation.operationId;
  if (typeof operation.summary === "string") described.summary = operation.summary;
  if (typeof operation.description === "string") described.description = operation.description;
  const server = serverUrl(operation.servers?.[0] ?? pathItem.servers?.[0]);
  if (server !== undefined) {
    described.server = server;
    described.serverPointer = operation.servers?.[0]
      ? ["paths", path, method, "servers", 0, "url"]
      : ["paths", path, "servers", 0, "url"];
  }
  const content: Record<string, any> | undefined = operation.requestBody?.content;
  if (content && Object.keys(content).length) {
    const required = operation.requestBody.required === true;
    const json = Object.keys(content).find(isJsonMediaType);
    if (json) {
      const body: ApiRequestBody = {
        mediaType: json,
        required,
        schema: toJsonSchema(content[json]?.schema ?? {}, dialect),
      };
      if (typeof operation.requestBody.description === "string")
        body.description = operation.requestBody.description;
      described.body = body;
    } else if (content["application/octet-stream"]) {
      described.body = {
        mediaType: "application/octet-stream",
        required,
        schema: rawBodySchema("application/octet-stream"),
        raw: true,
      };
    } else {
      described.unsupportedBody = { mediaTypes: Object.keys(content), required };
    }
  }
  return described;
}

/** Path-level parameters, overridden by the operation's of the same name and location. */
function mergeParameters(pathLevel: unknown, operationLevel: unknown): Record<string, any>[] {
  const merged = new Map<string, Record<string, any>>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (parameter && typeof parameter === "object")
        merged.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...merged.values()];
}

function describeParameter(parameter: Record<string, any>, dialect: SchemaDialect): ApiParameter[] {
  const location = parameter.in as ParameterLocation;
  if (!LOCATIONS.has(location) || typeof parameter.name !== "string") return [];
  if (location === "header" && RESERVED_HEADERS.has(parameter.name.toLowerCase())) return [];
  const content: Record<string, any> | undefined = parameter.content;
  const contentSchema = content ? Object.values(content)[0]?.schema : undefined;
  const style: string =
    parameter.style ?? (location === "query" || location === "cookie" ? "form" : "simple");
  const described: ApiParameter = {
    name: parameter.name,
    in: location,
    required: location === "path" || parameter.required === true,
    schema: toJsonSchema(parameter.schema ?? contentSchema ?? {}, dialect),
    style,
    explode: typeof parameter.explode === "boolean" ? parameter.explode : style === "form",
    allowReserved: parameter.allowReserved === true,
    json: parameter.schema === undefined && contentSchema !== undefined,
  };
  if (typeof parameter.description === "string") described.description = parameter.description;
  return [described];
}

function responseTypes(responses: Record<string, any> | undefined): string[] {
  const types = new Set<string>();
  for (const [status, response] of Object.entries(responses ?? {})) {
    if (!/^(2\d\d|2XX|default)$/i.test(status)) continue;
    for (const mediaType of Object.keys(response?.content ?? {})) types.add(mediaType);
  }
  return [...types];
}

/** A server's URL with its variables set to their defaults. */
export function serverUrl(server: Record<string, any> | undefined): string | undefined {
  if (!server || typeof server.url !== "string") return undefined;
  return server.url.replace(/\{([^}]+)\}/g, (whole: string, name: string) => {
    const value = server.variables?.[name]?.default;
    return value === undefined ? whole : String(value);
  });
}

function securitySchemes(schemes: Record<string, any>): Record<string, SecurityScheme> {
  const out: Record<string, SecurityScheme> = {};
  for (const [name, scheme] of Object.entries(schemes)) out[name] = securityScheme(scheme);
  return out;
}

function securityScheme(scheme: Record<string, any>): SecurityScheme {
  const type = String(scheme?.type);
  if (type === "http") {
    const kind = String(scheme.scheme ?? "").toLowerCase();
    if (kind === "bearer") return { kind: "bearer" };
    if (kind === "basic") return { kind: "basic" };
    return { kind: "unsupported", what: `HTTP ${scheme.scheme} authentication` };
  }
  if (
    type === "apiKey" &&
    ["header", "query", "cookie"].includes(scheme.in) &&
    typeof scheme.name === "string"
  )
    return { kind: "apiKey", in: scheme.in, name: scheme.name };
  // An OAuth 2 / OpenID Connect token obtained elsewhere is sent as a bearer token.
  if (type === "oauth2" || type === "openIdConnect") return { kind: "bearer" };
  return { kind: "unsupported", what: `${type} authentication` };
}
