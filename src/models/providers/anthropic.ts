import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type AnthropicPackage = typeof import("@ai-sdk/anthropic");

/** `anthropic:<model>`: Anthropic's Messages API. */
export const anthropicProvider: ProviderDefinition = {
  name: "anthropic",
  description: "Anthropic, Messages API",
  package: "@ai-sdk/anthropic",
  apiKeyEnv: "ANTHROPIC_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    lazyModel<AnthropicPackage>({
      provider: "anthropic.messages",
      modelId,
      package: "@ai-sdk/anthropic",
      purpose: "The anthropic provider",
      make: ({ createAnthropic }) =>
        createAnthropic({ ...settings, apiKey, baseURL: baseUrl }).messages(modelId),
    }),
};
