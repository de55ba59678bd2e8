import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type CompatiblePackage = typeof import("@ai-sdk/openai-compatible");

/**
 * `ollama:<model>`: a local Ollama through its OpenAI-compatible endpoint. The address is
 * `base_url`, else `OLLAMA_HOST` (as the ollama CLI reads it: `host:port` or a URL), else
 * http://127.0.0.1:11434. A shorthand for `openai-compatible` that needs no config file.
 */
export const ollamaProvider: ProviderDefinition = {
  name: "ollama",
  description: "a local Ollama (OpenAI-compatible endpoint; OLLAMA_HOST or http://127.0.0.1:11434)",
  package: "@ai-sdk/openai-compatible",
  create: ({ modelId, apiKey, baseUrl, settings, env }) =>
    lazyModel<CompatiblePackage>({
      provider: `${typeof settings.name === "string" ? settings.name : "ollama"}.chat`,
      modelId,
      package: "@ai-sdk/openai-compatible",
      purpose: "The ollama provider",
      make: ({ createOpenAICompatible }) =>
        createOpenAICompatible({
          name: "ollama",
          includeUsage: true,
          ...settings,
          apiKey,
          baseURL: baseUrl ?? ollamaBaseUrl(env.OLLAMA_HOST),
        }).chatModel(modelId),
    }),
};

export function ollamaBaseUrl(host: string | undefined): string {
  const value = host?.trim() || "127.0.0.1:11434";
  const url = /^https?:\/\//.test(value) ? value : `http://${value}`;
  return `${url.replace(/\/+$/, "")}/v1`;
}
