/**
 * `call_tool` (also spelt `module_action`): calls a tool of the config's toolsets —
 * `module` is the toolset, `action` the tool, `action_params` its arguments (templated:
 * `{{tool.params.path}}`, a whole `{{…}}` keeps numbers and booleans). Inspect, any
 * event: the result is not shown to the model (see `call_tool_inject` for that). A failing
 * call is the hook's failure: logged (isolated), and recorded in `hook_failures` in a chain.
 */
import { z } from "../../../deps/zod.js";
import { renderValue } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description = "Calls a tool (module = toolset, action = tool) with templated action_params.";

export const callTool = defineAction({
  type: "call_tool",
  aliases: ["module_action"],
  description,
  schema: () =>
    z
      .strictObject({
        type: z.enum(["call_tool", "module_action"]),
        module: z.string().min(1).describe("The toolset, e.g. memory"),
        action: z.string().min(1).describe("The tool of that toolset, e.g. remember"),
        action_params: z
          .record(z.string(), z.unknown())
          .default({})
          .describe('Arguments; strings are templated, e.g. content: "{{tool.params.path}}"'),
      })
      .describe(description),
  events: "any",
  kind: () => "inspect",
  compile: (config, services) => async (evaluation) => {
    const name = `${config.module}.${config.action}`;
    const args = renderValue(config.action_params, evaluation, services.workspace);
    await services.callTool(name, args, evaluation);
    services.log.debug(`hook "${evaluation.hookId}": called ${name}`, {
      hook: evaluation.hookId,
      tool: name,
    });
    return undefined;
  },
  example: {
    type: "call_tool",
    module: "memory",
    action: "remember",
    action_params: { content: "{{tool.params.path}}" },
  },
});
