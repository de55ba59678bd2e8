/** The token meter of one run: the agent's context window, and what every request carries. */

import type { AgentRuntime } from "../agent/agent-runtime.js";
import { ContextMeter } from "../context/context-meter.js";
import { contextWindowFor } from "../context/context-window.js";
import { countTextTokens } from "../context/count-tokens.js";
import type { ModelMessage } from "../events/payloads.js";
import { toolSpecs } from "./build-request.js";

export function createRunMeter(
  runtime: AgentRuntime,
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
