/**
 * `error_type` (`model_error` only): the failed attempt's error type
 * (rate_limit, context_overflow, billing, timeout, auth, network, internal, …) matches a
 * pattern where `*` stands for any run of characters. Case-insensitive.
 */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description =
  'Fires when the model error\'s type matches (wildcards: "rate_limit*"). model_error only.';

export function wildcardRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

export const errorType = defineCondition({
  type: "error_type",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("error_type"),
        match: z.string().min(1).describe('An error type, "*" matching any characters'),
      })
      .describe(description),
  events: ["model_error"],
  compile(config) {
    const pattern = wildcardRegExp(config.match);
    return (evaluation) => evaluation.error !== undefined && pattern.test(evaluation.error.type);
  },
  example: { type: "error_type", match: "rate_limit*" },
});
