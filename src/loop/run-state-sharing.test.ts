/**
 * A run in flight shares what it only reads with the agent's other runs (its lineage, its
 * surface) and makes its lists at their first write (the trace, the archive). Nothing of
 * one run may show up in another's: each result owns its lists, on both surfaces.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";

function agentFor(steps: number, hooks = false, compactAt = 1) {
  const script = Array.from({ length: steps }, (_, step) => [
    { toolCalls: [{ id: `c${step}`, name: "add", args: { a: step, b: 1 } }] },
  ]).flat();
  const model = scriptedModel([...script, { text: "done" }, ...script, { text: "done again" }]);
  const seen: (readonly string[])[] = [];
  const agent = createAgent({
    name: "sharer",
    model,
    tools: {
      add: tool({
        description: "Adds",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => a + b,
      }),
    },
    hooks: hooks
      ? [
          defineHook({
            name: "lineage",
            on: "tool_call",
            kind: "inspect",
            handler: (event) => {
              seen.push(event.agentPath);
            },
          }),
          defineHook({
            name: "compact",
            on: "step_start",
            kind: "transform",
            handler: (event, ctx) =>
              event.step === compactAt && ctx.messages.length > 2
                ? flow.compact({
                    remove: ctx.messages.slice(1, 3),
                    replacement: [{ role: "user", content: "(earlier steps)" }],
                  })
                : undefined,
          }),
        ]
      : [],
  });
  return { agent, seen };
}

describe.each(SURFACES)("what runs share and what they own (%s)", (surface) => {
  it("two runs without hooks each get their own empty trace and their own lists", async () => {
    const { agent } = agentFor(2);
    const first = (await runOn(surface, agent, "one")).result;
    const second = (await runOn(surface, agent, "two")).result;
    expect(first.outcome).toBe("completed");
    expect(second.outcome).toBe("completed");
    expect(first.events).toEqual([]);
    expect(second.events).toEqual([]);
    // Writing to one result's lists never reaches the other's.
    first.events.push({} as never);
    first.steps.push({} as never);
    first.requests.push({} as never);
    expect(second.events).toEqual([]);
    expect(second.steps).toHaveLength(3);
    expect(second.requests).toHaveLength(3);
    expect(first.events).not.toBe(second.events);
  });

  it("hooks see the agent's lineage on every run, and a compaction archives what it removed", async () => {
    const { agent, seen } = agentFor(2, true);
    const first = (await runOn(surface, agent, "one", { sessionId: `s-${surface}` })).result;
    const second = (await runOn(surface, agent, "two")).result;
    expect([first.outcome, first.reason, second.outcome, second.reason]).toEqual([
      "completed",
      undefined,
      "completed",
      undefined,
    ]);
    expect(seen.length).toBe(4);
    for (const path of seen) expect(path).toEqual(["sharer"]);
    expect(first.events.filter((entry) => entry.hook === "lineage")).toHaveLength(2);
    expect(second.events.filter((entry) => entry.hook === "lineage")).toHaveLength(2);
    // The first step's messages were compacted into one: the transcript carries the replacement.
    expect(first.messages.some((message) => message.content === "(earlier steps)")).toBe(true);
    const session = await agent.runtime.store.loadSession(`s-${surface}`);
    expect(session?.archived?.length).toBe(2);
  });

  it("each step record lists its calls and results exactly, a denied call's too", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "a", name: "add", args: { a: 1, b: 2 } },
          { id: "d", name: "add", args: { a: 9, b: 9 } },
        ],
      },
      { text: "three", usage: { inputTokens: 4, outputTokens: 2 } },
    ]);
    const agent = createAgent({
      model,
      tools: {
        add: tool({
          description: "Adds",
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }) => a + b,
        }),
      },
      hooks: [
        defineHook({
          name: "no-nines",
          on: "tool_call",
          kind: "decide",
          handler: (event) => ((event.args as { a: number }).a === 9 ? flow.deny("no nines") : undefined),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "add");
    expect(result.steps).toHaveLength(2);
    const [first, last] = result.steps;
    expect(first!.toolCalls).toStrictEqual([
      { toolCallId: "a", toolName: "add", args: { a: 1, b: 2 } },
      { toolCallId: "d", toolName: "add", args: { a: 9, b: 9 } },
    ]);
    expect(first!.toolResults).toHaveLength(2);
    expect(first!.toolResults[0]).toStrictEqual({
      toolCallId: "a",
      toolName: "add",
      qualifiedName: "add",
      args: { a: 1, b: 2 },
      result: 3,
      isError: false,
      executed: true,
    });
    expect(first!.toolResults[1]).toMatchObject({ toolCallId: "d", isError: true, executed: false });
    expect(Object.keys(first!.toolResults[1]!)).not.toContain("replayed");
    expect(last!.toolCalls).toStrictEqual([]);
    expect(last!.toolResults).toStrictEqual([]);
    // Each step owns its lists.
    last!.toolCalls.push({} as never);
    expect(first!.toolCalls).toHaveLength(2);
    expect(result.steps[1]!.usage).toMatchObject({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
  });

  it("each request records the history it sent, as it was then", async () => {
    const { agent } = agentFor(3);
    const { result } = await runOn(surface, agent, "count");
    expect(result.requests.map((request) => request.messages.length)).toEqual([1, 3, 5, 7]);
    for (const request of result.requests)
      expect(request.messages).toStrictEqual(result.messages.slice(0, request.messages.length));
    expect(new Set(result.requests.map((request) => request.messages)).size).toBe(4);
  });

  it("a request's history stays what it sent when a later hook compacts the transcript", async () => {
    const { agent } = agentFor(3, true, 2);
    const { result } = await runOn(surface, agent, "count", { sessionId: `c-${surface}` });
    expect(result.outcome).toBe("completed");
    const [first, second, third] = result.requests;
    expect(first!.messages).toHaveLength(1);
    // Sent before the compaction at step 2: the first step's call and result, as they were.
    expect(second!.messages).toHaveLength(3);
    expect(second!.messages[1]).toMatchObject({ role: "assistant" });
    expect(second!.messages[2]).toMatchObject({ role: "tool" });
    // Sent after it: the replacement where those two were.
    expect(third!.messages[1]).toMatchObject({ role: "user", content: "(earlier steps)" });
  });
});

/**
 * A run no hook or span watches keeps its steps compact while it goes on (step-slots.ts);
 * the same run watched by a hook keeps them as they are. Both results must read the same,
 * field for field and in the same order.
 */
describe.each(SURFACES)("a step kept compact reads as one kept whole (%s)", (surface) => {
  function agentWith(watched: boolean) {
    const model = scriptedModel([
      {
        text: "first",
        toolCalls: [
          { id: "a", name: "add", args: { a: 1, b: 2 } },
          { id: "b", name: "add", args: { a: 3, b: 4 } },
        ],
        usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 },
      },
      { error: { status: 503 } },
      {
        toolCalls: [{ id: "c", name: "add", args: { a: 5, b: 6 } }],
        usage: { inputTokens: 9, outputTokens: 3 },
      },
      { reasoning: "done thinking", text: "all added", usage: { inputTokens: 12, outputTokens: 4 } },
    ]);
    return createAgent({
      name: "compact",
      model,
      instructions: "Add.",
      temperature: 0.3,
      maxOutputTokens: 100,
      retry: { initialDelayMs: 0 },
      tools: {
        add: tool({
          description: "Adds",
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }) => a + b,
        }),
      },
      hooks: watched
        ? [defineHook({ name: "watch", on: "model_response", kind: "inspect", handler: () => undefined })]
        : [],
    });
  }

  it("steps, their usage and the requests with their histories", async () => {
    const plain = (await runOn(surface, agentWith(false), "add")).result;
    const watched = (await runOn(surface, agentWith(true), "add")).result;
    expect(plain.outcome).toBe("completed");
    expect(plain.requests).toHaveLength(4);
    expect(plain.requests.map((request) => request.attempt)).toEqual([1, 1, 2, 1]);
    expect(JSON.stringify(plain.steps)).toBe(JSON.stringify(watched.steps));
    expect(JSON.stringify(plain.requests)).toBe(JSON.stringify(watched.requests));
    expect(JSON.stringify(plain.usage)).toBe(JSON.stringify(watched.usage));
    expect(plain.steps[0]!.usage).toStrictEqual({
      inputTokens: 5,
      outputTokens: 2,
      totalTokens: 7,
      cacheReadTokens: 1,
      cacheWriteTokens: 0,
    });
    expect(plain.requests[3]).toMatchObject({ temperature: 0.3, maxOutputTokens: 100, step: 2 });
    for (const request of plain.requests)
      expect(request.messages).toStrictEqual(plain.messages.slice(0, request.messages.length));
    expect(new Set(plain.requests.map((request) => request.messages)).size).toBe(4);
  });

  it("a request that fails the run keeps the history it sent", async () => {
    const failing = () =>
      createAgent({
        name: "failing",
        model: scriptedModel([
          { toolCalls: [{ id: "a", name: "echo", args: { text: "x" } }] },
          { error: { status: 400, message: "bad request" } },
        ]),
        tools: { echo: tool({ inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }) },
      });
    const { result } = await runOn(surface, failing(), "go");
    expect(result.outcome).toBe("error");
    expect(result.requests.map((request) => request.messages.length)).toEqual([1, 3]);
    for (const request of result.requests) {
      expect(request.messages).toStrictEqual(result.messages.slice(0, request.messages.length));
      expect(request.messages).not.toBe(result.messages);
    }
  });
});
