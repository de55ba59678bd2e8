/**
 * A whole run's result, every field, against the one it must be: ten steps of two tool calls
 * and a final answer, on both surfaces, with and without a hook watching the requests, and a
 * session's later runs (long histories). However the loop keeps its steps, requests and
 * histories while it runs, the result reads as this plain data.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import {
  type AnyHook,
  createAgent,
  defineHook,
  MemoryStore,
  type ModelMessage,
  type RunResult,
  type ScriptEntry,
  scriptedModel,
  tool,
} from "../index.js";

const STEPS = 10;
const INSTRUCTIONS = "You are a calculator. Use the tools.";
const INPUT = "Add some numbers and echo the results.";
const FINAL = "All sums are computed and every text is echoed.";

function callsAt(step: number) {
  return [
    { id: `call_${step}_0`, name: "add", args: { a: step, b: 2 } },
    { id: `call_${step}_1`, name: "echo", args: { text: `step ${step}` } },
  ] as const;
}

function script(): ScriptEntry[] {
  const steps: ScriptEntry[] = [];
  for (let step = 0; step < STEPS; step++)
    steps.push({
      toolCalls: callsAt(step).map((call) => ({ ...call, args: { ...call.args } })),
      usage: { inputTokens: 10 + step, outputTokens: 5 },
    });
  steps.push({ text: FINAL, usage: { inputTokens: 40, outputTokens: 7 } });
  return steps;
}

const TOOL_SPECS = [
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: expect.objectContaining({ type: "object", required: ["a", "b"] }),
  },
  {
    name: "echo",
    description: "Echoes a text.",
    inputSchema: expect.objectContaining({ type: "object", required: ["text"] }),
  },
];

function agentWith(hooks: AnyHook[], store = new MemoryStore(), runs = 1) {
  const steps: ScriptEntry[] = [];
  for (let run = 0; run < runs; run++) steps.push(...script());
  return createAgent({
    name: "calculator",
    model: scriptedModel(steps),
    instructions: INSTRUCTIONS,
    store,
    hooks,
    tools: {
      add: tool({
        description: "Adds two numbers.",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => a + b,
      }),
      echo: tool({
        description: "Echoes a text.",
        inputSchema: z.object({ text: z.string() }),
        execute: ({ text }) => ({ text }),
      }),
    },
  });
}

/** The transcript one run adds. */
function runMessages(): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "user", content: INPUT }];
  for (let step = 0; step < STEPS; step++) {
    const [add, echo] = callsAt(step);
    messages.push({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: add.id, toolName: "add", input: add.args },
        { type: "tool-call", toolCallId: echo.id, toolName: "echo", input: echo.args },
      ],
    });
    messages.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: add.id,
          toolName: "add",
          output: { type: "json", value: step + 2 },
        },
        {
          type: "tool-result",
          toolCallId: echo.id,
          toolName: "echo",
          output: { type: "json", value: { text: `step ${step}` } },
        },
      ],
    });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: FINAL }] });
  return messages;
}

/** The result a run must give, its session holding `before` runs already. */
function expected(before: number, events: unknown[]): Omit<RunResult, "runId" | "sessionId"> {
  const messages: ModelMessage[] = [];
  for (let run = 0; run <= before; run++) messages.push(...runMessages());
  const start = messages.length - runMessages().length;
  const steps = [];
  const requests = [];
  for (let step = 0; step <= STEPS; step++) {
    const final = step === STEPS;
    const calls = final ? [] : callsAt(step);
    steps.push({
      index: step,
      text: final ? FINAL : "",
      reasoning: "",
      toolCalls: calls.map((call) => ({ toolCallId: call.id, toolName: call.name, args: call.args })),
      toolResults: calls.map((call, index) => ({
        toolCallId: call.id,
        toolName: call.name,
        qualifiedName: call.name,
        args: call.args,
        result: index === 0 ? step + 2 : { text: `step ${step}` },
        isError: false,
        executed: true,
      })),
      finishReason: final ? "stop" : "tool-calls",
      usage: final
        ? { inputTokens: 40, outputTokens: 7, totalTokens: 47 }
        : { inputTokens: 10 + step, outputTokens: 5, totalTokens: 15 + step },
      attempts: 1,
    });
    requests.push({
      step,
      attempt: 1,
      system: INSTRUCTIONS,
      messages: messages.slice(0, start + 1 + 2 * step),
      tools: TOOL_SPECS,
      toolChoice: "auto",
      model: "scripted:scripted",
    });
  }
  const inputTokens = 40 + STEPS * 10 + (STEPS * (STEPS - 1)) / 2;
  const outputTokens = 7 + STEPS * 5;
  return {
    outcome: "completed",
    text: FINAL,
    messages,
    steps: steps as RunResult["steps"],
    requests: requests as unknown as RunResult["requests"],
    events: events as RunResult["events"],
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
}

function whole(result: RunResult) {
  const { runId, sessionId, ...rest } = result;
  expect(runId).toMatch(/^[0-9a-f-]{36}$/);
  expect(typeof sessionId).toBe("string");
  return rest;
}

const watcher = defineHook({ name: "watch", on: "model_request", kind: "inspect", handler: () => undefined });
const watched = Array.from({ length: STEPS + 1 }, () => ({
  event: "model_request",
  hook: "watch",
  kind: "inspect",
  effect: "observed",
}));

describe("a whole run's result", () => {
  it.each(SURFACES)("%s: ten steps of two calls, no hooks", async (surface) => {
    const { result } = await runOn(surface, agentWith([]), INPUT);
    expect(whole(result)).toStrictEqual(expected(0, []));
    // The same as plain data: what JSON, spreads and clones read.
    expect(JSON.parse(JSON.stringify(result))).toEqual(JSON.parse(JSON.stringify({ ...result })));
    expect(structuredClone(result)).toEqual(result);
  });

  it.each(SURFACES)("%s: with a hook watching every request", async (surface) => {
    const { result } = await runOn(surface, agentWith([watcher as AnyHook]), INPUT);
    expect(whole(result)).toStrictEqual(expected(0, watched));
  });

  it.each(SURFACES)("%s: a session's third run (histories past 64 messages)", async (surface) => {
    const agent = agentWith([], new MemoryStore(), 3);
    const first = await runOn(surface, agent, INPUT, { sessionId: "s" });
    const second = await runOn(surface, agent, INPUT, { sessionId: "s" });
    const third = await runOn(surface, agent, INPUT, { sessionId: "s" });
    expect(whole(third.result)).toStrictEqual(expected(2, []));
    // Read after the session's later runs: each still what it was when its run ended.
    expect(whole(second.result)).toStrictEqual(expected(1, []));
    expect(whole(first.result)).toStrictEqual(expected(0, []));
  });

  it("a result read only after its session's later runs on a store that lends its transcript", async () => {
    const store = new MemoryStore({ lendTranscripts: true });
    const agent = agentWith([], store, 2);
    const first = await agent.run(INPUT, { sessionId: "s" });
    await agent.run(INPUT, { sessionId: "s" });
    expect(whole(first)).toStrictEqual(expected(0, []));
  });

  it("makes the steps and requests when first read: one read settles both, then they are plain data", async () => {
    const result = await agentWith([]).run(INPUT);
    const before = Object.getOwnPropertyDescriptor(result, "steps")!;
    expect(before.get).toBeTypeOf("function");
    expect(Object.getOwnPropertyDescriptor(result, "requests")!.get).toBeTypeOf("function");
    const steps = result.steps;
    for (const key of ["steps", "requests"] as const) {
      const after = Object.getOwnPropertyDescriptor(result, key)!;
      expect(after.get).toBeUndefined();
      expect(after.writable && after.enumerable && after.configurable).toBe(true);
    }
    expect(result.steps).toBe(steps);
    expect(whole(result)).toStrictEqual(expected(0, []));
  });

  it("a result's steps assigned before they were read: the requests are still the run's", async () => {
    const result = await agentWith([]).run(INPUT);
    result.steps = [];
    expect(result.steps).toEqual([]);
    expect(result.requests).toStrictEqual(expected(0, []).requests);
  });
});
