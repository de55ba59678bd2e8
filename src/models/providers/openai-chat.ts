import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type OpenAIPackage = typeof import("@ai-sdk/openai");

/** `openai-chat:<model>`: OpenAI's Chat Completions API (also for proxies that speak only it). */
export const openaiChatProvider: ProviderDefinition = {
  name: "openai-chat",
  description: "OpenAI, Chat Completions API",
  package: "@ai-sdk/openai",
  apiKeyEnv: "OPENAI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    lazyModel<OpenAIPackage>({
      provider: "openai.chat",
      modelId,
      package: "@ai-sdk/openai",
      purpose: "The openai-chat provider",
      make: ({ createOpenAI }) => createOpenAI({ ...settings, apiKey, baseURL: baseUrl }).chat(modelId),
    }),
};
