/** `tool_calls`: the session's tool calls so far exceed a threshold. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires when the total number of tool calls is above threshold (default 20).";

export const toolCalls = defineCondition({
  type: "tool_calls",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("tool_calls"),
        threshold: z.number().int().min(0).default(20).describe("Fires when tool calls are above this"),
      })
      .describe(description),
  compile: (config) => (evaluation) => evaluation.stats.tools > config.threshold,
  example: { type: "tool_calls", threshold: 20 },
});
