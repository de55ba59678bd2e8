export { digest, effectOf, type HookEffect } from "./hook-effect.js";
export { resolveTelemetry } from "./resolve-telemetry.js";
export { type RunIdentity, RunTelemetry, startRunTelemetry } from "./run-telemetry.js";
export type { RunSummary, TelemetryOptions, TelemetrySettings, ToolSummary } from "./types.js";
