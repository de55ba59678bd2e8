import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../context/count-tokens.js";
import type { ModelMessage } from "../../events/payloads.js";
import type { ContextWindowUsage, HookModel } from "../../hooks/hook-context.js";
import { makeEvaluation } from "./make-evaluation.js";
import { testContext } from "./test-evaluation.js";

const messages: ModelMessage[] = [{ role: "user", content: "How warm is it in Lyon today?" }];
const event = {
  type: "run_end",
  agentPath: ["main"],
  output: "",
  outcome: "completed",
  continuations: 0,
} as const;

function window(size: number, tokens: number): ContextWindowUsage {
  return { window: size, tokens: () => tokens, pressure: () => tokens / size };
}

const model = (modelId: string): HookModel => ({
  provider: "test",
  modelId,
  generate: async () => ({ text: "", usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } }),
});

describe("tokens and pressure", () => {
  it("come from the loop's accounting when the hook runs in a loop", () => {
    const context = testContext({ messages, contextWindow: window(10_000, 2_500) });
    const { stats } = makeEvaluation(event, context, "h");
    expect(stats.tokens).toBe(2_500);
    expect(stats.pressure).toBe(0.25);
  });

  it("a configured context window wins over the loop's", () => {
    const context = testContext({ messages, contextWindow: window(10_000, 2_500) });
    expect(makeEvaluation(event, context, "h", { contextWindow: 5_000 }).stats.pressure).toBe(0.5);
  });

  it("outside a loop: a tokenizer estimate, and the window of the model's family", () => {
    const context = testContext({ messages, model: model("gpt-4o-mini") });
    const { stats } = makeEvaluation(event, context, "h");
    expect(stats.tokens).toBe(estimateTokens(messages));
    expect(stats.tokens).toBe(12); // 8 tokens of text + 4 of framing, not characters / 4
    expect(stats.pressure).toBeCloseTo(12 / 128_000);
    expect(
      makeEvaluation(event, testContext({ messages, model: model("gpt-4.1") }), "h").stats.pressure,
    ).toBeCloseTo(12 / 1_047_576);
  });
});
