/** The token meter of one run: the agent's context window, and what every request carries. */

import { ContextMeter } from "../context/context-meter.js";
import { contextWindowFor } from "../context/context-window.js";
import { countTextTokens } from "../context/count-tokens.js";
import type { ModelMessage } from "../events/payloads.js";
import { toolSpecs } from "./build-request.js";
import type { LoopRuntime } from "./types.js";

/** Tokens every request of an agent carries besides its messages: one function per agent. */
const overheads = new WeakMap<LoopRuntime, () => number>();

function overheadOf(runtime: LoopRuntime): () => number {
  let overhead = overheads.get(runtime);
  if (overhead === undefined) {
    overhead = () =>
      countTextTokens(runtime.options.instructions ?? "") +
      (runtime.tools.length ? countTextTokens(JSON.stringify(toolSpecs(runtime.tools))) : 0);
    overheads.set(runtime, overhead);
  }
  return overhead;
}

/** The agent's context window, looked up once per model id and configured window (not per run). */
const windows = new WeakMap<
  LoopRuntime,
  { modelId: string; configured: number | undefined; window: number }
>();

function windowOf(runtime: LoopRuntime): number {
  const modelId = runtime.model.modelId;
  const configured = runtime.options.contextWindow;
  const known = windows.get(runtime);
  if (known !== undefined && known.modelId === modelId && known.configured === configured)
    return known.window;
  const window = contextWindowFor(modelId, configured);
  windows.set(runtime, { modelId, configured, window });
  return window;
}

/** The run's meter; `transcript` is read for its `messages` whenever they are measured (the run state). */
export function createRunMeter(
  runtime: LoopRuntime,
  transcript: { readonly messages: readonly ModelMessage[] },
): ContextMeter {
  return new ContextMeter({
    window: windowOf(runtime),
    overheadTokens: overheadOf(runtime),
    transcript,
  });
}
