/**
 * AI SDK tools as they are: `tool()` objects of AI SDK 6 and 7, every schema kind the AI SDK
 * accepts, its execution options, `needsApproval` and `toModelOutput`, on both surfaces.
 */
import { jsonSchema, tool as tool6 } from "ai";
import { tool as tool7 } from "ai-v7";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod-v3";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { withJsonSchema } from "../../test/support/valibot-json-schema.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { scriptedModel } from "../models/scripted-model.js";
import { MemoryStore } from "../state/memory-store.js";
import { type ToolExecutionOptions, tool } from "../tools/tool.js";
import { createAgent } from "./create-agent.js";

/** The tool results of a provider prompt (what the model was sent), in order. */
function promptToolOutputs(prompt: readonly { role: string; content: unknown }[]): unknown[] {
  const outputs: unknown[] = [];
  for (const message of prompt) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; output?: unknown }[])
      if (part.type === "tool-result") outputs.push(part.output);
  }
  return outputs;
}

const weatherSchema = withJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(2)) }), {
  type: "object",
  properties: { city: { type: "string", minLength: 2 } },
  required: ["city"],
  additionalProperties: false,
});

describe.each(SURFACES)("AI SDK tools on %s()", (surface) => {
  test("an AI SDK 7 tool() with a valibot schema runs; a needsApproval tool suspends and resumes", async () => {
    const ran: string[] = [];
    const store = new MemoryStore();
    const tools = {
      weather: tool7({
        description: "Weather of a city",
        inputSchema: weatherSchema,
        execute: async ({ city }) => {
          ran.push(`weather ${city}`);
          return { city, sky: "clear" };
        },
      }),
      deploy: tool7({
        description: "Deploy a service",
        inputSchema: z.object({ service: z.string() }),
        needsApproval: true,
        execute: async ({ service }) => {
          ran.push(`deploy ${service}`);
          return `deployed ${service}`;
        },
      }),
    };
    const model = scriptedModel([
      { toolCalls: [{ name: "weather", args: { city: "X" }, id: "w0" }] },
      {
        toolCalls: [
          { name: "weather", args: { city: "Paris" }, id: "w1" },
          { name: "deploy", args: { service: "api" }, id: "d1" },
        ],
      },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools, store });
    const { result } = await runOn(surface, agent, "go");
    expect(result.outcome).toBe("suspended");
    expect(result.approvals).toEqual([
      expect.objectContaining({
        toolName: "deploy",
        args: { service: "api" },
        reason: 'tool "deploy" needs approval',
      }),
    ]);
    // The valibot check refused "X" before the body; the approval-bound call has not run.
    expect(ran).toEqual(["weather Paris"]);
    const invalid = promptToolOutputs(model.calls[1]!.prompt as never)[0] as { value: string };
    expect(invalid.value).toMatch(/invalid arguments for "weather": city: .*/);

    const resumed =
      surface === "run"
        ? await agent.resume(result.runId, [{ id: result.approvals![0]!.id, approved: true }])
        : await (async () => {
            const live = agent.resumeStream(result.runId, [{ id: result.approvals![0]!.id, approved: true }]);
            for await (const _ of live);
            return live.result;
          })();
    expect(resumed.outcome).toBe("completed");
    expect(resumed.text).toBe("done");
    expect(ran).toEqual(["weather Paris", "deploy api"]);
  });

  test("a needsApproval function asks only for the calls it names; a throwing one fails closed", async () => {
    const ran: number[] = [];
    const tools = {
      pay: tool6({
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: async ({ amount }) => amount > 100,
        execute: async ({ amount }) => {
          ran.push(amount);
          return `paid ${amount}`;
        },
      }),
      broken: tool6({
        inputSchema: z.object({}),
        needsApproval: () => {
          throw new Error("no policy service");
        },
        execute: async () => {
          ran.push(-1);
          return "ran";
        },
      }),
    };
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "pay", args: { amount: 5 }, id: "p5" },
          { name: "broken", args: {}, id: "b" },
        ],
      },
      { toolCalls: [{ name: "pay", args: { amount: 500 }, id: "p500" }] },
    ]);
    const agent = createAgent({ model, tools, approvals: { handler: () => false } });
    const { result } = await runOn(surface, agent, "go");
    expect(ran).toEqual([5]);
    const texts = result.steps.flatMap((step) => step.toolResults.map((r) => String(r.result)));
    expect(texts[1]).toMatch(/needsApproval of tool "broken" threw: no policy service \(failed closed\)/);
    expect(texts[2]).toMatch(/was not approved/);
  });

  test("a needsApproval function answering anything but true or false fails closed", async () => {
    const ran: string[] = [];
    const answers: Record<string, unknown> = {
      yes: "yes",
      one: 1,
      object: { approved: true },
      none: undefined,
    };
    const tools = Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => [
        name,
        tool6({
          inputSchema: z.object({}),
          needsApproval: (async () => answer) as never,
          execute: async () => {
            ran.push(name);
            return "ran";
          },
        }),
      ]),
    );
    const model = scriptedModel([
      { toolCalls: Object.keys(answers).map((name) => ({ name, args: {}, id: name })) },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools, approvals: { handler: () => true } });
    const { result } = await runOn(surface, agent, "go");
    // Not run, and not sent for approval (which would approve it).
    expect(ran).toEqual([]);
    const texts = result.steps[0]!.toolResults.map((r) => String(r.result));
    expect(texts).toHaveLength(4);
    for (const [index, name] of Object.keys(answers).entries())
      expect(texts[index]).toMatch(
        new RegExp(`needsApproval of tool "${name}" answered .*, expected true or false \\(failed closed\\)`),
      );
  });

  test("toModelOutput maps the redacted result: the raw value never reaches the model", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "keys", args: {}, id: "k1" }] }, { text: "done" }]);
    const agent = createAgent({
      model,
      tools: {
        keys: tool6({
          inputSchema: z.object({}),
          execute: async () => ({ key: "sk-live-123" }),
          toModelOutput: ({ output }) => ({ type: "text", value: `the key is ${output.key}` }),
        }),
      },
      hooks: [
        defineHook({
          name: "redact-keys",
          on: "tool_result",
          kind: "transform",
          handler: ({ result }) =>
            flow.rewriteResult(JSON.parse(JSON.stringify(result).replace(/sk-live-\w+/g, "[redacted]"))),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "go");
    expect(result.outcome).toBe("completed");
    const sent = JSON.stringify(model.calls[1]!.prompt);
    expect(sent).not.toContain("sk-live-123");
    expect(sent).toContain("the key is [redacted]");
  });

  test("zod 3 and jsonSchema() with its validator, execution options and toModelOutput", async () => {
    const seen: { options: ToolExecutionOptions; messages: unknown[] }[] = [];
    const tools = {
      // hookwise's own tool(): this repository holds two copies of zod, and type-checking a
      // zod 3 schema against the AI SDK's tool() types built on the other copy exhausts the
      // type checker (in an app with one zod, AI SDK tool() takes zod 3 as well; at run time
      // the schema goes the same way whichever tool() wrapped it).
      add: tool({
        inputSchema: z3.object({ a: z3.number(), b: z3.number().default(1) }),
        execute: ({ a, b }, options) => {
          seen.push({ options: options as unknown as ToolExecutionOptions, messages: [...options.messages] });
          return a + b;
        },
      }),
      shout: tool6({
        inputSchema: jsonSchema<{ text: string }>(
          { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          {
            validate: (value) =>
              typeof (value as { text?: unknown }).text === "string" &&
              (value as { text: string }).text.length < 10
                ? { success: true, value: value as { text: string } }
                : { success: false, error: new Error("text must be shorter than 10 characters") },
          },
        ),
        execute: ({ text }) => ({ loud: text.toUpperCase() }),
        toModelOutput: ({ output }) => ({ type: "text", value: `LOUD: ${output.loud}` }),
      }),
    };
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "add", args: { a: 2 }, id: "a1" },
          { name: "shout", args: { text: "hi" }, id: "s1" },
          { name: "shout", args: { text: "far too long a text" }, id: "s2" },
        ],
      },
      { text: "ok" },
    ]);
    const agent = createAgent({ model, tools });
    const { result } = await runOn(surface, agent, "add and shout");
    expect(result.steps[0]!.toolResults.map((r) => r.result)).toEqual([
      3,
      { loud: "HI" },
      'invalid arguments for "shout": text must be shorter than 10 characters',
    ]);
    expect(promptToolOutputs(model.calls[1]!.prompt as never)).toEqual([
      { type: "json", value: 3 },
      { type: "text", value: "LOUD: HI" },
      { type: "error-text", value: 'invalid arguments for "shout": text must be shorter than 10 characters' },
    ]);
    const { options, messages } = seen[0]!;
    expect(options.toolCallId).toBe("a1");
    expect(options.abortSignal).toBeInstanceOf(AbortSignal);
    expect(options.abortSignal).toBe(options.signal);
    expect(messages).toEqual([{ role: "user", content: "add and shout" }]);
  });
});

test("a Standard Schema without a JSON Schema converter is refused with what to do", () => {
  expect(() =>
    createAgent({
      model: scriptedModel([]),
      tools: { weather: tool7({ inputSchema: v.object({ city: v.string() }), execute: async () => "" }) },
    }),
  ).toThrow(/tool "weather": its valibot schema cannot be converted to the JSON Schema the model needs/);
});

test("an AI SDK 7 description function is what the model is told; a toModelOutput of the wrong shape is the call's error", async () => {
  const model = scriptedModel([
    { toolCalls: [{ name: "lookup", args: { q: "x" }, id: "l1" }] },
    { text: "ok" },
  ]);
  const agent = createAgent({
    model,
    tools: {
      lookup: tool7({
        description: () => "Looks a word up",
        inputSchema: z.object({ q: z.string() }),
        execute: async ({ q }) => ({ q }),
        toModelOutput: () => ({ type: "shout", value: 1 }) as never,
      }),
    },
  });
  const result = await agent.run("look x up");
  const sent = model.calls[0]!.tools as { name: string; description?: string }[];
  expect(sent.find((spec) => spec.name === "lookup")?.description).toBe("Looks a word up");
  expect(result.steps[0]!.toolResults[0]!.isError).toBe(true);
  expect(String(result.steps[0]!.toolResults[0]!.result)).toMatch(
    /tool "lookup" failed: its toModelOutput returned \{"type":"shout","value":1\}; expected \{ type, value \}/,
  );
});

test("a tool without execute (one the AI SDK's client would run) is refused when the agent is created", () => {
  expect(() =>
    createAgent({
      model: scriptedModel([]),
      tools: { pick: tool6({ inputSchema: z.object({ color: z.string() }) }) },
    }),
  ).toThrow(/tool "pick": expected an object with an execute function/);
});
