/**
 * A run's spans (`run-telemetry.ts`), which `hookwise hook`'s build loads at its first use: a
 * config without `runtime.telemetry` never reads it (see tsdown.config.ts).
 */
import * as part from "./run-telemetry.js";

export const runTelemetryModule = (): typeof part => part;
