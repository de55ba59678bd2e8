/** `createAgent({ telemetry })` checked: a clear error for a value of the wrong type, never a silent default. */
import type { TelemetryOptions, TelemetrySettings } from "./types.js";

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function flag(options: TelemetryOptions, key: keyof TelemetryOptions, fallback: boolean): boolean {
  const value = options[key];
  if (value === undefined) return fallback;
  if (typeof value !== "boolean")
    throw new TypeError(`createAgent: telemetry.${key} must be true or false (got ${describe(value)})`);
  return value;
}

/** The run's telemetry settings; undefined when telemetry is off (the loop then calls nothing of it). */
export function resolveTelemetry(options: TelemetryOptions | undefined): TelemetrySettings | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null)
    throw new TypeError(
      `createAgent: telemetry must be an object such as { enabled: true } (got ${describe(options)})`,
    );
  if (!flag(options, "enabled", true)) return undefined;
  const { functionId, tracer } = options;
  if (functionId !== undefined && (typeof functionId !== "string" || functionId === ""))
    throw new TypeError(
      `createAgent: telemetry.functionId must be a non-empty string (got ${describe(functionId)})`,
    );
  if (tracer !== undefined && typeof (tracer as { startSpan?: unknown }).startSpan !== "function")
    throw new TypeError(
      "createAgent: telemetry.tracer must be an OpenTelemetry Tracer (an object with startSpan), e.g. trace.getTracer('my-app')",
    );
  return {
    tracer,
    recordInputs: flag(options, "recordInputs", false),
    recordOutputs: flag(options, "recordOutputs", false),
    functionId,
  };
}
