/**
 * Normalises a tool's schema (zod, AI SDK `jsonSchema()`, or plain JSON Schema) into the
 * JSON Schema sent to the model and a validator run before `execute`.
 */
import { z } from "../deps/zod.js";

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

export interface NormalizedSchema {
  jsonSchema: Record<string, unknown>;
  validate(value: unknown): Validation;
}

type ZodLike = {
  _zod: unknown;
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
};

function isZod(schema: unknown): schema is ZodLike {
  return typeof schema === "object" && schema !== null && "_zod" in schema && "safeParse" in schema;
}

function describeIssues(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues ?? [];
  if (issues.length === 0) return "invalid input";
  return issues
    .map((issue) =>
      issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message,
    )
    .join("; ");
}

function fromZod(schema: ZodLike): NormalizedSchema {
  const jsonSchema = z.toJSONSchema(schema as unknown as z.ZodType, { io: "input" }) as Record<
    string,
    unknown
  >;
  delete jsonSchema.$schema;
  return {
    jsonSchema,
    validate(value) {
      const parsed = schema.safeParse(value);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, message: describeIssues(parsed.error) };
    },
  };
}

export function normalizeSchema(schema: unknown, where: string): NormalizedSchema {
  if (schema === undefined) return normalizeSchema({ type: "object", properties: {} }, where);
  if (isZod(schema)) return fromZod(schema);
  if (typeof schema === "object" && schema !== null && "jsonSchema" in schema) {
    return normalizeSchema((schema as { jsonSchema: unknown }).jsonSchema, where);
  }
  if (typeof schema !== "object" || schema === null) {
    throw new TypeError(`${where}: inputSchema must be a zod schema or a JSON Schema object`);
  }
  const jsonSchema = schema as Record<string, unknown>;
  let validator: ZodLike;
  try {
    validator = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]) as unknown as ZodLike;
  } catch (error) {
    throw new TypeError(`${where}: inputSchema is not a valid JSON Schema (${(error as Error).message})`);
  }
  return { jsonSchema, validate: fromZod(validator).validate };
}
