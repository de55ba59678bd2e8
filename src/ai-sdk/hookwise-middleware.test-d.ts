import { wrapLanguageModel } from "ai";
import { wrapLanguageModel as wrapLanguageModelV7 } from "ai-v7";
import { expectTypeOf, test } from "vitest";
import { scriptedModel } from "../models/scripted-model.js";
import { policy } from "../policy/policy.js";
import { hookwiseMiddleware } from "./hookwise-middleware.js";

const middleware = hookwiseMiddleware({ policies: [policy.deny("delete_all")] });
const model = scriptedModel([{ text: "hi" }]);

test("hookwiseMiddleware is a middleware of AI SDK 6's wrapLanguageModel (spec V3)", () => {
  expectTypeOf(middleware).toExtend<Parameters<typeof wrapLanguageModel>[0]["middleware"]>();
  wrapLanguageModel({ model, middleware });
  wrapLanguageModel({ model, middleware: [middleware] });
});

test("hookwiseMiddleware is a middleware of AI SDK 7's wrapLanguageModel (spec V4)", () => {
  expectTypeOf(middleware).toExtend<Parameters<typeof wrapLanguageModelV7>[0]["middleware"]>();
  wrapLanguageModelV7({ model, middleware });
  wrapLanguageModelV7({ model, middleware: [middleware] });
});
