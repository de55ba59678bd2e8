/**
 * `ctx.model`: the agent's model as hooks can call it (a summary for compaction, a judge).
 * Not a step: no `model_request` hooks, no entry in `RunResult.requests`; the usage is added
 * to the run's. A named model comes from the agent's `models` option, as fallbacks do.
 */

import { HookwiseError } from "../errors/hookwise-error.js";
import type { HookModel, ModelCallRequest, ModelCallResult } from "../hooks/hook-context.js";
import { callableModel, isSupportedModel, type LanguageModel } from "../models/language-model.js";
import { readGenerateResult } from "../models/read-model-output.js";
import { abortable, NEVER_ABORTED } from "./abortable.js";
import type { Usage } from "./run-result.js";
import { toPrompt } from "./to-prompt.js";
import type { LoopRuntime } from "./types.js";

function namedModel(runtime: LoopRuntime, name: string): LanguageModel {
  const models = runtime.options.models;
  const found = typeof models === "function" ? models(name) : models?.[name];
  if (!found || !isSupportedModel(found)) {
    throw new HookwiseError(`model "${name}" is not known to agent "${runtime.name}" (its models option)`);
  }
  return found;
}

export function createHookModel(runtime: LoopRuntime, usage: Usage, signal: AbortSignal): HookModel {
  const model = runtime.model;
  return {
    provider: model.provider,
    modelId: model.modelId,
    async generate(request: ModelCallRequest): Promise<ModelCallResult> {
      const target = request.model === undefined ? model : namedModel(runtime, request.model);
      const pending = callableModel(target).doGenerate({
        prompt: toPrompt(request.system, request.messages),
        maxOutputTokens: request.maxOutputTokens,
        temperature: request.temperature,
        abortSignal: signal === NEVER_ABORTED ? undefined : signal,
      });
      const turn = readGenerateResult(await abortable(pending, signal));
      const used = {
        inputTokens: turn.usage.inputTokens ?? 0,
        outputTokens: turn.usage.outputTokens ?? 0,
        totalTokens: turn.usage.totalTokens ?? (turn.usage.inputTokens ?? 0) + (turn.usage.outputTokens ?? 0),
      };
      usage.inputTokens += used.inputTokens;
      usage.outputTokens += used.outputTokens;
      usage.totalTokens += used.totalTokens;
      return { text: turn.text, usage: used };
    },
  };
}
