/**
 * Test harness for the engine tests (`engine-*.test.ts`, `src/hooks|policy/*.test.ts`); not
 * part of the library surface. Every loop-level rule is checked on both surfaces: `runBoth`
 * builds a fresh fixture per surface (scripted models are consumed by their calls), drives
 * one with `agent.run()` and the other with `agent.stream()`, and returns both outcomes.
 */
import type { Agent, AgentEvent, HookLogger, RunOptions, RunResult } from "../../src/index.js";

export type SurfaceName = "run" | "stream";

export interface SurfaceOutcome<F> {
  surface: SurfaceName;
  result: RunResult;
  /** Stream events in arrival order (empty for `run()`). */
  stream: AgentEvent[];
  fixture: F;
}

export interface BothOutcomes<F> {
  run: SurfaceOutcome<F>;
  stream: SurfaceOutcome<F>;
  both: [SurfaceOutcome<F>, SurfaceOutcome<F>];
}

export async function runOn<F extends { agent: Agent }>(
  surface: SurfaceName,
  fixture: F,
  input: string,
  options?: RunOptions,
): Promise<SurfaceOutcome<F>> {
  if (surface === "run") {
    const result = await fixture.agent.run(input, options);
    return { surface, result, stream: [], fixture };
  }
  const live = fixture.agent.stream(input, options);
  const stream: AgentEvent[] = [];
  for await (const event of live) stream.push(event);
  const result = await live.result;
  return { surface, result, stream, fixture };
}

/** Builds the fixture twice and drives one copy through `run()`, the other through `stream()`. */
export async function runBoth<F extends { agent: Agent }>(
  build: () => F,
  input = "go",
  options?: RunOptions,
): Promise<BothOutcomes<F>> {
  const run = await runOn("run", build(), input, options);
  const stream = await runOn("stream", build(), input, options);
  return { run, stream, both: [run, stream] };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A logger that records instead of printing (warnings are part of some rules). */
export function recordingLogger(): HookLogger & { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings,
    errors,
    debug() {},
    info() {},
    warn: (message) => warnings.push(message),
    error: (message) => errors.push(message),
  };
}

/** Everything a run exposes, as one string: for "this value never leaked" assertions. */
export function everythingSeen(outcome: SurfaceOutcome<unknown>): string {
  return JSON.stringify({
    events: outcome.result.events,
    messages: outcome.result.messages,
    requests: outcome.result.requests,
    steps: outcome.result.steps,
    text: outcome.result.text,
    stream: outcome.stream.filter((event) => event.type !== "run-finish"),
  });
}

export function streamTypes(
  outcome: SurfaceOutcome<unknown>,
  types: readonly AgentEvent["type"][],
): string[] {
  return outcome.stream.filter((event) => types.includes(event.type)).map((event) => event.type);
}

/** The tool results a provider call carried, as `{ toolCallId, toolName, output }`. */
export interface SentToolResult {
  toolCallId: string;
  toolName: string;
  output: { type: string; value: unknown };
}

export function toolResultsSent(prompt: readonly unknown[]): SentToolResult[] {
  const results: SentToolResult[] = [];
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== "tool") continue;
    for (const part of message.content as { type: string }[])
      if (part.type === "tool-result") results.push(part as never);
  }
  return results;
}

/** The text of every user message part a provider call carried, in order. */
export function userTextSent(prompt: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== "user") continue;
    for (const part of message.content as { type: string; text?: string }[])
      if (part.type === "text") texts.push(part.text ?? "");
  }
  return texts;
}
