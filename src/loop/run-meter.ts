/** The token meter of one run: the agent's context window, and what every request carries. */

import { ContextMeter } from "../context/context-meter.js";
import { contextWindowFor } from "../context/context-window.js";
import { countTextTokens } from "../context/count-tokens.js";
import type { ModelMessage } from "../events/payloads.js";
import { toolSpecs } from "./build-request.js";
import type { LoopRuntime } from "./types.js";

export function createRunMeter(
  runtime: LoopRuntime,
  transcript: () => readonly ModelMessage[],
): ContextMeter {
  return new ContextMeter({
    window: contextWindowFor(runtime.model.modelId, runtime.options.contextWindow),
    overheadTokens: () =>
      countTextTokens(runtime.options.instructions ?? "") +
      (runtime.tools.length ? countTextTokens(JSON.stringify(toolSpecs(runtime.tools))) : 0),
    transcript,
  });
}
