import { createAnthropic } from "@ai-sdk/anthropic";
import type { ProviderDefinition } from "./provider-definition.js";

/** `anthropic:<model>`: Anthropic's Messages API. */
export const anthropicProvider: ProviderDefinition = {
  name: "anthropic",
  description: "Anthropic, Messages API",
  package: "@ai-sdk/anthropic",
  apiKeyEnv: "ANTHROPIC_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    createAnthropic({ ...settings, apiKey, baseURL: baseUrl }).messages(modelId),
};
