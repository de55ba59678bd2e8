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

/** The run's meter; `transcript` is read for its `messages` whenever they are measured (the run state). */
export function createRunMeter(
  runtime: LoopRuntime,
  transcript: { readonly messages: readonly ModelMessage[] },
): ContextMeter {
  return new ContextMeter({
    window: contextWindowFor(runtime.model.modelId, runtime.options.contextWindow),
    overheadTokens: overheadOf(runtime),
    transcript,
  });
}
