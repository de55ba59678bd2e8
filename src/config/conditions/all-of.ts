/** `all_of`: every nested condition matches. Empty = true; stops at the first false. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";
import { conditionRef } from "./condition-ref.js";
import { shortCircuit } from "./short-circuit.js";

const description = "Every nested condition matches. An empty list is true; stops at the first false.";

export const allOf = defineCondition({
  type: "all_of",
  description,
  schema: () =>
    z
      .strictObject({ type: z.literal("all_of"), conditions: z.array(conditionRef()).default([]) })
      .describe(description),
  children: (config) => config.conditions.map((value, index) => ({ value, path: ["conditions", index] })),
  compile(config, compileChild) {
    const predicates = config.conditions.map((value, index) => compileChild(value, ["conditions", index]));
    return (evaluation) => {
      const someFalse = shortCircuit(predicates, evaluation, false);
      return typeof someFalse === "boolean" ? !someFalse : someFalse.then((found) => !found);
    };
  },
  example: {
    type: "all_of",
    conditions: [{ type: "tool_name", match: "fs.*" }, { type: "tool_failed" }],
  },
});
