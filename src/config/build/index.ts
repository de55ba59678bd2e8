/**
 * Building what a checked config describes: its models, toolsets and policies, and each
 * hook entry compiled to a hook (`compile-hook.ts`) whose conditions and actions read the
 * firing through an evaluation (`evaluation.ts`, `make-evaluation.ts`) and its templates.
 */
export { askModel } from "./ask-model.js";
export { type BuiltModel, buildModel } from "./build-models.js";
export { buildPolicies } from "./build-policies.js";
export {
  type BuiltToolset,
  buildToolset,
  buildToolsets,
  type ConfigSource,
  isCheckedToolsetKind,
} from "./build-toolsets.js";
export { compileHookEntry } from "./compile-hook.js";
export type { ActionServices, Evaluation, RunStats, ToolView } from "./evaluation.js";
export { makeEvaluation, type StatsOptions } from "./make-evaluation.js";
export { isTemplated, renderTemplate, renderValue, walkPath } from "./templates.js";
