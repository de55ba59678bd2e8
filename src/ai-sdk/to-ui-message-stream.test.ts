/**
 * A hookwise run read by the AI SDK's own UI message stream reader (AI SDK 6 and 7): text,
 * tool calls with their results, and each hook decision as a `data-hook` part. Every chunk
 * also passes each SDK's chunk schema, and carries only fields AI SDK 5's strict schema knows.
 */
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, defineHook, flow, policy, scriptedModel, tool } from "../index.js";
import {
  type HookwiseUIMessageChunk,
  toUIMessageStream,
  toUIMessageStreamResponse,
  UI_MESSAGE_STREAM_HEADERS,
} from "./index.js";

function weatherAgent(ran: string[]) {
  return createAgent({
    name: "forecaster",
    model: scriptedModel([
      {
        text: "Checking.",
        toolCalls: [
          { name: "weather", args: { city: "Paris" }, id: "w1" },
          { name: "wipe", args: {}, id: "x1" },
        ],
      },
      { text: "In Paris it is 14 °C." },
    ]),
    tools: {
      weather: tool({
        description: "Weather",
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }) => {
          ran.push(`weather ${city}`);
          return { city, celsius: 14 };
        },
      }),
      wipe: tool({
        description: "Wipe",
        inputSchema: z.object({}),
        execute: () => {
          ran.push("wipe");
          return "wiped";
        },
      }),
    },
    policies: [policy.deny("wipe", { reason: "destructive tools are off" })],
    hooks: [
      defineHook({
        name: "one-sentence",
        on: "model_request",
        kind: "transform",
        handler: () => flow.patch({ extraContext: ["Answer in one sentence."] }),
      }),
    ],
  });
}

/** AI SDK 5's chunk fields (its schema is strict: any other field is an error there). */
const AI_SDK_5_FIELDS: Record<string, readonly string[]> = {
  start: ["messageId", "messageMetadata"],
  "start-step": [],
  "finish-step": [],
  "text-start": ["id", "providerMetadata"],
  "text-delta": ["id", "delta", "providerMetadata"],
  "text-end": ["id", "providerMetadata"],
  "reasoning-start": ["id", "providerMetadata"],
  "reasoning-delta": ["id", "delta", "providerMetadata"],
  "reasoning-end": ["id", "providerMetadata"],
  "tool-input-available": [
    "toolCallId",
    "toolName",
    "input",
    "providerExecuted",
    "providerMetadata",
    "dynamic",
  ],
  "tool-output-available": ["toolCallId", "output", "providerExecuted", "dynamic", "preliminary"],
  "tool-output-error": ["toolCallId", "errorText", "providerExecuted", "dynamic"],
  error: ["errorText"],
  finish: ["messageMetadata"],
};

async function collect(stream: ReadableStream<HookwiseUIMessageChunk>): Promise<HookwiseUIMessageChunk[]> {
  const chunks: HookwiseUIMessageChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<HookwiseUIMessageChunk>) chunks.push(chunk);
  return chunks;
}

describe.each([
  ["AI SDK 6", ai6],
  ["AI SDK 7", ai7],
] as const)("toUIMessageStream read by %s", (_name, sdk) => {
  it("gives the text, the tool parts with results, the denial as an error part, and hook data parts", async () => {
    const ran: string[] = [];
    const live = weatherAgent(ran).stream("Weather in Paris?", { sessionId: "s1" });
    let last: ai6.UIMessage | undefined;
    const read = sdk.readUIMessageStream as typeof ai6.readUIMessageStream;
    for await (const message of read({
      stream: toUIMessageStream(live) as never,
      terminateOnError: true,
    })) {
      last = message as ai6.UIMessage;
    }
    const result = await live.result;
    expect(ran).toEqual(["weather Paris"]);
    expect(last!.id).toBe(result.runId);
    expect(last!.role).toBe("assistant");
    const texts = last!.parts
      .filter((part) => part.type === "text")
      .map((part) => (part as { text: string }).text);
    expect(texts).toEqual(["Checking.", "In Paris it is 14 °C."]);
    const tools = last!.parts.filter((part) => part.type.startsWith("tool-")) as Array<
      Record<string, unknown>
    >;
    expect(tools).toEqual([
      expect.objectContaining({
        type: "tool-weather",
        toolCallId: "w1",
        state: "output-available",
        input: { city: "Paris" },
        output: { city: "Paris", celsius: 14 },
      }),
      expect.objectContaining({
        type: "tool-wipe",
        toolCallId: "x1",
        state: "output-error",
        errorText: expect.stringContaining("destructive tools are off"),
      }),
    ]);
    const hooks = last!.parts
      .filter((part) => part.type === "data-hook")
      .map((part) => (part as { data: unknown }).data);
    expect(hooks).toContainEqual({
      event: "model_request",
      hook: "one-sentence",
      kind: "transform",
      effect: "patch",
      detail: { extraContext: ["Answer in one sentence."] },
    });
    expect(hooks).toContainEqual(
      expect.objectContaining({ event: "tool_call", effect: "deny", detail: "destructive tools are off" }),
    );
    expect(last!.parts).toContainEqual(
      expect.objectContaining({
        type: "data-outcome",
        data: expect.objectContaining({ outcome: "completed" }),
      }),
    );
    expect(last!.parts.filter((part) => part.type === "step-start")).toHaveLength(2);
  });

  it("every chunk passes the SDK's chunk schema", async () => {
    const chunks = await collect(toUIMessageStream(weatherAgent([]).stream("Weather?")));
    type Validator = { validate: (value: unknown) => Promise<{ success: boolean }> };
    const validator = (sdk.uiMessageChunkSchema as unknown as () => Validator)();
    // The schema does refuse a malformed chunk (so the check below means something).
    expect(await validator.validate({ type: "text-delta", delta: "x" })).toMatchObject({ success: false });
    for (const chunk of chunks) expect(await validator.validate(chunk)).toMatchObject({ success: true });
  });
});

describe("toUIMessageStream", () => {
  it("uses only fields AI SDK 5's strict chunk schema accepts", async () => {
    const chunks = await collect(toUIMessageStream(weatherAgent([]).stream("Weather?")));
    for (const chunk of chunks) {
      const { type, ...fields } = chunk;
      const allowed = type.startsWith("data-") ? ["id", "data", "transient"] : AI_SDK_5_FIELDS[type];
      expect(allowed, `chunk type ${type}`).toBeDefined();
      for (const field of Object.keys(fields)) expect(allowed, `${type}.${field}`).toContain(field);
    }
  });

  it("leaves out hook parts with hooks: false, and calls onFinish with the result", async () => {
    let finished: string | undefined;
    const chunks = await collect(
      toUIMessageStream(weatherAgent([]).stream("Weather?"), {
        hooks: false,
        messageId: "m-1",
        onFinish: (result) => {
          finished = result.outcome;
        },
      }),
    );
    expect(chunks.some((chunk) => chunk.type === "data-hook")).toBe(false);
    expect(chunks[0]).toEqual({ type: "start", messageId: "m-1" });
    expect(chunks.at(-1)).toEqual({ type: "finish" });
    expect(finished).toBe("completed");
  });

  it("ends a suspended run with its pending approvals, and a failed run with an error chunk", async () => {
    const asking = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: "pay", args: { amount: 5 }, id: "p1" }] }]),
      tools: {
        pay: tool({
          description: "Pay",
          inputSchema: z.object({ amount: z.number() }),
          execute: () => "paid",
        }),
      },
      policies: [policy.askUser("pay", { reason: "payments need a human" })],
    });
    const suspended = await collect(toUIMessageStream(asking.stream("pay")));
    expect(suspended).toContainEqual({
      type: "data-approval",
      id: expect.any(String),
      data: expect.objectContaining({
        toolName: "pay",
        args: { amount: 5 },
        reason: "payments need a human",
      }),
    });
    expect(suspended.some((chunk) => chunk.type === "error")).toBe(false);

    const failing = createAgent({ model: scriptedModel([]), maxRetries: 0 });
    const failed = await collect(toUIMessageStream(failing.stream("hi")));
    expect(failed.at(-2)).toEqual({ type: "error", errorText: expect.stringContaining("script") });
  });

  it("toUIMessageStreamResponse is SSE with the protocol header, ending in [DONE]", async () => {
    const response = toUIMessageStreamResponse(weatherAgent([]).stream("Weather?"), {
      headers: { "x-extra": "1" },
    });
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("content-type")).toBe(UI_MESSAGE_STREAM_HEADERS["content-type"]);
    expect(response.headers.get("x-extra")).toBe("1");
    const text = await response.text();
    const frames = text.split("\n\n").filter(Boolean);
    expect(frames.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(frames[0]!.slice("data: ".length))).toMatchObject({ type: "start" });
    // The AI SDK's own reader rebuilds the message from the frames.
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice("data: ".length)));
    const parsed = ai6.readUIMessageStream({
      stream: new ReadableStream<ai6.UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    });
    let last: ai6.UIMessage | undefined;
    for await (const message of parsed) last = message;
    expect(last!.parts.some((part) => part.type === "tool-weather")).toBe(true);
  });
});
