/**
 * `createModel`: a language model from a spec, the same shapes config uses:
 * a string `provider:model-id` or an object `{ provider, model, baseUrl?, apiKeyEnv?, … }`.
 * Credentials come only from the environment, read now: a missing key throws
 * `MissingApiKeyError` naming the variable before any request is sent.
 */

import { nearest } from "../errors/nearest.js";
import { assertInstalled } from "../errors/optional-package.js";
import { registerSecret } from "../secrets/secret-registry.js";
import type { LanguageModel } from "./language-model.js";
import { withModelSettings } from "./model-settings.js";
import { getProvider, providerNames } from "./providers/index.js";
import { MissingApiKeyError } from "./providers/missing-api-key-error.js";
import { ModelSpecError } from "./providers/model-spec-error.js";
import { withMaskedErrors } from "./secret-values.js";

export interface ModelSpecObject {
  provider: string;
  model: string;
  /** The provider's endpoint (required by `openai-compatible`). */
  baseUrl?: string;
  /** The environment variable holding the key, when not the provider's default. */
  apiKeyEnv?: string;
  contextWindow?: number;
  /** Provider settings (`headers`, `organization`, `name`, `includeUsage`…), never a key. */
  options?: Record<string, unknown>;
  /** Retries of this model; undefined: the agent's `maxRetries`. */
  maxRetries?: number;
  /** The model the step continues on when this one gives up; a spec is built now. */
  fallback?: ModelSpec | LanguageModel;
}

export type ModelSpec = string | ModelSpecObject;

export interface CreateModelOptions {
  /** Where relative paths resolve (`scripted:./script.yaml`). Default: the working directory. */
  baseDir?: string;
  /** Where keys are read. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Names the model in errors, e.g. `models.default`. */
  where?: string;
}

/** Keys that must not sit in `options`: credentials come from the environment, URLs from base_url. */
const FORBIDDEN_SETTINGS: Record<string, string> = {
  apiKey: "put the key in an environment variable and name it with api_key_env",
  api_key: "put the key in an environment variable and name it with api_key_env",
  authToken: "put the token in an environment variable and name it with api_key_env",
  baseURL: "use base_url",
  baseUrl: "use base_url",
  base_url: "use base_url beside options, not inside it",
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseModelString(value: string, where?: string): { provider: string; model: string } {
  const colon = value.indexOf(":");
  if (colon <= 0 || colon === value.length - 1) {
    throw new ModelSpecError(
      `${where ? `${where}: ` : ""}a model string is "provider:model-id" (e.g. "openai:gpt-4.1-mini"; providers: ${providerNames().join(", ")})`,
    );
  }
  return { provider: value.slice(0, colon), model: value.slice(colon + 1) };
}

export function createModel(spec: ModelSpec, options: CreateModelOptions = {}): LanguageModel {
  const object: ModelSpecObject = typeof spec === "string" ? parseModelString(spec, options.where) : spec;
  const at = options.where ? `${options.where}: ` : "";
  const provider = getProvider(object.provider);
  if (!provider) {
    const hint = nearest(object.provider, providerNames());
    throw new ModelSpecError(
      `${at}unknown model provider "${object.provider}" (providers: ${providerNames().join(", ")})${hint ? `; did you mean "${hint}"?` : ""}`,
    );
  }
  const settings = { ...object.options };
  for (const key of Object.keys(settings)) {
    const advice = FORBIDDEN_SETTINGS[key];
    if (advice) throw new ModelSpecError(`${at}options.${key} is not accepted: ${advice}`);
  }
  if (provider.requiresBaseUrl && !object.baseUrl) {
    throw new ModelSpecError(
      `${at}provider ${provider.name} needs base_url, the server's address (e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM)`,
    );
  }
  const env = options.env ?? process.env;
  const variable = object.apiKeyEnv ?? provider.apiKeyEnv;
  let apiKey: string | undefined;
  if (variable !== undefined) {
    if (!ENV_NAME.test(variable)) {
      // Never echo the value: a key pasted here by mistake must not reach a log.
      throw new ModelSpecError(
        `${at}api_key_env must name an environment variable (letters, digits and _), not hold the key itself`,
      );
    }
    apiKey = env[variable]?.trim() || undefined;
    if (apiKey === undefined) {
      // Without its package too, that is said first: setting the key alone would not help.
      if (provider.package !== "hookwise") assertInstalled(provider.package, `The ${provider.name} provider`);
      throw new MissingApiKeyError({
        provider: provider.name,
        variable,
        where: options.where,
        chosen: object.apiKeyEnv !== undefined,
      });
    }
  }
  const created = provider.create({
    modelId: object.model,
    apiKey,
    baseUrl: object.baseUrl,
    settings,
    baseDir: options.baseDir ?? process.cwd(),
    env,
  });
  // A provider's error may quote the key (some echo the Authorization header): masked at the source.
  if (apiKey !== undefined && variable !== undefined) registerSecret(apiKey, variable);
  const model = apiKey === undefined ? created : withMaskedErrors(created);
  const fallback =
    object.fallback === undefined || isModel(object.fallback)
      ? object.fallback
      : createModel(object.fallback, { ...options, where: `${options.where ?? "model"}.fallback` });
  if (object.maxRetries !== undefined || fallback !== undefined || object.contextWindow !== undefined) {
    withModelSettings(model, {
      maxRetries: object.maxRetries,
      fallback,
      contextWindow: object.contextWindow,
    });
  }
  return model;
}

function isModel(value: ModelSpec | LanguageModel): value is LanguageModel {
  return typeof value === "object" && "specificationVersion" in value;
}
