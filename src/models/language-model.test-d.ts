import { MockLanguageModelV3 } from "ai/test";
import { MockLanguageModelV4 } from "ai-v7/test";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AgentOptions,
  createAgent,
  type LanguageModel,
  type ScriptedModel,
  scriptedModel,
} from "../index.js";

describe("createAgent's model option", () => {
  it("accepts an AI SDK 6 (spec V3) model", () => {
    const model = new MockLanguageModelV3();
    createAgent({ model });
    expectTypeOf(model).toExtend<LanguageModel>();
    expectTypeOf(model).toExtend<AgentOptions["model"]>();
  });

  it("accepts an AI SDK 7 (spec V4) model", () => {
    const model = new MockLanguageModelV4();
    createAgent({ model });
    expectTypeOf(model).toExtend<LanguageModel>();
    expectTypeOf(model).toExtend<AgentOptions["model"]>();
  });

  it("accepts the scripted model", () => {
    const model = scriptedModel([{ text: "hi" }]);
    createAgent({ model });
    expectTypeOf(model).toExtend<LanguageModel>();
    expectTypeOf(model.calls).toBeArray();
    expectTypeOf<ScriptedModel["scripted"]>().toEqualTypeOf<true>();
  });

  it("rejects an object that is not a language model", () => {
    // @ts-expect-error: not a language model
    createAgent({ model: { modelId: "gpt", provider: "openai" } });
    // @ts-expect-error: a model id string is not a model object
    createAgent({ model: "openai:gpt-4.1-mini" });
    const specV2 = {
      specificationVersion: "v2" as const,
      provider: "p",
      modelId: "m",
      doGenerate: async () => ({}),
      doStream: async () => ({ stream: new ReadableStream() }),
    };
    // @ts-expect-error: spec V2 models are not supported
    createAgent({ model: specV2 });
    expectTypeOf(specV2).not.toExtend<LanguageModel>();
    expectTypeOf({ ...specV2, specificationVersion: "v4" as const }).toExtend<LanguageModel>();
    // @ts-expect-error: the model is required
    createAgent({});
    expectTypeOf<{ doGenerate(): void }>().not.toExtend<LanguageModel>();
    expectTypeOf<string>().not.toExtend<LanguageModel>();
  });
});
