/**
 * Gives a valibot schema the JSON Schema converter of a Standard JSON Schema (what
 * `toStandardJsonSchema` of valibot's to-json-schema package adds), with the JSON Schema
 * written out by the test. The AI SDK, like hookwise, needs one to send a valibot schema
 * to a model.
 */
import type { GenericSchema } from "valibot";

export function withJsonSchema<S extends GenericSchema>(schema: S, json: Record<string, unknown>): S {
  const standard = schema["~standard"];
  return {
    ...schema,
    "~standard": {
      ...standard,
      validate: standard.validate,
      jsonSchema: { input: () => json, output: () => json },
    },
  } as S;
}
