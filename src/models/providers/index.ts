/**
 * The provider registry: `provider:model-id` strings and `{ provider, … }` objects resolve
 * here. A new provider is one file plus one line below (or `registerProvider` at run time).
 */
import { anthropicProvider } from "./anthropic.js";
import { googleProvider } from "./google.js";
import { ollamaProvider } from "./ollama.js";
import { openaiProvider } from "./openai.js";
import { openaiChatProvider } from "./openai-chat.js";
import { openaiCompatibleProvider } from "./openai-compatible.js";
import type { ProviderDefinition } from "./provider-definition.js";
import { scriptedProvider } from "./scripted.js";

const PROVIDERS = new Map<string, ProviderDefinition>(
  [
    openaiProvider,
    openaiChatProvider,
    anthropicProvider,
    googleProvider,
    openaiCompatibleProvider,
    ollamaProvider,
    scriptedProvider,
  ].map((provider) => [provider.name, provider]),
);

export function providerNames(): string[] {
  return [...PROVIDERS.keys()];
}

export function getProvider(name: string): ProviderDefinition | undefined {
  return PROVIDERS.get(name);
}

/** Adds (or replaces) a provider; returns a disposer that restores what was there. */
export function registerProvider(definition: ProviderDefinition): () => void {
  const previous = PROVIDERS.get(definition.name);
  PROVIDERS.set(definition.name, definition);
  return () => {
    if (PROVIDERS.get(definition.name) !== definition) return;
    if (previous) PROVIDERS.set(definition.name, previous);
    else PROVIDERS.delete(definition.name);
  };
}

export { MissingApiKeyError } from "./missing-api-key-error.js";
export { ModelSpecError } from "./model-spec-error.js";
export type { ProviderDefinition, ProviderInput } from "./provider-definition.js";
