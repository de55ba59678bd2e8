import { createOpenAI } from "@ai-sdk/openai";
import type { ProviderDefinition } from "./provider-definition.js";

/** `openai-chat:<model>`: OpenAI's Chat Completions API (also for proxies that speak only it). */
export const openaiChatProvider: ProviderDefinition = {
  name: "openai-chat",
  description: "OpenAI, Chat Completions API",
  package: "@ai-sdk/openai",
  apiKeyEnv: "OPENAI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    createOpenAI({ ...settings, apiKey, baseURL: baseUrl }).chat(modelId),
};
