/**
 * zod issues → ConfigIssues that teach: the path, what was expected, the nearest valid
 * key or value (found by walking the schema along the issue's path).
 */
import type { z } from "zod";
import { nearest } from "../../errors/nearest.js";
import type { ConfigIssue, ConfigPath } from "./config-error.js";
import { positionOf, type SourceDocument } from "./source-map.js";

type Def = { type: string; [key: string]: any };

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } })?._zod?.def;
}

/** The object shape (keys) at `path` in `schema`, if the schema is an object there. */
export function shapeAt(schema: unknown, path: ConfigPath, value?: unknown): string[] | undefined {
  let current = schema;
  let data = value;
  const unwrap = () => {
    for (;;) {
      const def = defOf(current);
      if (!def) return;
      if (
        def.type === "optional" ||
        def.type === "default" ||
        def.type === "nullable" ||
        def.type === "prefault"
      ) {
        current = def.innerType;
      } else if (def.type === "pipe") {
        current = def.in;
      } else if (def.type === "union") {
        const options: unknown[] = def.options;
        const discriminator = def.discriminator as string | undefined;
        const pick =
          (discriminator &&
            data &&
            options.find((option) => {
              const shape = defOf(option)?.shape;
              const literal = shape?.[discriminator] && defOf(shape[discriminator]);
              return literal?.values?.includes((data as Record<string, unknown>)[discriminator]);
            })) ||
          options.find((option) => defOf(option)?.type === "object");
        if (!pick) return;
        current = pick;
      } else {
        return;
      }
    }
  };
  unwrap();
  for (const segment of path) {
    const def = defOf(current);
    if (!def) return undefined;
    if (def.type === "object") current = def.shape[segment as string];
    else if (def.type === "array") current = def.element;
    else if (def.type === "record") current = def.valueType;
    else return undefined;
    data = data && typeof data === "object" ? (data as Record<string | number, unknown>)[segment] : undefined;
    unwrap();
  }
  const def = defOf(current);
  return def?.type === "object" ? Object.keys(def.shape) : undefined;
}

function valueAt(data: unknown, path: ConfigPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `"${value}"`;
  return String(value);
}

export function zodIssues(
  error: z.ZodError,
  schema: unknown,
  data: unknown,
  source: SourceDocument,
  file: string,
  prefix: ConfigPath = [],
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    const local = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
    const path = [...prefix, ...local];
    if (issue.code === "unrecognized_keys") {
      const keys = shapeAt(schema, local, data) ?? [];
      for (const key of issue.keys) {
        const { line, column } = positionOf(source, [...path, key], { key: true });
        issues.push({
          severity: "error",
          file,
          line,
          column,
          path: [...path, key],
          message: `unknown field "${key}"`,
          expected: keys.length ? `one of ${keys.join(", ")}` : undefined,
          suggestion: nearest(key, keys),
        });
      }
      continue;
    }
    const { line, column } = positionOf(source, path);
    const actual = valueAt(data, local);
    let message: string;
    let expected: string | undefined;
    let suggestion: string | undefined;
    switch (issue.code) {
      case "invalid_value": {
        const values = (issue as { values: unknown[] }).values.map(String);
        message = actual === undefined ? "missing value" : `invalid value ${typeName(actual)}`;
        expected = values.length === 1 ? `"${values[0]}"` : `one of ${values.join(", ")}`;
        suggestion = typeof actual === "string" ? nearest(actual, values) : undefined;
        break;
      }
      case "invalid_type": {
        const wanted = (issue as { expected: string }).expected;
        message = actual === undefined ? "required field is missing" : `got ${typeName(actual)}`;
        expected = typeWord(wanted);
        break;
      }
      case "too_small":
      case "too_big": {
        const bound =
          issue.code === "too_small"
            ? (issue as { minimum: unknown }).minimum
            : (issue as { maximum: unknown }).maximum;
        const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
        const origin = (issue as { origin?: string }).origin;
        message = `${typeName(actual)} is too ${issue.code === "too_small" ? "small" : "large"}`;
        expected =
          origin === "string"
            ? `at ${issue.code === "too_small" ? "least" : "most"} ${counted(bound, "character")}`
            : origin === "array"
              ? `at ${issue.code === "too_small" ? "least" : "most"} ${counted(bound, "item")}`
              : `a number ${issue.code === "too_small" ? (inclusive ? "≥" : ">") : inclusive ? "≤" : "<"} ${String(bound)}`;
        break;
      }
      case "invalid_union": {
        const options = (issue as { options?: unknown[] }).options;
        if (options) {
          const values = options.map(String);
          message = actual === undefined ? "missing value" : `invalid value ${typeName(actual)}`;
          expected = `one of ${values.join(", ")}`;
          suggestion = typeof actual === "string" ? nearest(actual, values) : undefined;
        } else {
          message = actual === undefined ? "required field is missing" : `invalid value ${typeName(actual)}`;
          const branches = (issue as { errors?: { expected?: string }[][] }).errors ?? [];
          const forms = branches.map((branch) => branch[0]?.expected).filter(Boolean);
          expected = forms.length ? forms.map((form) => typeWord(form!)).join(" or ") : undefined;
        }
        break;
      }
      default:
        message = issue.message;
    }
    issues.push({ severity: "error", file, line, column, path, message, expected, suggestion });
  }
  return issues;
}

/** A schema type as the expected value reads to a user ("a whole number", "a list"). */
function typeWord(type: string): string {
  switch (type) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "int":
      return "a whole number";
    case "boolean":
      return "true or false";
    default:
      return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
  }
}

function counted(bound: unknown, noun: string): string {
  return `${String(bound)} ${noun}${bound === 1 ? "" : "s"}`;
}
