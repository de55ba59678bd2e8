/**
 * `turn_count`: at one turn (`threshold`) or every N turns (`every`); exactly one
 * of the two. `turn` is the run's index in its session, so `every` never fires on turn 0.
 */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires at a specific turn (threshold) or every N turns (every); give exactly one.";

export const turnCount = defineCondition({
  type: "turn_count",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("turn_count"),
        threshold: z.number().int().min(0).optional().describe("Fires when the turn equals this"),
        every: z.number().int().min(1).optional().describe("Fires on every Nth turn (not on turn 0)"),
      })
      .refine((config) => (config.threshold === undefined) !== (config.every === undefined), {
        message: "turn_count needs exactly one of threshold or every",
      })
      .describe(description),
  compile(config) {
    const { threshold, every } = config;
    if (every !== undefined) {
      return (evaluation) => evaluation.stats.turn > 0 && evaluation.stats.turn % every === 0;
    }
    return (evaluation) => evaluation.stats.turn === threshold;
  },
  example: { type: "turn_count", every: 5 },
});
