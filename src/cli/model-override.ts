/**
 * `hookwise run --model <model>` (or `HOOKWISE_MODEL`): runs the agent on another model
 * than its config names — a model declared under `models:`, or any `provider:model-id`
 * (`ollama:llama3.2`, `openai:gpt-4.1-mini`). This is how the quickstart switches from the
 * scripted model to a real one without editing the file.
 */
import { buildModel } from "../config/build/build-models.js";
import type { LoadedConfig } from "../config/load-config.js";
import { createModel } from "../models/create-model.js";
import type { LanguageModel } from "../models/language-model.js";
import { ModelSpecError } from "../models/providers/model-spec-error.js";
import { UsageError } from "./usage-error.js";

export function modelOverride(loaded: LoadedConfig, value: string): LanguageModel {
  return overrideModel(loaded.config.models, loaded.dir, value);
}

/** The model `--model value` names, for a config's `models` (declared names first). */
export function overrideModel(
  models: LoadedConfig["config"]["models"],
  dir: string,
  value: string,
): LanguageModel {
  const declared = models[value];
  if (declared !== undefined) return buildModel(value, declared, dir).model;
  const names = Object.keys(models);
  if (!value.includes(":")) {
    throw new UsageError(
      `--model "${value}" is neither a model declared under models:${names.length ? ` (${names.join(", ")})` : ""} nor "provider:model-id" (e.g. ollama:llama3.2)`,
    );
  }
  try {
    return createModel(value, { baseDir: dir, where: "--model" });
  } catch (error) {
    // A misspelt provider is a usage mistake (exit 2); a missing key stays an error (exit 1).
    if (ModelSpecError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}
