/**
 * The model of an agent served by `hookwise mcp` whose config declares none: the gateway
 * calls tools, never a model. A hook that asks one anyway (`ctx.model`) gets an error
 * saying what to declare.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";

function refuse(): never {
  throw new Error(
    "this agent has no model: hookwise mcp serves its tools without one; declare one under models: for hooks that call a model",
  );
}

export const NO_MODEL: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "hookwise",
  modelId: "none",
  supportedUrls: {},
  doGenerate: async () => refuse(),
  doStream: async () => refuse(),
};
