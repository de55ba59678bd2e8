import { createOpenAI } from "@ai-sdk/openai";
import type { ProviderDefinition } from "./provider-definition.js";

/** `openai:<model>`: the OpenAI Responses API (what `openai(id)` means in AI SDK 6). */
export const openaiProvider: ProviderDefinition = {
  name: "openai",
  description: "OpenAI, Responses API",
  package: "@ai-sdk/openai",
  apiKeyEnv: "OPENAI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    createOpenAI({ ...settings, apiKey, baseURL: baseUrl }).responses(modelId),
};
