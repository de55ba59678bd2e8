/**
 * `pipe`: routes the current tool's output into another tool. Inspect, any
 * event (typically `tool_result`).
 *
 * - `to`: a qualified tool name (`notion.page.create`) or `mcp.<server>.<tool>`.
 * - `map`: the target's arguments, templated (`{{tool.result.hits.0.title}}`; a whole
 *   `{{tool.result}}` is the result as JSON text); `extra`: literal arguments, never
 *   templated, merged over `map`.
 * - When the triggering tool failed there is nothing to route: that counts as a failure
 *   of the pipe, like the target call failing.
 * - `on_error`: `ignore` (default: a debug line), `log` (a warning), `raise` (the hook
 *   fails and an enclosing `chain` stops, whatever its `stop_on_failure`).
 */
import { z } from "../../../deps/zod.js";
import { renderValue } from "../../build/templates.js";
import { defineAction } from "../action-module.js";
import { ChainAbortError } from "../chain-abort-error.js";

const description = "Calls another tool with fields of this one (map templated, extra literal).";

export const pipe = defineAction({
  type: "pipe",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("pipe"),
        to: z.string().min(1).describe("A qualified tool name, or mcp.<server>.<tool>"),
        map: z
          .record(z.string(), z.unknown())
          .default({})
          .describe('Target arguments, templated: title: "{{tool.result.hits.0.title}}"'),
        extra: z.record(z.string(), z.unknown()).default({}).describe("Literal arguments, not templated"),
        on_error: z
          .enum(["ignore", "log", "raise"])
          .default("ignore")
          .describe("ignore | log | raise (raise aborts an enclosing chain)"),
      })
      .describe(description),
  events: "any",
  kind: () => "inspect",
  compile: (config, services) => async (evaluation) => {
    const hook = evaluation.hookId;
    const fail = (message: string, cause?: unknown) => {
      const text = `pipe to ${config.to} (hook "${hook}"): ${message}`;
      if (config.on_error === "raise") throw new ChainAbortError({ action: "pipe", message: text, cause });
      if (config.on_error === "log") services.log.warn(text, { hook, to: config.to });
      else services.log.debug(text, { hook, to: config.to });
      return undefined;
    };
    const upstream = evaluation.tool;
    if (upstream?.error !== undefined) return fail(`upstream tool ${upstream.fqn} failed: ${upstream.error}`);
    const args = {
      ...(renderValue(config.map, evaluation, services.workspace) as Record<string, unknown>),
      ...config.extra,
    };
    try {
      await services.callTool(config.to, args, evaluation);
    } catch (error) {
      return fail((error as Error).message ?? String(error), error);
    }
    services.log.debug(`pipe to ${config.to} (hook "${hook}"): ok`, { hook, to: config.to });
    return undefined;
  },
  example: {
    type: "pipe",
    to: "lsp.notify_change",
    map: { path: "{{tool.params.path}}", content: "{{tool.result.content}}" },
    extra: { force: true },
    on_error: "log",
  },
});
