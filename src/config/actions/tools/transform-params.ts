/**
 * `transform_params`: rewrites the tool call's arguments before it runs: `set`
 * adds or replaces top-level keys (values templated; `"{{tool.params.n}}"` alone keeps a
 * number a number), then `remove` drops keys. Transform, `tool_call` only; the engine
 * validates the rewritten arguments against the tool's schema before decides run.
 */
import { z } from "../../../deps/zod.js";
import { flow } from "../../../hooks/flow.js";
import { renderValue } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description =
  "Rewrites the tool's arguments: set keys (templated values), remove keys. tool_call only.";

export const transformParams = defineAction({
  type: "transform_params",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("transform_params"),
        transformation: z
          .strictObject({
            set: z.record(z.string(), z.unknown()).optional().describe("Keys to add or replace"),
            remove: z.array(z.string()).optional().describe("Keys to drop"),
          })
          .refine((value) => value.set !== undefined || value.remove !== undefined, {
            message: "transformation needs set or remove",
          }),
      })
      .describe(description),
  events: ["tool_call"],
  kind: () => "transform",
  compile: (config, services) => (evaluation) => {
    const { set = {}, remove = [] } = config.transformation;
    const params = evaluation.tool?.params;
    const args: Record<string, unknown> =
      params && typeof params === "object" && !Array.isArray(params) ? { ...(params as object) } : {};
    for (const [key, value] of Object.entries(set))
      args[key] = renderValue(value, evaluation, services.workspace);
    for (const key of remove) delete args[key];
    return flow.rewriteArgs(args);
  },
  example: {
    type: "transform_params",
    transformation: { set: { timeout: 60, encoding: "utf-8" }, remove: ["dangerous_flag"] },
  },
});
