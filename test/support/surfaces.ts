/**
 * Drives one script through both surfaces of an agent (`run()` and `stream()`), so every
 * loop behaviour is tested on both (DESIGN §5: one loop, two surfaces).
 */
import type { Agent, AgentEvent, RunInput, RunOptions, RunResult } from "../../src/index.js";

export type SurfaceName = "run" | "stream";

export const SURFACES: readonly SurfaceName[] = ["run", "stream"];

export interface SurfaceOutcome {
  result: RunResult;
  /** What `stream()` surfaced, in order; empty for `run()`. */
  events: AgentEvent[];
}

/** Runs `input` on one surface; a stream is consumed to its end before its result is read. */
export async function runOn(
  surface: SurfaceName,
  agent: Agent,
  input: RunInput,
  options: RunOptions = {},
): Promise<SurfaceOutcome> {
  if (surface === "run") return { result: await agent.run(input, options), events: [] };
  const live = agent.stream(input, options);
  const events: AgentEvent[] = [];
  for await (const event of live) events.push(event);
  return { result: await live.result, events };
}

/**
 * Builds a fresh fixture (agent, model, counters…) per surface with `setup` (a script is
 * consumed by the run, so each surface needs its own) and runs `input` through both.
 */
export async function runBoth<T extends { agent: Agent }>(
  setup: () => T,
  input: string,
  options: RunOptions = {},
): Promise<Record<SurfaceName, T & SurfaceOutcome>> {
  const run = setup();
  const stream = setup();
  return {
    run: { ...run, ...(await runOn("run", run.agent, input, options)) },
    stream: { ...stream, ...(await runOn("stream", stream.agent, input, options)) },
  };
}

/** A result without its random identities, for comparing the two surfaces. */
export function comparable(result: RunResult): Omit<RunResult, "runId" | "sessionId"> {
  const { runId: _runId, sessionId: _sessionId, ...rest } = result;
  return rest;
}

/** Resolves after `ms` (a tool that takes a while); rejects when `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
