import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runBoth, runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, type ScriptStep, scriptedModel, tool } from "../../index.js";

/** The output of the tool result for `toolCallId` in a transcript or a provider prompt. */
function toolResultOutput(messages: readonly { role: string; content: unknown }[], toolCallId: string) {
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content as { toolCallId: string; output: unknown }[]) {
      if (part.toolCallId === toolCallId) return part.output as { type: string; value: unknown };
    }
  }
  return undefined;
}

function zodFixture(script: ScriptStep[]) {
  const counter = { executed: 0 };
  const model = scriptedModel(script);
  const agent = createAgent({
    model,
    tools: {
      add: tool({
        description: "Adds two numbers",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => {
          counter.executed++;
          return a + b;
        },
      }),
    },
  });
  return { agent, model, counter };
}

function jsonSchemaFixture(script: ScriptStep[]) {
  const counter = { executed: 0 };
  const model = scriptedModel(script);
  const agent = createAgent({
    model,
    tools: {
      weather: {
        description: "Weather in a city",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string", minLength: 1 } },
          required: ["city"],
          additionalProperties: false,
        },
        execute: (args: { city: string }) => {
          counter.executed++;
          return { city: args.city, sky: "clear" };
        },
      },
    },
  });
  return { agent, model, counter };
}

describe("tool arguments are validated before execute", () => {
  it.each(SURFACES)(
    "%s: a zod tool with invalid args never executes; the model gets the error",
    async (surface) => {
      const { agent, model, counter } = zodFixture([
        { toolCalls: [{ id: "c1", name: "add", args: { a: "one", b: 2 } }] },
        { text: "sorry" },
      ]);
      const { result } = await runOn(surface, agent, "add");

      expect(counter.executed).toBe(0);
      expect(result.outcome).toBe("completed");
      const output = toolResultOutput(result.messages, "c1");
      expect(output?.type).toBe("error-text");
      expect(String(output?.value)).toMatch(/invalid arguments for "add": a: /);
      // The second model call really carried the validation error.
      expect(String(toolResultOutput(model.calls[1]!.prompt, "c1")?.value)).toContain(
        'invalid arguments for "add"',
      );
      const record = result.steps[0]!.toolResults[0]!;
      expect(record).toMatchObject({ toolCallId: "c1", isError: true, executed: false });
    },
  );

  it.each(SURFACES)("%s: a zod tool with valid args executes with the parsed args", async (surface) => {
    const { agent, counter } = zodFixture([
      { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
      { text: "3" },
    ]);
    const { result } = await runOn(surface, agent, "add");
    expect(counter.executed).toBe(1);
    expect(toolResultOutput(result.messages, "c1")).toEqual({ type: "json", value: 3 });
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ result: 3, isError: false, executed: true });
  });

  it.each(SURFACES)("%s: a plain JSON Schema tool with invalid args never executes", async (surface) => {
    const { agent, model, counter } = jsonSchemaFixture([
      { toolCalls: [{ id: "w1", name: "weather", args: { town: "Paris" } }] },
      { toolCalls: [{ id: "w2", name: "weather", args: { city: "" } }] },
      { text: "gave up" },
    ]);
    const { result } = await runOn(surface, agent, "weather");

    expect(counter.executed).toBe(0);
    expect(result.outcome).toBe("completed");
    const first = toolResultOutput(result.messages, "w1");
    const second = toolResultOutput(result.messages, "w2");
    expect(first?.type).toBe("error-text");
    expect(String(first?.value)).toContain('invalid arguments for "weather"');
    expect(second?.type).toBe("error-text");
    expect(String(toolResultOutput(model.calls[2]!.prompt, "w2")?.value)).toContain("invalid arguments");
  });

  it.each(SURFACES)("%s: a plain JSON Schema tool with valid args executes", async (surface) => {
    const { agent, counter } = jsonSchemaFixture([
      { toolCalls: [{ id: "w1", name: "weather", args: { city: "Paris" } }] },
      { text: "clear" },
    ]);
    const { result } = await runOn(surface, agent, "weather");
    expect(counter.executed).toBe(1);
    expect(toolResultOutput(result.messages, "w1")).toEqual({
      type: "json",
      value: { city: "Paris", sky: "clear" },
    });
  });

  it("an unknown tool name gets an error result listing the available tools, on both surfaces", async () => {
    const both = await runBoth(
      () =>
        zodFixture([{ toolCalls: [{ id: "u1", name: "multiply", args: { a: 1, b: 2 } }] }, { text: "ok" }]),
      "multiply",
    );
    for (const { result, model, counter } of [both.run, both.stream]) {
      expect(counter.executed).toBe(0);
      expect(result.outcome).toBe("completed");
      const output = toolResultOutput(result.messages, "u1");
      expect(output?.type).toBe("error-text");
      expect(String(output?.value)).toContain('unknown tool "multiply"');
      expect(String(output?.value)).toContain("available tools: add");
      expect(String(toolResultOutput(model.calls[1]!.prompt, "u1")?.value)).toContain("available tools: add");
    }
  });

  it.each(SURFACES)("%s: one invalid call does not stop its valid sibling", async (surface) => {
    const { agent, counter } = zodFixture([
      {
        toolCalls: [
          { id: "bad", name: "add", args: { a: 1 } },
          { id: "good", name: "add", args: { a: 1, b: 1 } },
        ],
      },
      { text: "ok" },
    ]);
    const { result } = await runOn(surface, agent, "add");
    expect(counter.executed).toBe(1);
    expect(toolResultOutput(result.messages, "bad")?.type).toBe("error-text");
    expect(toolResultOutput(result.messages, "good")).toEqual({ type: "json", value: 2 });
  });

  it.each(SURFACES)("%s: arguments that are not JSON never reach execute", async (surface) => {
    const counter = { executed: 0 };
    const finish = { unified: "tool-calls" as const, raw: "tool_calls" };
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const broken = { type: "tool-call" as const, toolCallId: "j1", toolName: "add", input: '{"a": 1, "b":' };
    const done = { type: "text" as const, text: "ok" };
    const model = new MockLanguageModelV3({
      doGenerate: [
        { content: [broken], finishReason: finish, usage, warnings: [] },
        { content: [done], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
      ],
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [broken, { type: "finish", finishReason: finish, usage }],
          }),
        },
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "text-delta", id: "t", delta: "ok" },
              { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
            ],
          }),
        },
      ] as never,
    });
    const agent = createAgent({
      model,
      tools: {
        add: tool({
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }) => {
            counter.executed++;
            return a + b;
          },
        }),
      },
    });
    const { result } = await runOn(surface, agent, "add");
    expect(counter.executed).toBe(0);
    expect(result.outcome).toBe("completed");
    const output = toolResultOutput(result.messages, "j1");
    expect(output?.type).toBe("error-text");
    expect(String(output?.value)).toContain("not valid JSON");
  });
});
