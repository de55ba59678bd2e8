/**
 * `inject_tool_call` (a manifest entry as a config action): calls a real tool and appends an
 * assistant tool-call message + tool-result message pair to the session transcript.
 * Transform, on `run_start` (alias `on_request_start`) and `step_start` (`on_pre_llm`).
 *
 * Same fields and behaviour as a `hooks` manifest entry (`toolset_name`, `tool_name`,
 * `arguments`, `frequency`, `refresh_condition`; see `manifests/run-injection.ts`), plus
 * `content`: where the result comes from (`{strategy: tool}` by default, `{strategy: static,
 * value}`, or any strategy of `manifests/content/`).
 */
import { z } from "../../../deps/zod.js";
import { contentSchema } from "../../manifests/content/index.js";
import { frequencySchema, refreshConditionSchema } from "../../manifests/injection-spec.js";
import { runInjection } from "../../manifests/run-injection.js";
import { defineAction } from "../action-module.js";

const description = "Calls a tool and appends its call + result to the transcript: frequency, TTL refresh.";

export const injectToolCall = defineAction({
  type: "inject_tool_call",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("inject_tool_call"),
        toolset_name: z
          .string()
          .optional()
          .describe("The toolset; the call is named sanitize(toolset_tool). Omit for unprefixed tools"),
        tool_name: z.string().min(1).describe("The tool in the toolset, or the exact function name"),
        arguments: z.record(z.string(), z.unknown()).default({}).describe("Passed to the tool as-is"),
        frequency: frequencySchema().describe(
          "always: a new pair each time; append_if_changed: update in place when unchanged; once",
        ),
        refresh_condition: refreshConditionSchema().describe(
          "{kind: ttl, ttl_minutes}: reuse the injected result until it expires",
        ),
        content: contentSchema().default({ strategy: "tool" }),
      })
      .describe(description),
  events: ["run_start", "step_start"],
  kind: () => "transform",
  compile: (config, services) => (evaluation) =>
    runInjection(
      {
        label: `"${evaluation.hookId}"`,
        ...(config.toolset_name !== undefined ? { toolsetName: config.toolset_name } : {}),
        toolName: config.tool_name,
        arguments: config.arguments,
        frequency: config.frequency,
        ...(config.refresh_condition
          ? { refresh: { kind: "ttl" as const, ttlMinutes: config.refresh_condition.ttl_minutes } }
          : {}),
        content: config.content,
      },
      evaluation,
      services,
    ),
  example: {
    type: "inject_tool_call",
    toolset_name: "user_prefs_api",
    tool_name: "get_preferences",
    arguments: {},
    frequency: "append_if_changed",
    refresh_condition: { kind: "ttl", ttl_minutes: 60 },
    content: { strategy: "tool" },
  },
});
