export type { BlockingOptions, BlockingOutcome, Validate } from "./blocking.js";
export {
  type AgentHook,
  type AnyHook,
  defineHook,
  type HookDefinition,
  type HookEvent,
} from "./define-hook.js";
export { type Flow, type FlowEditMessages, type FlowType, flow, type MessageEdit } from "./flow.js";
export type {
  ContextWindowUsage,
  HookContext,
  HookLogger,
  HookModel,
  ModelCallRequest,
  ModelCallResult,
} from "./hook-context.js";
export type { HookObserver } from "./hook-observer.js";
export {
  DEFAULT_PRIORITY,
  DEFAULT_TIMEOUT_MS,
  EMPTY_SELECTION,
  HookRegistry,
  type HookSelection,
  type RegisteredHook,
} from "./hook-registry.js";
export { acceptedResults, type HookResult } from "./hook-result.js";
export { HookRunner } from "./hook-runner.js";
export { NOT_FIRED } from "./invoke-hook.js";
export { deepMerge, type MergedPatch, mergeRequestPatches, type NamedPatch } from "./merge-request-patch.js";
export type { RequestPatch } from "./request-patch.js";
export { Scratchpad } from "./scratchpad.js";
export type { ToolArgs, ToolInput } from "./tool-args.js";
export type { HookLiveEvent, HookTraceEntry } from "./trace.js";
