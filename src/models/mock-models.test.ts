/**
 * Any AI SDK provider model drives the loop: spec V3 (AI SDK 6 providers) and spec V4
 * (AI SDK 7 providers), each through its own spec's mock model, on doGenerate (`run()`)
 * and doStream (`stream()`).
 */

import {
  APICallError,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from "@ai-sdk/provider-v4";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { MockLanguageModelV4 } from "ai-v7/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, type LanguageModel, tool } from "../index.js";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

const toolCallInput = JSON.stringify({ city: "Paris" });

/** Step 1 asks for the weather tool; step 2 answers in text. Same content for V3 and V4. */
const generated = [
  {
    content: [
      { type: "text" as const, text: "Checking." },
      { type: "tool-call" as const, toolCallId: "w1", toolName: "weather", input: toolCallInput },
    ],
    finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
    usage: usage(10, 5),
    warnings: [],
  },
  {
    content: [{ type: "text" as const, text: "It is sunny in Paris." }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: usage(20, 7),
    warnings: [],
  },
];

const streamed = [
  [
    { type: "stream-start" as const, warnings: [] },
    { type: "response-metadata" as const, id: "r1", modelId: "mock" },
    { type: "text-start" as const, id: "t" },
    { type: "text-delta" as const, id: "t", delta: "Check" },
    { type: "text-delta" as const, id: "t", delta: "ing." },
    { type: "text-end" as const, id: "t" },
    { type: "tool-input-start" as const, id: "w1", toolName: "weather" },
    { type: "tool-input-delta" as const, id: "w1", delta: '{"city":' },
    { type: "tool-input-delta" as const, id: "w1", delta: '"Paris"}' },
    { type: "tool-input-end" as const, id: "w1" },
    { type: "tool-call" as const, toolCallId: "w1", toolName: "weather", input: toolCallInput },
    {
      type: "finish" as const,
      finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
      usage: usage(10, 5),
    },
  ],
  [
    { type: "stream-start" as const, warnings: [] },
    { type: "text-start" as const, id: "t" },
    { type: "text-delta" as const, id: "t", delta: "It is sunny " },
    { type: "text-delta" as const, id: "t", delta: "in Paris." },
    { type: "text-end" as const, id: "t" },
    { type: "finish" as const, finishReason: { unified: "stop" as const, raw: "stop" }, usage: usage(20, 7) },
  ],
];

function byHand<T>(parts: T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

function v3Model() {
  return new MockLanguageModelV3({
    doGenerate: generated as LanguageModelV3GenerateResult[],
    doStream: streamed.map((parts) => ({
      stream: simulateReadableStream({
        chunks: parts as LanguageModelV3StreamPart[],
        initialDelayInMs: null,
        chunkDelayInMs: null,
      }),
    })),
  });
}

function v4Model() {
  return new MockLanguageModelV4({
    doGenerate: generated as LanguageModelV4GenerateResult[],
    doStream: streamed.map((parts) => ({ stream: byHand(parts as LanguageModelV4StreamPart[]) })),
  });
}

type Mock = ReturnType<typeof v3Model> | ReturnType<typeof v4Model>;

function fixture(model: Mock) {
  const executed: unknown[] = [];
  const agent = createAgent({
    model,
    instructions: "Be brief.",
    tools: {
      weather: tool({
        description: "Weather in a city",
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }) => {
          executed.push(city);
          return { city, sky: "sunny" };
        },
      }),
    },
  });
  return { agent, executed };
}

const specs = [
  { spec: "V3", make: v3Model },
  { spec: "V4", make: v4Model },
] as const;

const cases = specs.flatMap(({ spec, make }) => SURFACES.map((surface) => ({ spec, surface, make })));

describe("AI SDK mock models drive the loop", () => {
  it.each(cases)("$spec model on $surface(): a tool call, then text", async ({ spec, surface, make }) => {
    const model = make();
    expect(model.specificationVersion).toBe(spec.toLowerCase());
    const { agent, executed } = fixture(model);
    const controller = new AbortController();
    const { result, events } = await runOn(surface, agent, "Weather in Paris?", {
      signal: controller.signal,
    });

    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("It is sunny in Paris.");
    expect(executed).toEqual(["Paris"]);

    // Only the surface's own method is used, once per step.
    const calls = surface === "run" ? model.doGenerateCalls : model.doStreamCalls;
    const unused = surface === "run" ? model.doStreamCalls : model.doGenerateCalls;
    expect(calls).toHaveLength(2);
    expect(unused).toHaveLength(0);

    // What the provider received: system + user, the tools as function tools, then the tool result.
    const first = calls[0]!;
    expect(first.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
    ]);
    expect(first.tools).toEqual([
      {
        type: "function",
        name: "weather",
        description: "Weather in a city",
        inputSchema: expect.objectContaining({ type: "object", required: ["city"] }),
      },
    ]);
    expect(first.toolChoice).toEqual({ type: "auto" });
    // The run's own signal, which follows the caller's, reaches the provider (a run without
    // one gives it none).
    expect(first.abortSignal).toBeInstanceOf(AbortSignal);
    expect(first.abortSignal!.aborted).toBe(false);
    expect(calls[1]!.prompt.slice(2)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool-call", toolCallId: "w1", toolName: "weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "w1",
            toolName: "weather",
            output: { type: "json", value: { city: "Paris", sky: "sunny" } },
          },
        ],
      },
    ]);

    expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"]);
    // The mock reports its cache use (none): the figures are there, as 0.
    expect(result.usage).toEqual({
      inputTokens: 30,
      outputTokens: 12,
      totalTokens: 42,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });

    if (surface === "stream") {
      const deltas = events.filter((event) => event.type === "text-delta");
      expect(deltas.map((event) => (event as { delta: string }).delta)).toEqual([
        "Check",
        "ing.",
        "It is sunny ",
        "in Paris.",
      ]);
      expect(events.find((event) => event.type === "tool-call")).toMatchObject({
        toolCallId: "w1",
        toolName: "weather",
        args: { city: "Paris" },
      });
    }
  });

  it.each(specs)("$spec: a stream error part fails the attempt like a thrown error", async ({ spec }) => {
    const parts = [
      { type: "stream-start" as const, warnings: [] },
      { type: "error" as const, error: new Error(`${spec} stream broke`) },
    ];
    const model =
      spec === "V3"
        ? new MockLanguageModelV3({ doStream: { stream: byHand(parts as LanguageModelV3StreamPart[]) } })
        : new MockLanguageModelV4({ doStream: { stream: byHand(parts as LanguageModelV4StreamPart[]) } });
    const { agent } = fixture(model);
    const { result } = await runOn("stream", agent, "hi");
    expect(result.outcome).toBe("error");
    expect(result.reason).toContain(`${spec} stream broke`);
  });

  it.each(specs)(
    "$spec: a retryable error part mid-stream is retried, and the broken stream is cancelled",
    async ({ spec }) => {
      let cancelled = false;
      const broken = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-delta", id: "t", delta: "partial " });
          controller.enqueue({
            type: "error",
            error: new APICallError({
              message: "overloaded",
              url: "mock://",
              requestBodyValues: {},
              statusCode: 529,
            }),
          });
          // The connection stays open, as a provider's would.
        },
        cancel() {
          cancelled = true;
        },
      });
      const recovered = byHand(streamed[1] as LanguageModelV3StreamPart[]);
      const model =
        spec === "V3"
          ? new MockLanguageModelV3({
              doStream: [{ stream: broken as never }, { stream: recovered as never }],
            })
          : new MockLanguageModelV4({
              doStream: [{ stream: broken as never }, { stream: recovered as never }],
            });
      const agent = createAgent({ model, retry: { initialDelayMs: 0 } });
      const { result } = await runOn("stream", agent, "hi");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("It is sunny in Paris.");
      expect(model.doStreamCalls).toHaveLength(2);
      expect(result.steps[0]!.attempts).toBe(2);
      expect(cancelled).toBe(true);
    },
  );

  it("rejects an object that is not a language model", () => {
    expect(() => createAgent({ model: { doGenerate() {} } as unknown as LanguageModel })).toThrow(
      /must be an AI SDK language model/,
    );
    expect(() =>
      createAgent({
        model: { specificationVersion: "v2", doGenerate() {}, doStream() {} } as unknown as LanguageModel,
      }),
    ).toThrow(/specificationVersion v3 or v4/);
  });
});
