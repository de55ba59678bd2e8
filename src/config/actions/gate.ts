/**
 * `gate` (seed 003): blocks the tool call; the tool does not run and the model receives
 * the (templated) reason. Decide, `tool_call` only.
 */
import { z } from "zod";
import { flow } from "../../hooks/flow.js";
import { renderTemplate } from "../templates.js";
import { defineAction } from "./action-module.js";

const description = "Blocks the tool call; the model receives the reason. tool_call (tool_start) only.";

export const gate = defineAction({
  type: "gate",
  description,
  schema: z
    .strictObject({
      type: z.literal("gate"),
      reason: z
        .string()
        .optional()
        .describe('Why, e.g. "No writes to {{tool.params.path}}"; default names the hook'),
    })
    .describe(description),
  events: ["tool_call"],
  kind: () => "decide",
  compile: (config, services) => (evaluation) => {
    const reason =
      config.reason === undefined
        ? `blocked by hook "${evaluation.hookId}"`
        : renderTemplate(config.reason, evaluation, services.workspace);
    return flow.deny(reason);
  },
  example: { type: "gate", reason: "Direct file deletion is not allowed in this project" },
});
