/**
 * Per-model settings the loop reads when it calls a model: how often to retry it and which
 * model to continue on when it gives up. They travel with the model object (a WeakMap, so
 * the model itself is never changed), which is how `models.<name>.fallback` and
 * `models.<name>.max_retries` reach the loop without the loop knowing about config.
 */
import type { LanguageModel } from "./language-model.js";

export interface ModelSettings {
  /**
   * Retries of a failed request to this model (each a new attempt). Undefined falls back to
   * the agent's `maxRetries`; 0 is kept (never retry this model).
   */
  readonly maxRetries?: number;
  /**
   * Where the step continues once this model's retries are exhausted, or on a non-retryable
   * error other than auth and bad request: a model, or a name resolved through the agent's
   * `models` option (what config `models.<name>.fallback` gives).
   */
  readonly fallback?: LanguageModel | string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
}

const SETTINGS = new WeakMap<object, ModelSettings>();

/** Attaches settings to `model` (merged over earlier ones) and returns the same model. */
export function withModelSettings<M extends LanguageModel>(model: M, settings: ModelSettings): M {
  const merged = { ...SETTINGS.get(model), ...settings };
  for (const key of Object.keys(merged) as (keyof ModelSettings)[]) {
    if (merged[key] === undefined) delete merged[key];
  }
  if (merged.maxRetries !== undefined && (!Number.isInteger(merged.maxRetries) || merged.maxRetries < 0)) {
    throw new TypeError(`withModelSettings: maxRetries must be an integer ≥ 0 (got ${merged.maxRetries})`);
  }
  SETTINGS.set(model, merged);
  return model;
}

export function modelSettings(model: LanguageModel): ModelSettings {
  return SETTINGS.get(model) ?? {};
}

/** `provider:modelId`, how errors, banners and `requests[].model` name a model. */
export function modelLabel(model: LanguageModel): string {
  return `${model.provider}:${model.modelId}`;
}
