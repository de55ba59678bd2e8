/**
 * Models in config (DESIGN §8): `scripted:<file>` replays a script offline; real provider
 * strings (`openai:…`, `anthropic:…`) are resolved by the providers registry.
 */
import { resolve } from "node:path";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { LanguageModel } from "../models/language-model.js";
import { loadScript } from "../models/load-script.js";
import { scriptedModel } from "../models/scripted-model.js";
import type { ModelEntry } from "./schema.js";

export interface BuiltModel {
  name: string;
  model: LanguageModel;
  contextWindow?: number;
  fallback?: string;
  scripted: boolean;
}

type ProviderFactory = (
  modelId: string,
  entry: Exclude<ModelEntry, string> | undefined,
  baseDir: string,
) => LanguageModel;

const PROVIDERS: Record<string, ProviderFactory> = {
  scripted: (modelId, _entry, baseDir) => {
    const path = resolve(baseDir, modelId);
    return scriptedModel(loadScript(path), { modelId: modelId, source: path });
  },
};

export function providerNames(): string[] {
  return Object.keys(PROVIDERS);
}

export function buildModel(name: string, entry: ModelEntry, baseDir: string): BuiltModel {
  const provider = typeof entry === "string" ? entry.slice(0, entry.indexOf(":")) : entry.provider;
  const modelId = typeof entry === "string" ? entry.slice(entry.indexOf(":") + 1) : entry.model;
  const factory = PROVIDERS[provider];
  if (!factory) {
    throw new HookwiseError(
      `models.${name}: provider "${provider}" is not available in this build (available: ${providerNames().join(", ")})`,
    );
  }
  const object = typeof entry === "string" ? undefined : entry;
  return {
    name,
    model: factory(modelId, object, baseDir),
    contextWindow: object?.context_window,
    fallback: object?.fallback,
    scripted: provider === "scripted",
  };
}
