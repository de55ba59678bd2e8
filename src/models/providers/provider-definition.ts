/**
 * What a provider module declares: its name in model strings, where its key comes from,
 * and how it makes a language model. Each provider is one file registered in `index.ts`.
 */
import type { LanguageModel } from "../language-model.js";

export interface ProviderInput {
  modelId: string;
  /** The key read from the environment; undefined when the provider needs none. */
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** `options` of the model entry: provider settings (headers, organization, …), never a key. */
  settings: Record<string, unknown>;
  /** Where relative paths (a script file) resolve. */
  baseDir: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface ProviderDefinition {
  /** The name in `provider:model-id` strings and in `provider:` fields. */
  readonly name: string;
  /** One line for docs and error messages. */
  readonly description: string;
  /** The npm package the models come from, for docs. */
  readonly package: string;
  /**
   * The environment variable holding the API key unless `api_key_env` names another.
   * Undefined: the provider needs no key (a key is still read when `api_key_env` is given).
   */
  readonly apiKeyEnv?: string;
  /** True when a `base_url` is required (a local server has no default address). */
  readonly requiresBaseUrl?: boolean;
  create(input: ProviderInput): LanguageModel;
}
