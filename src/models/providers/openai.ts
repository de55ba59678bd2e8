import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type OpenAIPackage = typeof import("@ai-sdk/openai");

/** `openai:<model>`: the OpenAI Responses API (what `openai(id)` means in AI SDK 6). */
export const openaiProvider: ProviderDefinition = {
  name: "openai",
  description: "OpenAI, Responses API",
  package: "@ai-sdk/openai",
  apiKeyEnv: "OPENAI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    lazyModel<OpenAIPackage>({
      provider: "openai.responses",
      modelId,
      package: "@ai-sdk/openai",
      purpose: "The openai provider",
      make: ({ createOpenAI }) => createOpenAI({ ...settings, apiKey, baseURL: baseUrl }).responses(modelId),
    }),
};
