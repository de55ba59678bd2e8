/** `any_of`: at least one nested condition matches. Empty = false; stops at the first true. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";
import { conditionRef } from "./condition-ref.js";
import { shortCircuit } from "./short-circuit.js";

const description = "At least one nested condition matches. An empty list is false; stops at the first true.";

export const anyOf = defineCondition({
  type: "any_of",
  description,
  schema: () =>
    z
      .strictObject({ type: z.literal("any_of"), conditions: z.array(conditionRef()).default([]) })
      .describe(description),
  children: (config) => config.conditions.map((value, index) => ({ value, path: ["conditions", index] })),
  compile(config, compileChild) {
    const predicates = config.conditions.map((value, index) => compileChild(value, ["conditions", index]));
    return (evaluation) => shortCircuit(predicates, evaluation, true);
  },
  example: {
    type: "any_of",
    conditions: [
      { type: "error_type", match: "billing" },
      { type: "error_type", match: "rate_limit" },
    ],
  },
});
