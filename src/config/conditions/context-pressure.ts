/** `context_pressure`: the transcript's estimated tokens over the context window exceed a threshold. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description =
  "Fires when context pressure (tokens / context window) is above threshold (0..1, default 0.75).";

export const contextPressure = defineCondition({
  type: "context_pressure",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("context_pressure"),
        threshold: z
          .number()
          .min(0)
          .max(1)
          .default(0.75)
          .describe("Fires when pressure is above this (0..1)"),
      })
      .describe(description),
  compile: (config) => (evaluation) => evaluation.stats.pressure > config.threshold,
  example: { type: "context_pressure", threshold: 0.8 },
});
