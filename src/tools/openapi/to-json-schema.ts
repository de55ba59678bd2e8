/**
 * An OpenAPI schema object as a JSON Schema for a tool's input. OpenAPI 3.1 schemas are
 * JSON Schema already; 3.0 and Swagger 2.0 differ: `nullable` (and `x-nullable`) becomes a
 * `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, `example`
 * becomes `examples`, Swagger's `file` type is a string. OpenAPI-only keywords
 * (`discriminator`, `xml`, `externalDocs`) are dropped, and `readOnly` properties are left
 * out of a request. The dereferenced document may be cyclic (a recursive schema): a schema
 * met again inside itself becomes `{}` (anything), so the result is finite.
 */
import type { JsonSchema } from "./api-description.js";

export type SchemaDialect = "2.0" | "3.0" | "3.1";

const DROPPED = new Set([
  "discriminator",
  "xml",
  "externalDocs",
  "example",
  "x-nullable",
  "nullable",
  "$id",
  "$schema",
  "$anchor",
  "$dynamicAnchor",
  "$comment",
]);
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const SCHEMA_VALUES = [
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
] as const;

export function toJsonSchema(schema: unknown, dialect: SchemaDialect): JsonSchema {
  return convert(schema, dialect, new Set()) as JsonSchema;
}

function convert(schema: unknown, dialect: SchemaDialect, ancestors: Set<object>): unknown {
  if (typeof schema === "boolean") return schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  if (ancestors.has(schema)) return { description: "(recursive: see the enclosing schema)" };
  ancestors.add(schema);
  try {
    const source = schema as Record<string, unknown>;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(source)) {
      if (DROPPED.has(key) || key.startsWith("x-")) continue;
      if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
        out[key] = value.map((item) => convert(item, dialect, ancestors));
      } else if ((SCHEMA_MAPS as readonly string[]).includes(key) && isObject(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value)
            .filter(([, item]) => !(key === "properties" && isObject(item) && item.readOnly === true))
            .map(([name, item]) => [name, convert(item, dialect, ancestors)]),
        );
      } else if (
        (SCHEMA_VALUES as readonly string[]).includes(key) &&
        (isObject(value) || typeof value === "boolean")
      ) {
        out[key] = convert(value, dialect, ancestors);
      } else if (key === "items" && Array.isArray(value)) {
        out.prefixItems = value.map((item) => convert(item, dialect, ancestors));
      } else {
        out[key] = value;
      }
    }
    if (dialect !== "3.1") adaptLegacy(source, out);
    if ("example" in source && !("examples" in out)) out.examples = [source.example];
    if (Array.isArray(out.required) && isObject(source.properties)) {
      const kept = out.properties as Record<string, unknown>;
      out.required = (out.required as unknown[]).filter((name) => typeof name !== "string" || name in kept);
      if ((out.required as unknown[]).length === 0) delete out.required;
    }
    return out;
  } finally {
    ancestors.delete(schema);
  }
}

function adaptLegacy(source: Record<string, unknown>, out: JsonSchema): void {
  if (out.type === "file") out.type = "string";
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof source[flag] !== "boolean") continue;
    delete out[flag];
    if (source[flag] === true && typeof source[bound] === "number") {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
  if (source.nullable === true || source["x-nullable"] === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    else if (out.type === undefined && Object.keys(out).length > 0) {
      // `nullable` beside `allOf: [<ref>]` (a common 3.0 idiom): null, or what the rest says.
      const rest = { ...out };
      for (const key of Object.keys(out)) delete out[key];
      out.anyOf = [rest, { type: "null" }];
    }
  }
  if (
    Array.isArray(out.enum) &&
    Array.isArray(out.type) &&
    out.type.includes("null") &&
    !out.enum.includes(null)
  )
    out.enum = [...out.enum, null];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
