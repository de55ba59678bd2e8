/**
 * Normalises a tool's schema into the JSON Schema sent to the model and a validator run
 * before `execute`. Accepts what the AI SDK accepts: zod 4 and zod 3 schemas, Standard
 * Schemas (valibot, arktype… with a JSON Schema converter), AI SDK `jsonSchema()` /
 * `zodSchema()` schemas and lazy schemas, and plain JSON Schema objects.
 */
import { lazy, loadPackage } from "../deps/load-package.js";
import { z } from "../deps/zod.js";

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

export interface NormalizedSchema {
  jsonSchema: Record<string, unknown>;
  /** The schema's own validator; a promise only when the schema validates asynchronously. */
  check(value: unknown): Validation | Promise<Validation>;
  /**
   * A synchronous check (a hook's rewrite is checked while the hooks run): the schema's own
   * validator when it answers at once, else the JSON Schema's.
   */
  validate(value: unknown): Validation;
}

type ZodLike = {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
};

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

type StandardLike = {
  "~standard": {
    vendor: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
    jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
};
type StandardResult = { value: unknown; issues?: undefined } | { issues: readonly Issue[] };

/** The AI SDK's schema wrapper (`jsonSchema()`, `zodSchema()`, `valibotSchema()`…). */
type AiSdkSchema = {
  readonly jsonSchema: unknown;
  readonly validate?: (value: unknown) => AiSdkValidation | PromiseLike<AiSdkValidation>;
};
type AiSdkValidation = { success: true; value: unknown } | { success: false; error: Error };

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

/** The AI SDK's schema helpers, loaded with the first schema that needs them (they load zod 3 and 4). */
const providerUtils = lazy(() =>
  loadPackage<typeof import("@ai-sdk/provider-utils")>("@ai-sdk/provider-utils"),
);

function isZod4(schema: object): schema is ZodLike {
  return "_zod" in schema && "safeParse" in schema;
}

function isZod3(schema: object): schema is ZodLike {
  return "_def" in schema && "safeParse" in schema && !("_zod" in schema);
}

function isStandard(schema: object): schema is StandardLike {
  const standard = (schema as Partial<StandardLike>)["~standard"];
  return typeof standard === "object" && standard !== null && typeof standard.validate === "function";
}

function isAiSdkSchema(schema: object): schema is AiSdkSchema {
  return AI_SDK_SCHEMA in schema || "jsonSchema" in schema;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function describeIssues(issues: readonly Issue[] | undefined): string {
  if (!issues || issues.length === 0) return "invalid input";
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((part) =>
        typeof part === "object" && part !== null ? String(part.key) : String(part),
      );
      return path.length ? `${path.join(".")}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

function fromSafeParse(schema: ZodLike): (value: unknown) => Validation {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, message: describeIssues((parsed.error as { issues?: Issue[] } | undefined)?.issues) };
  };
}

function fromStandardResult(result: StandardResult): Validation {
  return result.issues
    ? { ok: false, message: describeIssues(result.issues) }
    : { ok: true, value: result.value };
}

function fromAiSdkResult(result: AiSdkValidation): Validation {
  if (result.success) return { ok: true, value: result.value };
  const cause = (result.error as { cause?: unknown }).cause;
  if (Array.isArray(cause)) return { ok: false, message: describeIssues(cause as Issue[]) };
  const issues = (cause as { issues?: Issue[] } | undefined)?.issues;
  return { ok: false, message: issues ? describeIssues(issues) : result.error.message };
}

/** A validator that may answer with a promise; `validate` falls back to the JSON Schema's. */
function withNow(
  jsonSchema: Record<string, unknown>,
  validate: (value: unknown) => Validation | Promise<Validation>,
): NormalizedSchema {
  let fallback: ((value: unknown) => Validation) | undefined;
  return {
    jsonSchema,
    check: validate,
    validate(value) {
      const answer = validate(value);
      if (!isPromiseLike(answer)) return answer;
      answer.then(undefined, () => {});
      fallback ??= jsonSchemaValidator(jsonSchema, "schema");
      return fallback(value);
    },
  };
}

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = [
  "items",
  "additionalProperties",
  "additionalItems",
  "contains",
  "not",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "if",
  "then",
  "else",
];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * A copy of a JSON Schema in which every name an object `required`s is declared in its
 * `properties` (as `{}` when it was not): zod enforces `required` only for declared
 * properties, so `{ required: ["a"] }` alone would accept `{}`.
 */
function requiredDeclared(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(requiredDeclared);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  for (const key of ONE) if (key in copy) copy[key] = requiredDeclared(copy[key]);
  for (const key of LIST)
    if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(requiredDeclared);
  for (const key of MAP) {
    const map = copy[key];
    if (typeof map === "object" && map !== null && !Array.isArray(map))
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, requiredDeclared(sub)]));
  }
  if (Array.isArray(copy.required)) {
    const declared = (
      typeof copy.properties === "object" && copy.properties !== null ? copy.properties : {}
    ) as Record<string, unknown>;
    const missing = copy.required.filter(
      (name): name is string => typeof name === "string" && !Object.hasOwn(declared, name),
    );
    if (missing.length)
      copy.properties = { ...declared, ...Object.fromEntries(missing.map((name) => [name, {}])) };
  }
  return copy;
}

function jsonSchemaValidator(
  jsonSchema: Record<string, unknown>,
  where: string,
): (value: unknown) => Validation {
  let validator: ZodLike;
  try {
    validator = z.fromJSONSchema(
      requiredDeclared(jsonSchema) as Parameters<typeof z.fromJSONSchema>[0],
    ) as unknown as ZodLike;
  } catch (error) {
    throw new TypeError(
      `${where}: its JSON Schema cannot be checked (${(error as Error).message}); use a supported form, or a zod or Standard schema`,
    );
  }
  return fromSafeParse(validator);
}

/** The JSON Schema of an AI SDK schema (its `jsonSchema`, resolved); a promise is refused. */
function resolvedJsonSchema(schema: AiSdkSchema, where: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = schema.jsonSchema;
  } catch (error) {
    throw new TypeError(
      `${where}: its schema has no JSON Schema to send to the model (${(error as Error).message})`,
    );
  }
  if (isPromiseLike(json)) {
    throw new TypeError(
      `${where}: its JSON Schema is a promise; resolve it first and pass jsonSchema(await schema)`,
    );
  }
  if (typeof json !== "object" || json === null) {
    throw new TypeError(
      `${where}: its schema's JSON Schema is ${json === null ? "null" : typeof json}, expected an object`,
    );
  }
  const copy = { ...(json as Record<string, unknown>) };
  delete copy.$schema;
  return copy;
}

function fromZod4(schema: ZodLike): NormalizedSchema {
  const jsonSchema = z.toJSONSchema(schema as unknown as z.ZodType, { io: "input" }) as Record<
    string,
    unknown
  >;
  delete jsonSchema.$schema;
  const validate = fromSafeParse(schema);
  return { jsonSchema, check: validate, validate };
}

function fromZod3(schema: ZodLike, where: string): NormalizedSchema {
  const jsonSchema = resolvedJsonSchema(providerUtils().asSchema(schema as never) as AiSdkSchema, where);
  const validate = fromSafeParse(schema);
  return { jsonSchema, check: validate, validate };
}

function fromStandard(schema: StandardLike, where: string): NormalizedSchema {
  const standard = schema["~standard"];
  if (typeof standard.jsonSchema?.input !== "function") {
    throw new TypeError(
      `${where}: its ${standard.vendor} schema cannot be converted to the JSON Schema the model needs; ` +
        "give it a JSON Schema converter (a Standard JSON Schema, e.g. from the vendor's to-json-schema package) " +
        "or pass jsonSchema(json, { validate }) instead",
    );
  }
  const jsonSchema = resolvedJsonSchema(providerUtils().asSchema(schema as never) as AiSdkSchema, where);
  return withNow(jsonSchema, (value) => {
    const result = standard.validate(value);
    return isPromiseLike(result)
      ? Promise.resolve(result).then(fromStandardResult)
      : fromStandardResult(result);
  });
}

function fromAiSdk(schema: AiSdkSchema, where: string): NormalizedSchema {
  const jsonSchema = resolvedJsonSchema(schema, where);
  const own = schema.validate;
  if (typeof own !== "function") {
    const validate = jsonSchemaValidator(jsonSchema, where);
    return { jsonSchema, check: validate, validate };
  }
  return withNow(jsonSchema, (value) => {
    const result = own.call(schema, value);
    return isPromiseLike(result) ? Promise.resolve(result).then(fromAiSdkResult) : fromAiSdkResult(result);
  });
}

export function normalizeSchema(schema: unknown, where: string): NormalizedSchema {
  if (schema === undefined) return normalizeSchema({ type: "object", properties: {} }, where);
  // A lazy schema (`lazySchema(() => …)`): the AI SDK makes it on first use.
  if (typeof schema === "function") return normalizeSchema((schema as () => unknown)(), where);
  if (typeof schema !== "object" || schema === null) {
    throw new TypeError(
      `${where}: inputSchema must be a zod, Standard or AI SDK schema, or a JSON Schema object; got ${schema === null ? "null" : typeof schema}`,
    );
  }
  if (isZod4(schema)) return fromZod4(schema);
  if (isZod3(schema)) return fromZod3(schema, where);
  if (isAiSdkSchema(schema)) return fromAiSdk(schema, where);
  if (isStandard(schema)) return fromStandard(schema, where);
  const jsonSchema = schema as Record<string, unknown>;
  const validate = jsonSchemaValidator(jsonSchema, where);
  return { jsonSchema, check: validate, validate };
}
