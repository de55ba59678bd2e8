import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import {
  createAgent,
  HookwiseError,
  isScriptedModel,
  ScriptExhaustedError,
  scriptedModel,
  tool,
} from "../index.js";

const call = (text = "hi"): LanguageModelV3CallOptions => ({
  prompt: [{ role: "user", content: [{ type: "text", text }] }],
});

/** What `promise` rejected with (it must reject). */
async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

describe("scriptedModel", () => {
  it("is a spec V3 model labelled as scripted", () => {
    const model = scriptedModel([], { modelId: "demo" });
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe("scripted");
    expect(model.modelId).toBe("demo");
    expect(model.scripted).toBe(true);
  });

  it("answers each call with the next entry and records every call", async () => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const first = await model.doGenerate(call("a"));
    const second = await model.doStream(call("b"));
    await readAll(second.stream);
    expect(first.content).toEqual([{ type: "text", text: "one" }]);
    expect(model.calls.map((recorded) => recorded.prompt)).toEqual([call("a").prompt, call("b").prompt]);
  });

  it("keeps its 1,000 most recent calls, and its place in the script past them", async () => {
    const model = scriptedModel(
      Array.from({ length: 1005 }, (_, index) => ({ text: `answer ${index + 1}` })),
    );
    let last: Awaited<ReturnType<typeof model.doGenerate>> | undefined;
    for (let index = 1; index <= 1005; index++) last = await model.doGenerate(call(`ask ${index}`));
    expect(last!.content).toEqual([{ type: "text", text: "answer 1005" }]);
    expect(model.calls).toHaveLength(1000);
    expect(model.calls[0]!.prompt).toEqual(call("ask 6").prompt);
    expect(model.calls.at(-1)!.prompt).toEqual(call("ask 1005").prompt);
    await expect(model.doGenerate(call())).rejects.toThrow(ScriptExhaustedError);
  });

  it("streams text as several deltas and tool calls as tool-call parts", async () => {
    const model = scriptedModel([
      {
        reasoning: "think about it first",
        text: "The answer is forty two, of course.",
        toolCalls: [{ name: "lookup", args: { q: "42" }, id: "l1" }, { name: "noop" }],
      },
    ]);
    const parts = await readAll((await model.doStream(call())).stream);
    const deltas = parts.filter((part) => part.type === "text-delta").map((part) => part.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("The answer is forty two, of course.");
    const reasoning = parts.filter((part) => part.type === "reasoning-delta").map((part) => part.delta);
    expect(reasoning.join("")).toBe("think about it first");
    const calls = parts.filter((part) => part.type === "tool-call");
    expect(calls).toEqual([
      { type: "tool-call", toolCallId: "l1", toolName: "lookup", input: JSON.stringify({ q: "42" }) },
      { type: "tool-call", toolCallId: "call_1_1", toolName: "noop", input: "{}" },
    ]);
    const finish = parts.at(-1);
    expect(finish).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
    expect(parts[0]!.type).toBe("stream-start");
  });

  it("generates tool calls as tool-call content parts", async () => {
    const model = scriptedModel([{ tool_calls: [{ name: "fs_read", args: { path: "notes.md" } }] }]);
    const result = await model.doGenerate(call());
    expect(result.content).toEqual([
      { type: "tool-call", toolCallId: "call_1_0", toolName: "fs_read", input: '{"path":"notes.md"}' },
    ]);
    expect(result.finishReason).toMatchObject({ unified: "tool-calls" });
  });

  it("fails an attempt with an API error carrying the status", async () => {
    const model = scriptedModel([
      { error: { status: 429, message: "rate limited" } },
      { error: { status: 400 } },
      { error: { status: 400, retryable: true } },
    ]);
    const first = await rejection(model.doGenerate(call()));
    expect(APICallError.isInstance(first)).toBe(true);
    expect(first).toMatchObject({ statusCode: 429, message: "rate limited", isRetryable: true });
    await expect(model.doStream(call())).rejects.toMatchObject({ statusCode: 400, isRetryable: false });
    await expect(model.doGenerate(call())).rejects.toMatchObject({ isRetryable: true });
    expect(model.calls).toHaveLength(3);
  });

  it("throws ScriptExhaustedError naming the call number when the script runs out", async () => {
    const model = scriptedModel([{ text: "only one" }]);
    await model.doGenerate(call());
    const error = await rejection(model.doGenerate(call()));
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(ScriptExhaustedError.isInstance(error)).toBe(true);
    expect(HookwiseError.isInstance(error)).toBe(true);
    expect((error as ScriptExhaustedError).callNumber).toBe(2);
    expect((error as Error).message).toContain("call #2");
    expect((error as Error).message).toContain("1 entry");
    await expect(model.doStream(call())).rejects.toThrow(/call #3/);
  });

  it.each(SURFACES)(
    "%s: an exhausted script ends the run with outcome error naming the call",
    async (surface) => {
      const model = scriptedModel([{ toolCalls: [{ name: "noop" }] }], { source: "demo.yaml" });
      const agent = createAgent({
        model,
        tools: { noop: tool({ inputSchema: { type: "object" }, execute: () => "done" }) },
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result.outcome).toBe("error");
      expect(result.reason).toContain("call #2");
      expect(result.reason).toContain("demo.yaml");
      expect(result.error).toMatchObject({ name: "ScriptExhaustedError" });
      expect(result.error?.message).toContain("call #2");
      // It is not mistaken for a transient failure: no retry.
      expect(model.calls).toHaveLength(2);
    },
  );

  it("reads the entry its kept position names: tool call ids and the exhausted call follow that place", async () => {
    const model = scriptedModel([{ text: "one" }, { toolCalls: [{ name: "noop" }] }, { text: "three" }]);
    expect(isScriptedModel(model)).toBe(true);
    expect(isScriptedModel({ scripted: true })).toBe(false);
    let kept = 1;
    model.keepPosition(async () => kept++);
    const second = await model.doGenerate(call());
    expect(second.content).toEqual([
      { type: "tool-call", toolCallId: "call_2_0", toolName: "noop", input: "{}" },
    ]);
    const third = await model.doGenerate(call());
    expect(third.content).toEqual([{ type: "text", text: "three" }]);
    await expect(model.doGenerate(call())).rejects.toThrow(/call #4/);
    // Back to its own count: the entry after its own previous call (it made three).
    model.keepPosition(undefined);
    await expect(model.doGenerate(call())).rejects.toThrow(/call #4/);
  });

  it("accepts functions of the call, for scripts that react to the prompt", async () => {
    const model = scriptedModel([
      (received, callNumber) => ({
        text: `call ${callNumber} saw ${JSON.stringify(received.prompt).length} chars`,
      }),
    ]);
    const result = await model.doGenerate(call("abc"));
    expect(result.content[0]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^call 1 saw \d+ chars$/),
    });
  });

  it("reports usage, explicit or estimated", async () => {
    const model = scriptedModel([
      { text: "x", usage: { inputTokens: 7, outputTokens: 3 } },
      { text: "hello" },
    ]);
    const explicit = await model.doGenerate(call());
    expect(explicit.usage.inputTokens.total).toBe(7);
    expect(explicit.usage.outputTokens.total).toBe(3);
    const estimated = await model.doGenerate(call());
    expect(estimated.usage.inputTokens.total).toBeGreaterThan(0);
    expect(estimated.usage.outputTokens.total).toBeGreaterThan(0);
  });

  it("waits delayMs before answering, and stops waiting when aborted", async () => {
    const model = scriptedModel([{ text: "slow", delayMs: 10_000 }]);
    const controller = new AbortController();
    const pending = model.doGenerate({ ...call(), abortSignal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});

describe("scriptedModel readsPrompt: false", () => {
  it("is sent an empty prompt (no copy of the transcript) and estimates no input tokens; by default it gets the prompt", async () => {
    for (const readsPrompt of [false, true]) {
      const model = scriptedModel([{ text: "one" }, { text: "two" }], { readsPrompt });
      const agent = createAgent({ model, instructions: "be brief" });
      await agent.run("first", { sessionId: "s" });
      const second = await agent.run("second", { sessionId: "s" });
      expect(second.text).toBe("two");
      expect(second.messages).toHaveLength(4);
      if (readsPrompt) {
        expect(model.calls[1]!.prompt.length).toBe(4);
        expect(second.usage.inputTokens).toBeGreaterThan(0);
      } else {
        expect(model.calls.map((call) => call.prompt)).toEqual([[], []]);
        expect(second.usage.inputTokens).toBe(0);
      }
    }
  });
});
