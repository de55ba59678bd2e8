/**
 * `log`: writes a templated line to the hook logger. Inspect, any event.
 * `{turn}` `{tokens}` `{tools}` `{pressure}` and `{{…}}` placeholders are filled; control
 * characters in filled values are escaped (printable.ts), so a value cannot forge a line.
 */
import { z } from "../../../deps/zod.js";
import { renderTemplate } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description =
  "Writes a message to the log ({turn}, {tokens}, {tools}, {pressure} and {{…}} templates).";

const METHOD = { debug: "debug", info: "info", warning: "warn", error: "error" } as const;

export const log = defineAction({
  type: "log",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("log"),
        message: z.string().describe('The line to log, e.g. "Turn {turn}: {tokens} tokens"'),
        level: z.enum(["debug", "info", "warning", "error"]).default("info"),
      })
      .describe(description),
  events: "any",
  kind: () => "inspect",
  compile: (config, services) => (evaluation) => {
    const message = renderTemplate(config.message, evaluation, services.workspace, {
      stats: true,
      printable: true,
    });
    services.log[METHOD[config.level]](message, { hook: evaluation.hookId });
    return undefined;
  },
  example: { type: "log", message: "Turn {turn}: {tokens} tokens, {tools} tool calls", level: "info" },
});
