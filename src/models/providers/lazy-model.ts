/**
 * A provider model whose package loads on the first request. `createModel("anthropic:…")`
 * stays synchronous and cheap (a config with five providers loads none of them until a
 * model is called); a provider package that is not installed is a `MissingPackageError`
 * naming it when the model is made, so a config that names it fails to load.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { assertInstalled, importOptional } from "../../errors/optional-package.js";

export interface LazyModelOptions<M> {
  /** The AI SDK provider string the loaded model reports (`openai.responses`). */
  provider: string;
  modelId: string;
  /** The package the model comes from (`@ai-sdk/openai`). */
  package: string;
  /** Names the feature in the missing-package error (`The openai provider`). */
  purpose: string;
  /** Builds the model from the loaded package. */
  make(module: M): LanguageModelV3;
}

export function lazyModel<M>(options: LazyModelOptions<M>): LanguageModelV3 {
  // Not installed: an error when the model is made (a config's load), not at its first request.
  assertInstalled(options.package, options.purpose);
  let loading: Promise<LanguageModelV3> | undefined;
  let loaded: LanguageModelV3 | undefined;
  const load = (): Promise<LanguageModelV3> => {
    loading ??= importOptional<M>(options.package, options.purpose).then(
      (module) => {
        loaded = options.make(module);
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    specificationVersion: "v3",
    get provider() {
      return loaded?.provider ?? options.provider;
    },
    modelId: options.modelId,
    get supportedUrls() {
      return loaded ? loaded.supportedUrls : load().then((model) => model.supportedUrls);
    },
    doGenerate: async (call) => (await load()).doGenerate(call),
    doStream: async (call) => (await load()).doStream(call),
  };
}
