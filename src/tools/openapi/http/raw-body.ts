/**
 * An upload's bytes (an `application/octet-stream` request body): the model names a file
 * under the toolset's folder (the config's; never outside it, symbolic links included) or
 * gives the bytes as base64. Either way at most `MAX_UPLOAD_BYTES`.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { resolveInside } from "../../builtin/resolve-inside.js";
import type { JsonSchema } from "../api-description.js";
import { OpenApiCallError } from "../openapi-call-error.js";

export const MAX_UPLOAD_BYTES = 10 * 1_048_576;

/** The body property of an upload, as the model is told. */
export function rawBodySchema(mediaType: string): JsonSchema {
  return {
    type: "object",
    description: `The ${mediaType} request body: a file (path relative to the project folder) or base64 bytes, at most ${MAX_UPLOAD_BYTES} bytes`,
    properties: {
      file: { type: "string", description: "A file to send, relative to the project folder" },
      base64: { type: "string", description: "The bytes to send, base64-encoded" },
    },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
  };
}

export async function rawBody(value: unknown, baseDir: string, label: string): Promise<Uint8Array> {
  const refuse = (message: string): never => {
    throw new OpenApiCallError({ reason: "argument", message: `${label}: ${message}` });
  };
  const { file, base64 } = (value ?? {}) as { file?: unknown; base64?: unknown };
  if (typeof file === "string") {
    const path = await resolveInside(await realpath(baseDir), file);
    const size = (await stat(path)).size;
    if (size > MAX_UPLOAD_BYTES)
      refuse(`the file ${file} is ${size} bytes, over the ${MAX_UPLOAD_BYTES} an upload may be`);
    return readFile(path);
  }
  if (typeof base64 === "string") {
    const text = base64.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) refuse("body.base64 is not base64");
    if ((text.length * 3) / 4 > MAX_UPLOAD_BYTES + 3)
      refuse(`the body is over the ${MAX_UPLOAD_BYTES} bytes an upload may be`);
    return Buffer.from(text, "base64");
  }
  return refuse("the body needs file or base64");
}
