/**
 * The published JSON Schema of the config file: the zod schema, with hook `on` narrowed
 * to every event spelling and `condition` / `action` to the registered kinds, so editors
 * (`# yaml-language-server: $schema=…`) complete them.
 */
import { z } from "../../deps/zod.js";
import { ALL_EVENT_SPELLINGS } from "../../events/catalogue.js";
import { ACTIONS } from "../actions/index.js";
import { CONDITIONS } from "../conditions/index.js";
import { configSchema, hookEntrySchema, manifestHookSchema, policyEntrySchema } from "./schema.js";

function toJson(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

export function configJsonSchema(): Record<string, unknown> {
  const root = toJson(configSchema());
  const conditions = unique(CONDITIONS.values()).map((module) => toJson(module.schema));
  const actions = unique(ACTIONS.values()).map((module) => toJson(module.schema));
  const hook = toJson(hookEntrySchema()) as { properties: Record<string, unknown> };
  hook.properties.on = { type: "string", enum: ALL_EVENT_SPELLINGS, default: "run_end" };
  hook.properties.condition = { anyOf: conditions };
  hook.properties.action = { anyOf: actions };
  const properties = root.properties as Record<string, any>;
  properties.runtime.properties.hooks = { type: "array", items: hook };
  properties.runtime.properties.policies = { type: "array", items: toJson(policyEntrySchema()) };
  properties.execution.properties.hooks = { type: "array", items: hook };
  properties.agents.items.properties.hooks = { type: "array", items: hook };
  properties.agents.items.properties.policies = { type: "array", items: toJson(policyEntrySchema()) };
  properties.hooks = { type: "array", items: toJson(manifestHookSchema()) };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://hookwise.dev/schema/config.json",
    title: "hookwise config",
    ...root,
  };
}
