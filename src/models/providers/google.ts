import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { ProviderDefinition } from "./provider-definition.js";

/** `google:<model>`: the Gemini API (Google Generative AI). */
export const googleProvider: ProviderDefinition = {
  name: "google",
  description: "Google Gemini API",
  package: "@ai-sdk/google",
  apiKeyEnv: "GOOGLE_GENERATIVE_AI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    createGoogleGenerativeAI({ ...settings, apiKey, baseURL: baseUrl })(modelId),
};
