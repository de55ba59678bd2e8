/**
 * One synthetic tool-call injection, whether declared as a manifest entry
 * (`{kind: tool_call, event: on_request_start, …}`) or as an `inject_tool_call` action.
 */
import { lazy } from "../../deps/load-package.js";
import type { ManifestHook } from "../schema/schema.js";
import { configSchemaModule } from "../schema/schema.part.js";
import type { ContentConfig } from "./content/index.js";

/** `frequency`, one schema for manifests and the action. */
export const frequencySchema = lazy(() => configSchemaModule().manifestHookSchema().shape.frequency);
/** `refresh_condition` (`{kind: ttl, ttl_minutes > 0}`), optional. */
export const refreshConditionSchema = lazy(
  () => configSchemaModule().manifestHookSchema().shape.refresh_condition,
);

export type InjectionFrequency = ManifestHook["frequency"];

export interface InjectionSpec {
  /** Names the injection in logs. */
  label: string;
  toolsetName?: string;
  toolName: string;
  arguments: Readonly<Record<string, unknown>>;
  frequency: InjectionFrequency;
  refresh?: { kind: "ttl"; ttlMinutes: number };
  content: ContentConfig;
}

export function specFromManifest(manifest: ManifestHook, label: string): InjectionSpec {
  return {
    label,
    ...(manifest.toolset_name !== undefined ? { toolsetName: manifest.toolset_name } : {}),
    toolName: manifest.tool_name,
    arguments: manifest.arguments,
    frequency: manifest.frequency,
    ...(manifest.refresh_condition
      ? { refresh: { kind: "ttl" as const, ttlMinutes: manifest.refresh_condition.ttl_minutes } }
      : {}),
    content: { strategy: "tool" },
  };
}
