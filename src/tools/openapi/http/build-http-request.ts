/**
 * A tool call's arguments as an HTTP request: path parameters substituted (encoded, and
 * never a `.` or `..` segment that would climb out of the API's path), query parameters
 * serialised by style, header and cookie parameters, the JSON body, the credentials of the
 * operation's security requirement, `Accept`. A query or cookie pair named like a
 * credential (an object's key, say) is refused: the toolset's credential is the only one.
 */

import { type ApiOperation, isJsonMediaType } from "../api-description.js";
import { OpenApiCallError } from "../openapi-call-error.js";
import type { OperationInput } from "../operation-input.js";
import type { Credential } from "./api-credentials.js";
import {
  serializeCookieParameter,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
} from "./serialize-parameter.js";

export interface BuiltRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** JSON text, or an upload's bytes. */
  body?: string | Uint8Array;
  /** `POST /invoices/{id}` — names the call in messages without its values. */
  label: string;
}

export interface RequestParts {
  operation: ApiOperation;
  input: OperationInput;
  args: Readonly<Record<string, unknown>>;
  /** No trailing slash. */
  baseUrl: string;
  /** Fixed headers of the toolset (lower-case names). */
  headers: Readonly<Record<string, string>>;
  credentials: readonly Credential[];
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

export function buildHttpRequest(parts: RequestParts): BuiltRequest {
  const { operation, input, args } = parts;
  const label = `${operation.method} ${operation.path}`;
  const refuse = (message: string): never => {
    throw new OpenApiCallError({ reason: "argument", message: `${label}: ${message}` });
  };
  let path = operation.path;
  const query: string[] = [];
  const headers: Record<string, string> = { ...parts.headers };
  const cookies: string[] = [];
  for (const { parameter, property } of input.bindings) {
    const value = args[property];
    if (value === undefined) {
      if (parameter.in === "path") refuse(`the path parameter ${property} is missing`);
      continue;
    }
    if (parameter.in === "path") {
      path = path.split(`{${parameter.name}}`).join(serializePathParameter(parameter, value));
      // URL parsing would resolve a `..` segment (even `%2e%2e`) and leave the API's path.
      if (path.split("/").some((piece) => DOT_SEGMENT.test(piece)))
        refuse(`the path parameter ${property} may not be "." or ".."`);
    } else if (parameter.in === "query") {
      query.push(...serializeQueryParameter(parameter, value));
    } else if (parameter.in === "header") {
      const text = serializeHeaderParameter(parameter, value);
      if (/[\r\n\0]/.test(text)) refuse(`the header parameter ${property} may not contain line breaks`);
      headers[parameter.name.toLowerCase()] = text;
    } else {
      cookies.push(...serializeCookieParameter(parameter, value));
    }
  }
  // An object value's keys become names (`form` explode): none may repeat a credential's.
  for (const credential of parts.credentials) {
    const taken = credential.name.toLowerCase();
    const pairs = credential.in === "query" ? query : credential.in === "cookie" ? cookies : [];
    if (pairs.some((pair) => pairName(pair) === taken))
      refuse(
        `the ${credential.in} parameter ${credential.name} is the toolset's credential; arguments cannot set it`,
      );
  }
  for (const credential of parts.credentials) {
    if (credential.in === "header") headers[credential.name.toLowerCase()] = credential.value;
    else if (credential.in === "query")
      query.push(`${encodeURIComponent(credential.name)}=${encodeURIComponent(credential.value)}`);
    else cookies.push(`${encodeURIComponent(credential.name)}=${encodeURIComponent(credential.value)}`);
  }
  if (cookies.length) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join("; ");
  headers.accept = acceptFor(operation.responseTypes);
  const url = new URL(parts.baseUrl + path);
  if (query.length) url.search = [url.search.replace(/^\?/, ""), ...query].filter(Boolean).join("&");
  const request: BuiltRequest = { method: operation.method, url, headers, label };
  const body = input.bodyProperty === undefined ? undefined : args[input.bodyProperty];
  if (body !== undefined && operation.body) {
    // An upload's bytes were read before (raw-body.ts); anything else is JSON.
    request.body = operation.body.raw && body instanceof Uint8Array ? body : JSON.stringify(body);
    headers["content-type"] = operation.body.mediaType;
  }
  return request;
}

/** The decoded, lower-case name of an encoded `name=value` pair. */
function pairName(pair: string): string {
  const name = pair.split("=", 1)[0]!;
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** JSON, unless the operation's success responses are declared and none of them is. */
function acceptFor(responseTypes: readonly string[]): string {
  if (responseTypes.length === 0 || responseTypes.some(isJsonMediaType)) return "application/json";
  return responseTypes.join(", ");
}
