/**
 * The JSON Schema a REST tool's input is checked against, derived from the one the model
 * is sent: the same constraints, in the forms the local validator reads.
 * - `default` is dropped: a validator that fills defaults in would send `page=1&limit=10`
 *   the model never asked for; the server applies its own defaults to what is absent.
 * - JSON Schema 2020-12's `unevaluatedProperties` (OpenAPI 3.1) becomes
 *   `additionalProperties` over every property the schema or its `allOf` / `anyOf` /
 *   `oneOf` members declare, so an object that says "nothing else" is still checked (a
 *   property some branch declares counts as evaluated). `unevaluatedItems` becomes `items`
 *   beside `prefixItems`.
 * `prefixItems`, `const` and `$defs` are read by the validator as they are.
 */
import type { JsonSchema } from "./api-description.js";

const COMBINERS = ["allOf", "anyOf", "oneOf"] as const;

export function validationSchema(schema: JsonSchema): JsonSchema {
  return convert(schema, new Map()) as JsonSchema;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords whose value maps names to schemas (a property may be named "default"). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is data, not schemas. */
const DATA = new Set(["enum", "const", "examples", "required"]);

function convert(value: unknown, seen: Map<object, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, seen));
  if (!isObject(value)) return value;
  const known = seen.get(value);
  if (known) return known;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) {
    if (key === "default") continue;
    if (DATA.has(key)) out[key] = item;
    else if (SCHEMA_MAPS.has(key) && isObject(item))
      out[key] = Object.fromEntries(
        Object.entries(item).map(([name, schema]) => [name, convert(schema, seen)]),
      );
    else out[key] = convert(item, seen);
  }
  if ("unevaluatedProperties" in out) {
    const rest = out.unevaluatedProperties;
    delete out.unevaluatedProperties;
    foldPlainMembers(out);
    const properties = { ...(isObject(out.properties) ? out.properties : {}) };
    for (const name of declaredProperties(out)) if (!(name in properties)) properties[name] = {};
    out.properties = properties;
    if (!("additionalProperties" in out)) out.additionalProperties = rest;
  }
  if ("unevaluatedItems" in out) {
    if (!("items" in out) && Array.isArray(out.prefixItems)) out.items = out.unevaluatedItems;
    delete out.unevaluatedItems;
  }
  return out;
}

/** Keywords an `allOf` member may hold and still be merged into its parent. */
const FOLDABLE = new Set(["type", "properties", "required", "description", "title"]);

/**
 * `allOf` members that only declare properties are merged into the parent: the validator
 * reads a closed object with `allOf` as an intersection that lets unknown keys through.
 */
function foldPlainMembers(out: Record<string, unknown>): void {
  if (!Array.isArray(out.allOf)) return;
  const kept: unknown[] = [];
  for (const member of out.allOf) {
    if (
      !isObject(member) ||
      !Object.keys(member).every((key) => FOLDABLE.has(key)) ||
      (member.type ?? "object") !== "object"
    ) {
      kept.push(member);
      continue;
    }
    out.properties = {
      ...(isObject(member.properties) ? member.properties : {}),
      ...(isObject(out.properties) ? out.properties : {}),
    };
    if (Array.isArray(member.required))
      out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...member.required])];
  }
  if (kept.length) out.allOf = kept;
  else delete out.allOf;
}

function declaredProperties(schema: Record<string, unknown>): Set<string> {
  const names = new Set<string>(isObject(schema.properties) ? Object.keys(schema.properties) : []);
  for (const combiner of COMBINERS) {
    const members = schema[combiner];
    if (!Array.isArray(members)) continue;
    for (const member of members)
      if (isObject(member)) for (const name of declaredProperties(member)) names.add(name);
  }
  return names;
}
