/** `never`: the kill-switch: disables a hook without removing it. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Never fires: a kill-switch that disables a hook without removing it.";

export const never = defineCondition({
  type: "never",
  description,
  schema: () => z.strictObject({ type: z.literal("never") }).describe(description),
  compile: () => () => false,
  example: { type: "never" },
});
