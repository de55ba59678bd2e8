/**
 * A Swagger 2.0 document (dereferenced) as an ApiDescription: `host` + `basePath` give the
 * server, a `body` parameter the JSON body, `collectionFormat` the query style, and
 * `securityDefinitions` the schemes (OAuth 2 tokens are sent as bearer tokens).
 */
import {
  type ApiDescription,
  type ApiOperation,
  type ApiParameter,
  HTTP_METHODS,
  isJsonMediaType,
  type ParameterLocation,
  type SecurityScheme,
} from "./api-description.js";
import { rawBodySchema } from "./http/raw-body.js";
import { toJsonSchema } from "./to-json-schema.js";

const NOT_SCHEMA = new Set(["name", "in", "required", "description", "collectionFormat", "allowEmptyValue"]);
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);

export function describeSwagger2(document: Record<string, any>): ApiDescription {
  const operations: ApiOperation[] = [];
  const consumes: string[] = document.consumes ?? [];
  const produces: string[] = document.produces ?? [];
  for (const [path, pathItem] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    if (!pathItem || typeof pathItem !== "object") continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation || typeof operation !== "object" || method === "trace") continue;
      const merged = new Map<string, Record<string, any>>();
      for (const list of [pathItem.parameters, operation.parameters]) {
        for (const parameter of Array.isArray(list) ? list : [])
          merged.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      const described: ApiOperation = {
        method: method.toUpperCase(),
        path,
        deprecated: operation.deprecated === true,
        parameters: [...merged.values()].flatMap(describeParameter),
        security: operation.security ?? document.security ?? [],
        responseTypes: operation.produces ?? produces,
        pointer: ["paths", path, method],
      };
      if (typeof operation.operationId === "string") described.operationId = operation.operationId;
      if (typeof operation.summary === "string") described.summary = operation.summary;
      if (typeof operation.description === "string") described.description = operation.description;
      const mediaTypes: string[] = operation.consumes ?? consumes;
      const body = [...merged.values()].find((parameter) => parameter.in === "body");
      const form = [...merged.values()].filter((parameter) => parameter.in === "formData");
      if (body && (mediaTypes.length === 0 || mediaTypes.some(isJsonMediaType))) {
        described.body = {
          mediaType: mediaTypes.find(isJsonMediaType) ?? "application/json",
          required: body.required === true,
          schema: toJsonSchema(body.schema ?? {}, "2.0"),
          ...(typeof body.description === "string" ? { description: body.description } : {}),
        };
      } else if (body && mediaTypes.includes("application/octet-stream")) {
        described.body = {
          mediaType: "application/octet-stream",
          required: body.required === true,
          schema: rawBodySchema("application/octet-stream"),
          raw: true,
        };
      } else if (body || form.length) {
        described.unsupportedBody = {
          mediaTypes: mediaTypes.length ? mediaTypes : ["application/x-www-form-urlencoded"],
          required: (body?.required ?? false) || form.some((parameter) => parameter.required === true),
        };
      }
      operations.push(described);
    }
  }
  const server =
    typeof document.host === "string"
      ? `${document.schemes?.[0] ?? "https"}://${document.host}${document.basePath ?? ""}`
      : typeof document.basePath === "string"
        ? document.basePath
        : undefined;
  return {
    title: String(document.info?.title ?? ""),
    server,
    securitySchemes: Object.fromEntries(
      Object.entries<Record<string, any>>(document.securityDefinitions ?? {}).map(([name, scheme]) => [
        name,
        securityScheme(scheme),
      ]),
    ),
    operations,
  };
}

function describeParameter(parameter: Record<string, any>): ApiParameter[] {
  const location = parameter.in as ParameterLocation | "body" | "formData";
  if (location === "body" || location === "formData" || typeof parameter.name !== "string") return [];
  if (location === "header" && RESERVED_HEADERS.has(parameter.name.toLowerCase())) return [];
  const schema = Object.fromEntries(Object.entries(parameter).filter(([key]) => !NOT_SCHEMA.has(key)));
  const format = parameter.collectionFormat ?? "csv";
  const style =
    format === "ssv"
      ? "spaceDelimited"
      : format === "pipes"
        ? "pipeDelimited"
        : location === "query"
          ? "form"
          : "simple";
  const described: ApiParameter = {
    name: parameter.name,
    in: location,
    required: location === "path" || parameter.required === true,
    schema: toJsonSchema(schema, "2.0"),
    style,
    explode: format === "multi",
    allowReserved: false,
    json: false,
  };
  if (typeof parameter.description === "string") described.description = parameter.description;
  return [described];
}

function securityScheme(scheme: Record<string, any>): SecurityScheme {
  if (scheme?.type === "basic") return { kind: "basic" };
  if (
    scheme?.type === "apiKey" &&
    (scheme.in === "header" || scheme.in === "query") &&
    typeof scheme.name === "string"
  )
    return { kind: "apiKey", in: scheme.in, name: scheme.name };
  if (scheme?.type === "oauth2") return { kind: "bearer" };
  return { kind: "unsupported", what: `${scheme?.type} authentication` };
}
