import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type CompatiblePackage = typeof import("@ai-sdk/openai-compatible");

/**
 * `{ provider: openai-compatible, model, base_url }`: any server speaking OpenAI's Chat
 * Completions (vLLM, llama.cpp's server, LM Studio, Ollama…). No key unless `api_key_env`
 * names one; streamed usage is asked for (`includeUsage`) unless `options` say otherwise.
 */
export const openaiCompatibleProvider: ProviderDefinition = {
  name: "openai-compatible",
  description: "any OpenAI-compatible Chat Completions server (vLLM, llama.cpp, LM Studio, Ollama)",
  package: "@ai-sdk/openai-compatible",
  requiresBaseUrl: true,
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    lazyModel<CompatiblePackage>({
      provider: `${typeof settings.name === "string" ? settings.name : "openai-compatible"}.chat`,
      modelId,
      package: "@ai-sdk/openai-compatible",
      purpose: "The openai-compatible provider",
      make: ({ createOpenAICompatible }) =>
        createOpenAICompatible({
          name: "openai-compatible",
          includeUsage: true,
          ...settings,
          apiKey,
          baseURL: baseUrl!,
        }).chatModel(modelId),
    }),
};
