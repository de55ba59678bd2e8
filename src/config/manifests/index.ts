/** Synthetic tool-call injection, from manifests and from the `inject_tool_call` action. */

export { compileManifestHook, manifestHookName } from "./compile-manifest.js";
export {
  CONTENT_STRATEGIES,
  type ContentConfig,
  type ContentStrategy,
  contentSchema,
} from "./content/index.js";
export { injectedToolName } from "./injected-tool-name.js";
export {
  frequencySchema,
  type InjectionFrequency,
  type InjectionSpec,
  refreshConditionSchema,
  specFromManifest,
} from "./injection-spec.js";
export { runInjection } from "./run-injection.js";
export { injectionKey, makeSyntheticCallId, parseSyntheticCallId, stableJson } from "./synthetic-call-id.js";
export { findInjectedPair, type InjectedPair, syntheticPair } from "./synthetic-pair.js";
