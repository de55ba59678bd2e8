/** What `createAgent({ telemetry })` takes, and the settings a run reads. */
import type { Tracer } from "@opentelemetry/api";

export interface TelemetryOptions {
  /**
   * Emit spans. Default true once `telemetry` is given; without a tracer provider
   * registered (and no `tracer`), nothing is recorded and a run costs nothing more.
   */
  enabled?: boolean;
  /** Record prompts, the run's input and tool arguments on spans (after the hooks that rewrite them). Default false. */
  recordInputs?: boolean;
  /** Record completions, the run's output and tool results on spans (after the hooks that redact them). Default false. */
  recordOutputs?: boolean;
  /** Names this agent's runs in your traces (`hookwise.function_id` on every span). */
  functionId?: string;
  /** The tracer to use. Default: `trace.getTracer("hookwise")` from the globally registered provider. */
  tracer?: Tracer;
}

/** `TelemetryOptions` checked and resolved once, at `createAgent`. */
export interface TelemetrySettings {
  readonly tracer: Tracer | undefined;
  readonly recordInputs: boolean;
  readonly recordOutputs: boolean;
  readonly functionId: string | undefined;
}

/** What a run's span says of how it ended. */
export interface RunSummary {
  readonly outcome: string;
  readonly text: string;
  reason?: string;
  hook?: string;
  readonly input: string;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly steps: number;
}

/** What a tool span says of a call's outcome (a loop outcome, read structurally). */
export interface ToolSummary {
  readonly kind: string;
  readonly qualifiedName?: string;
  readonly args?: unknown;
  readonly result?: unknown;
  readonly isError?: boolean;
  readonly executed?: boolean;
  readonly reason?: string;
  readonly hook?: string;
}
