import { lazyModel } from "./lazy-model.js";
import type { ProviderDefinition } from "./provider-definition.js";

type GooglePackage = typeof import("@ai-sdk/google");

/** `google:<model>`: the Gemini API (Google Generative AI). */
export const googleProvider: ProviderDefinition = {
  name: "google",
  description: "Google Gemini API",
  package: "@ai-sdk/google",
  apiKeyEnv: "GOOGLE_GENERATIVE_AI_API_KEY",
  create: ({ modelId, apiKey, baseUrl, settings }) =>
    lazyModel<GooglePackage>({
      provider: "google.generative-ai",
      modelId,
      package: "@ai-sdk/google",
      purpose: "The google provider",
      make: ({ createGoogleGenerativeAI }) =>
        createGoogleGenerativeAI({ ...settings, apiKey, baseURL: baseUrl })(modelId),
    }),
};
