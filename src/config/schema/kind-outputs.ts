/**
 * What the schemas of conditions and actions output, kept with a cached validation. A config
 * served from the validation cache was validated by this build of hookwise from this very
 * text; compiling its hooks parses each condition and action again with its module's schema,
 * which is most of why a `hookwise hook` process loads zod at all. The outputs validation
 * produced are kept beside the entry (as JSON text, by the kind and the input they came from)
 * and answered instead: a parse whose input is not among them, or is not plain JSON data,
 * runs the schema as before.
 *
 * A schema's output is a function of its input alone (defaults and transforms of plain data),
 * which is what makes an output found by its input the output the schema would give.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";

/** Outputs by `kindKey`, each as JSON text. */
export type KindOutputs = Readonly<Record<string, string>>;

/** Which registry a kind belongs to: a condition and an action may share a type name. */
export type KindFamily = "action" | "condition";

export type KindParse<C> = { success: true; data: C } | { success: false; error: z.ZodError };

/**
 * The value as JSON with its object keys sorted, or undefined when it is not plain JSON data
 * (undefined, a function, a non-finite number, a class instance, a sparse array): two inputs
 * with the same key are the same data.
 */
function canonical(value: unknown): string | undefined {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : undefined;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) return undefined;
      const item = canonical(value[index]);
      if (item === undefined) return undefined;
      items.push(item);
    }
    return `[${items.join(",")}]`;
  }
  if (typeof value !== "object") return undefined;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const fields: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const field = canonical((value as Record<string, unknown>)[key]);
    if (field === undefined) return undefined;
    fields.push(`${JSON.stringify(key)}:${field}`);
  }
  return `{${fields.join(",")}}`;
}

/** The key of a kind's output: its family, its type and its whole input; undefined when the input is not plain data. */
export function kindKey(family: KindFamily, type: string, value: unknown): string | undefined {
  const input = canonical(value);
  return input === undefined ? undefined : `${family}:${type}:${input}`;
}

/**
 * Keeps in `outputs` what the schema output for `value`, when both are plain JSON data that
 * reads back as it is (otherwise nothing is kept, and compiling runs the schema).
 */
export function keepKindOutput(
  outputs: Record<string, string>,
  family: KindFamily,
  type: string,
  value: unknown,
  output: unknown,
): void {
  const key = kindKey(family, type, value);
  if (key === undefined) return;
  let text: string | undefined;
  try {
    text = JSON.stringify(output);
  } catch {
    return;
  }
  if (text !== undefined && isDeepStrictEqual(JSON.parse(text), output)) outputs[key] = text;
}

/**
 * `module.schema.safeParse(value)`, answered from `outputs` when they hold this input's output
 * (a fresh copy each time: a compiled action may keep its config).
 */
export function parseKind<C>(
  family: KindFamily,
  module: { readonly type: string; readonly schema: z.ZodType<C> },
  value: unknown,
  outputs: KindOutputs | undefined,
): KindParse<C> {
  if (outputs !== undefined) {
    const key = kindKey(family, module.type, value);
    const kept = key === undefined ? undefined : outputs[key];
    if (kept !== undefined) return { success: true, data: JSON.parse(kept) as C };
  }
  return module.schema.safeParse(value) as KindParse<C>;
}
