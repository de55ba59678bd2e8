/**
 * Manifest entries (`hooks: [{kind: tool_call, event: on_request_start, …}]`) →
 * ordinary engine hooks on `run_start` (after the agent is set up, before the first
 * model request), transform kind. The engine never imports config.
 */
import type { AnyHook } from "../../hooks/define-hook.js";
import type { HookContext } from "../../hooks/hook-context.js";
import type { ActionServices } from "../build/evaluation.js";
import { makeEvaluation, type StatsOptions } from "../build/make-evaluation.js";
import type { ManifestHook } from "../schema/schema.js";
import { injectedToolName } from "./injected-tool-name.js";
import { specFromManifest } from "./injection-spec.js";
import { runInjection } from "./run-injection.js";

/** The engine hook's name: the entry's `name`, else its place and the tool it injects. */
export function manifestHookName(manifest: ManifestHook, index: number): string {
  return manifest.name ?? `hooks[${index}]:${injectedToolName(manifest.toolset_name, manifest.tool_name)}`;
}

export function compileManifestHook(
  manifest: ManifestHook,
  index: number,
  services: ActionServices,
  options: StatsOptions = {},
): AnyHook {
  const name = manifestHookName(manifest, index);
  const spec = specFromManifest(manifest, name);
  return {
    name,
    on: "run_start",
    kind: "transform",
    handler: (event, context: HookContext) =>
      runInjection(spec, makeEvaluation(event, context, name, options), services),
  } as AnyHook;
}
