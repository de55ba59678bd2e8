/** `static`: a fixed result (a system note, a fixture), injected as if the tool had returned it. */
import { lazy } from "../../../deps/load-package.js";
import { z } from "../../../deps/zod.js";
import { defineContentStrategy } from "./content-strategy.js";

const description = "Injects a fixed value as the tool's result; no tool runs.";

export const staticContent = lazy(() =>
  defineContentStrategy({
    strategy: "static",
    description,
    schema: z
      .strictObject({
        strategy: z.literal("static"),
        value: z
          .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
          .describe("The result: text, or JSON"),
      })
      .describe(description),
    produce: (config) => config.value,
  }),
);
