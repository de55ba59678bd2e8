/** `tool_failed`: the tool whose result this is threw (`tool_result` only). */
import { z } from "../../deps/zod.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires when the tool execution failed. tool_result (tool_end) only.";

export const toolFailed = defineCondition({
  type: "tool_failed",
  description,
  schema: () => z.strictObject({ type: z.literal("tool_failed") }).describe(description),
  events: ["tool_result"],
  compile: () => (evaluation) => {
    if (evaluation.tool?.error !== undefined) return true;
    const event = evaluation.event;
    return event.type === "tool_result" && event.isError === true;
  },
  example: { type: "tool_failed" },
});
