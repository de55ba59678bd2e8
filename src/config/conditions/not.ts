/** `not`: negates one nested condition. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";
import { conditionRef } from "./condition-ref.js";

const description = "Negates one nested condition.";

export const not = defineCondition({
  type: "not",
  description,
  schema: () => z.strictObject({ type: z.literal("not"), condition: conditionRef() }).describe(description),
  children: (config) => [{ value: config.condition, path: ["condition"] }],
  compile(config, compileChild) {
    const inner = compileChild(config.condition, ["condition"]);
    return (evaluation) => {
      const result = inner(evaluation);
      return typeof result === "boolean" ? !result : result.then((value) => !value);
    };
  },
  example: { type: "not", condition: { type: "tool_name", match: "memory.*" } },
});
