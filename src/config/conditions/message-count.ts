/** `message_count`: the transcript holds more messages than a threshold. */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires when the message count is above threshold (default 50).";

export const messageCount = defineCondition({
  type: "message_count",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("message_count"),
        threshold: z.number().int().min(0).default(50).describe("Fires when messages are above this"),
      })
      .describe(description),
  compile: (config) => (evaluation) => evaluation.stats.messages > config.threshold,
  example: { type: "message_count", threshold: 50 },
});
