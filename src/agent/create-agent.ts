/**
 * `createAgent`: the public entry point (DESIGN §11). `run()` and `stream()` drive the same
 * loop; `stream()` surfaces events as they happen and resolves `result` with the same
 * RunResult `run()` would give.
 */
import type { AnyHook } from "../hooks/define-hook.js";
import type { AgentOptions, RunOptions } from "./agent-options.js";
import { type AgentRuntime, resolveRuntime } from "./agent-runtime.js";
import { AsyncQueue } from "./async-queue.js";
import { drive } from "./drive.js";
import type { AgentEvent, RunResult } from "./run-result.js";
import { generateSurface, streamSurface } from "./surface.js";

export interface AgentStream extends AsyncIterable<AgentEvent> {
  /** The run's result; resolves after the last event. */
  readonly result: Promise<RunResult>;
}

export interface Agent {
  readonly name: string;
  run(input: string, options?: RunOptions): Promise<RunResult>;
  stream(input: string, options?: RunOptions): AgentStream;
  /** Registers a hook on this agent; returns its disposer. */
  use(hook: AnyHook): () => void;
  /** The resolved runtime (tools, hooks, store), for introspection and the CLI. */
  readonly runtime: AgentRuntime;
}

export function createAgent(options: AgentOptions): Agent {
  const runtime = resolveRuntime(options);
  return {
    name: runtime.name,
    runtime,
    run(input, runOptions = {}) {
      return drive(runtime, input, runOptions, generateSurface());
    },
    stream(input, runOptions = {}) {
      const queue = new AsyncQueue<AgentEvent>();
      const result = drive(
        runtime,
        input,
        runOptions,
        streamSurface((event) => queue.push(event)),
      ).finally(() => queue.close());
      // The caller may only iterate; the rejection is still delivered through `result`.
      result.catch(() => {});
      return {
        result,
        [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
      };
    },
    use(hook) {
      return runtime.registry.register(hook);
    },
  };
}
