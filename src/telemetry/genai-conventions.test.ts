/**
 * Spans read by the GenAI semantic conventions' own names: a model call is a CLIENT span
 * with its operation, provider, model and usage; recorded messages are `role` + `parts`;
 * hookwise's internal recording hooks are never exported; a run resumed after a suspension
 * links to the span of the part that suspended.
 */
import { SpanKind, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { createAgent, MemoryStore, policy, scriptedModel, tool } from "../index.js";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
});

afterEach(async () => {
  trace.disable();
  await provider.shutdown();
});

const paid: number[] = [];
const pay = tool({
  description: "pays",
  inputSchema: z.object({ amount: z.number() }),
  execute: ({ amount }) => {
    paid.push(amount);
    return `paid ${amount}`;
  },
});
const look = tool({
  description: "looks",
  inputSchema: z.object({}),
  execute: () => "balance 120",
});

function agent(store = new MemoryStore()) {
  return createAgent({
    name: "teller",
    instructions: "Be brief.",
    model: scriptedModel([
      {
        text: "Checking.",
        toolCalls: [
          { name: "look", args: {}, id: "l1" },
          { name: "pay", args: { amount: 5 }, id: "p1" },
        ],
      },
      { text: "Paid." },
    ]),
    tools: { look, pay },
    policies: [policy.askUser("pay")],
    store,
    recordRuns: true,
    telemetry: { recordInputs: true, recordOutputs: true },
  });
}

const chats = (spans: readonly ReadableSpan[]) =>
  spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");

describe("telemetry to the GenAI conventions", () => {
  test("a model call is a CLIENT span with operation, provider, model and usage", async () => {
    await agent().run("pay 5");
    const [chat] = chats(exporter.getFinishedSpans());
    expect(chat!.kind).toBe(SpanKind.CLIENT);
    expect(chat!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": expect.any(String),
      "gen_ai.request.model": expect.any(String),
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
  });

  test("recorded messages are role + parts, an output with its finish reason", async () => {
    const store = new MemoryStore();
    const suspended = await agent(store).run("pay 5");
    await agent(store).resume(suspended.runId, [{ id: suspended.approvals![0]!.id, approved: true }]);
    const [first, second] = chats(exporter.getFinishedSpans());
    expect(JSON.parse(String(first!.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "Be brief." },
    ]);
    expect(JSON.parse(String(first!.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "pay 5" }] },
    ]);
    expect(JSON.parse(String(first!.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "text", content: "Checking." },
          { type: "tool_call", id: "l1", name: "look", arguments: {} },
          { type: "tool_call", id: "p1", name: "pay", arguments: { amount: 5 } },
        ],
        finish_reason: "tool_call",
      },
    ]);
    const input = JSON.parse(String(second!.attributes["gen_ai.input.messages"])) as {
      role: string;
      parts: { type: string; id?: string; response?: unknown }[];
    }[];
    for (const message of input) expect(message.parts.length).toBeGreaterThan(0);
    expect(input.at(-1)).toEqual({
      role: "tool",
      parts: [
        { type: "tool_call_response", id: "l1", response: "balance 120" },
        { type: "tool_call_response", id: "p1", response: "paid 5" },
      ],
    });
  });

  test("a recorded run exports no span of hookwise's own recording hooks", async () => {
    await agent().run("pay 5");
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names.some((name) => name.startsWith("hookwise.hook policy"))).toBe(true);
    expect(names.filter((name) => name.includes("hookwise:record"))).toEqual([]);
  });

  test("a resumed run's span links to the span of the run that suspended", async () => {
    const store = new MemoryStore();
    const suspended = await agent(store).run("pay 5");
    expect(suspended.outcome).toBe("suspended");
    await agent(store).resume(suspended.runId, [{ id: suspended.approvals![0]!.id, approved: true }]);
    const runs = exporter.getFinishedSpans().filter((span) => span.name === "invoke_agent teller");
    expect(runs).toHaveLength(2);
    const [first, resumed] = runs as [ReadableSpan, ReadableSpan];
    expect(resumed.attributes["hookwise.run.resumed"]).toBe(true);
    expect(resumed.links.map((link) => link.context)).toEqual([
      expect.objectContaining({
        traceId: first.spanContext().traceId,
        spanId: first.spanContext().spanId,
      }),
    ]);
  });
});
