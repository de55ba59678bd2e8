/**
 * `call_tool_inject` (also spelt `module_action_inject`): calls a tool like `call_tool`
 * and shows its result to the model — real-time feedback such as diagnostics after an
 * edit. Transform.
 *
 * - `format: auto` injects only when the result signals a problem (signals-problem.ts:
 *   `isError`, non-empty `errors` / `diagnostics`, error words in text…); `always` always.
 * - `prefix` is put before the text (e.g. "[Lint] "); the text is the result itself, its
 *   `summary` / `text` / `message` field, or its JSON.
 * - Where it goes depends on the event (inject-text.ts): appended to the tool result on
 *   `tool_result`; the outbound copy's extra context on `model_request`; a persisted user
 *   message on `session_start`, `run_start`, `step_start`, `step_end`.
 * - A call that fails is logged and nothing is injected: a broken linter must not withhold
 *   the result of the tool that triggered it (a throwing transform would fail closed).
 */
import { z } from "../../../deps/zod.js";
import { renderValue } from "../../build/templates.js";
import { defineAction } from "../action-module.js";
import { INJECTABLE_EVENTS, injectText } from "./inject-text.js";
import { describeResult, signalsProblem } from "./signals-problem.js";

const description =
  "Calls a tool and shows its result to the model (format auto: only when it signals a problem).";

export const callToolInject = defineAction({
  type: "call_tool_inject",
  aliases: ["module_action_inject"],
  description,
  schema: () =>
    z
      .strictObject({
        type: z.enum(["call_tool_inject", "module_action_inject"]),
        module: z.string().min(1).describe("The toolset, e.g. lsp"),
        action: z.string().min(1).describe("The tool of that toolset, e.g. diagnostics"),
        action_params: z.record(z.string(), z.unknown()).default({}).describe("Arguments, templated"),
        format: z
          .enum(["auto", "always"])
          .default("auto")
          .describe("auto: inject only when the result signals a problem; always: every time"),
        prefix: z.string().default("").describe('Put before the injected text, e.g. "[Lint] "'),
      })
      .describe(description),
  events: [...INJECTABLE_EVENTS],
  kind: () => "transform",
  compile: (config, services) => async (evaluation) => {
    const name = `${config.module}.${config.action}`;
    const args = renderValue(config.action_params, evaluation, services.workspace);
    let result: unknown;
    try {
      result = await services.callTool(name, args, evaluation);
    } catch (error) {
      services.log.warn(
        `hook "${evaluation.hookId}": ${name} failed, nothing injected: ${(error as Error).message ?? error}`,
        { hook: evaluation.hookId, tool: name },
      );
      return undefined;
    }
    if (config.format === "auto" && !signalsProblem(result)) return undefined;
    return injectText(evaluation, services, `${config.prefix}${describeResult(result)}`);
  },
  example: {
    type: "call_tool_inject",
    module: "lsp",
    action: "diagnostics",
    action_params: { path: "{{tool.params.path}}" },
    format: "auto",
    prefix: "[Lint] ",
  },
});
