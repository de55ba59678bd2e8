/**
 * Request bodies: JSON only (a cross-site form cannot post JSON without a CORS preflight,
 * which this server refuses unless configured), within the size limit (413, enforced by the
 * body-limit middleware before a byte is parsed), and matching the endpoint's schema — a
 * 400 that names the field, what was expected and what came.
 */
import type { Context } from "hono";
import type { z } from "../../deps/zod.js";
import { HttpError } from "./http-error.js";

export function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    "body_too_large",
    `the request body is larger than ${limit} bytes (server.body_limit)`,
  );
}

export async function readBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  options: { optional?: boolean } = {},
): Promise<z.output<Schema>> {
  const type = c.req.header("content-type") ?? "";
  // An endpoint whose fields are all optional takes no body at all.
  if (options.optional && !type && !Number(c.req.header("content-length") ?? 0)) return schema.parse({});
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `send the body as JSON (Content-Type: application/json), not "${type || "nothing"}"`,
    );
  }
  let value: unknown;
  try {
    value = await c.req.json();
  } catch (error) {
    throw new HttpError(400, "invalid_json", `the body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? issue.path.join(".") : "(the body)";
    throw new HttpError(400, "invalid_body", `${path}: ${issue.message}`, {
      issues: parsed.error.issues.map((item) => ({ path: item.path.join("."), message: item.message })),
    });
  }
  return parsed.data;
}
