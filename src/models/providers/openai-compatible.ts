import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ProviderDefinition } from "./provider-definition.js";

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
    createOpenAICompatible({
      name: "openai-compatible",
      includeUsage: true,
      ...settings,
      apiKey,
      baseURL: baseUrl!,
    }).chatModel(modelId),
};
