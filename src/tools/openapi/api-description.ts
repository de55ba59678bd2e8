/**
 * An OpenAPI document reduced to what a toolset needs: operations with their parameters,
 * JSON request body and security requirements, the security schemes, the default server.
 * `describe-openapi3.ts` and `describe-swagger2.ts` build it from each version.
 */
export type JsonSchema = Record<string, unknown>;

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface ApiParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
  description?: string;
  /** `simple`, `label`, `matrix`, `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`. */
  style: string;
  explode: boolean;
  /** Query values keep RFC 3986 reserved characters unencoded. */
  allowReserved: boolean;
  /** Described by `content` rather than `schema`: the value is sent as JSON text. */
  json: boolean;
}

export interface ApiRequestBody {
  mediaType: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
  /** Bytes sent as they are (`application/octet-stream`), from a file or base64 (raw-body.ts). */
  raw?: boolean;
}

/** One alternative of an operation's `security`: every scheme named must be satisfied. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export type SecurityScheme =
  | { kind: "bearer" }
  | { kind: "basic" }
  | { kind: "apiKey"; in: "header" | "query" | "cookie"; name: string }
  | { kind: "unsupported"; what: string };

export interface ApiOperation {
  /** Upper case: `GET`, `POST`… */
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  parameters: ApiParameter[];
  body?: ApiRequestBody;
  /** A request body that only comes in media types this toolset does not send (not JSON). */
  unsupportedBody?: { mediaTypes: string[]; required: boolean };
  /** The effective requirement (the operation's, else the document's); empty: none. */
  security: readonly SecurityRequirement[];
  /** A server declared on the operation or its path, overriding the document's. */
  server?: string;
  /** Where that server is in the document, for messages. */
  serverPointer?: (string | number)[];
  /** Media types of the success responses (to choose `Accept`). */
  responseTypes: string[];
  /** Where it is in the document (`["paths", "/invoices", "post"]`), for messages. */
  pointer: (string | number)[];
}

export interface ApiDescription {
  title: string;
  /** The document's first server URL, variables filled with their defaults. */
  server: string | undefined;
  securitySchemes: Record<string, SecurityScheme>;
  operations: ApiOperation[];
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** `application/json`, `application/problem+json`, `application/json; charset=utf-8`. */
export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(mediaType.trim());
}
