/**
 * Models in config: each `models.<name>` entry, a string `provider:model-id` or
 * an object, is built by the models' provider registry. The entry's `fallback` and
 * `max_retries` travel with the model object (model settings) to the loop; a fallback is a
 * declared model name, resolved through the agent's `models` option when it is needed.
 */
import { createModel } from "../../models/create-model.js";
import type { LanguageModel } from "../../models/language-model.js";
import { withModelSettings } from "../../models/model-settings.js";
import { providerNames as registeredProviders } from "../../models/providers/index.js";
import type { ModelEntry } from "../schema/schema.js";

export interface BuiltModel {
  name: string;
  model: LanguageModel;
  contextWindow?: number;
  fallback?: string;
  scripted: boolean;
}

export function providerNames(): string[] {
  return registeredProviders();
}

/** Builds `models.<name>`; throws a HookwiseError naming the entry (a missing key names its variable). */
export function buildModel(name: string, entry: ModelEntry, baseDir: string): BuiltModel {
  const where = `models.${name}`;
  const object = typeof entry === "string" ? undefined : entry;
  const model = createModel(
    object
      ? {
          provider: object.provider,
          model: object.model,
          baseUrl: object.base_url,
          apiKeyEnv: object.api_key_env,
          options: object.options,
        }
      : entry,
    { baseDir, where },
  );
  if (object) {
    withModelSettings(model, {
      maxRetries: object.max_retries,
      fallback: object.fallback,
      contextWindow: object.context_window,
    });
  }
  return {
    name,
    model,
    contextWindow: object?.context_window,
    fallback: object?.fallback,
    scripted: model.provider === "scripted",
  };
}
