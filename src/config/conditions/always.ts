/** `always`: fires every time. With `cooldown` it makes a periodic action. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires every time; combine with cooldown for periodic actions.";

export const always = defineCondition({
  type: "always",
  description,
  schema: () => z.strictObject({ type: z.literal("always") }).describe(description),
  compile: () => () => true,
  example: { type: "always" },
});
