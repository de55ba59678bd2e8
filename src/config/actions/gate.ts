/**
 * `gate`: blocks the tool call; the tool does not run and the model receives
 * the (templated) reason. Decide, `tool_call` — and `agent_spawn`, where it refuses to
 * start the sub-agent (a sub-agent is a tool); on `run_start` it refuses the input and on
 * `run_end` the answer (the run ends terminated; a harness's agent is sent back to work
 * with the reason instead, as its stop hooks do).
 */
import { z } from "../../deps/zod.js";
import { flow } from "../../hooks/flow.js";
import { renderTemplate } from "../build/templates.js";
import { defineAction } from "./action-module.js";

const description =
  "Blocks the tool call (or the sub-agent's spawn, the run's input, its answer); the model receives the reason. tool_call, agent_spawn, run_start, run_end.";

export const gate = defineAction({
  type: "gate",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("gate"),
        reason: z
          .string()
          .optional()
          .describe('Why, e.g. "No writes to {{tool.params.path}}"; default names the hook'),
      })
      .describe(description),
  events: ["tool_call", "agent_spawn", "run_start", "run_end"],
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
