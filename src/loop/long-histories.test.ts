/**
 * A long history (a result's transcript, a request's) is a view of the transcript until it
 * is read: a run of a long session copies none of it. Read, it is what a copy made when the
 * run ended would hold, also after the transcript is edited in place later.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import type { ModelMessage } from "../events/payloads.js";
import { createAgent, defineHook, flow, MemoryStore, scriptedModel, tool } from "../index.js";

/** A transcript of `runs` earlier question-and-answer runs. */
function earlier(runs: number): ModelMessage[] {
  return Array.from({ length: runs }, (_, index): ModelMessage[] => [
    { role: "user", content: `question ${index}` },
    { role: "assistant", content: [{ type: "text", text: `answer ${index}` }] },
  ]).flat();
}

const add = tool({
  description: "Adds two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** A tool step, then the answer: two requests. */
function script() {
  return scriptedModel([
    { text: "", toolCalls: [{ id: "c1", name: "add", args: { a: 2, b: 3 } }] },
    { text: "5" },
  ]);
}

/** Whether `object[key]` is still a view (an accessor not read yet). */
function isView(object: object, key: string): boolean {
  return typeof Object.getOwnPropertyDescriptor(object, key)?.get === "function";
}

describe("a long history is a view until read", () => {
  it.each(SURFACES)(
    "%s: the result's transcript and each request's history, as copies would read",
    async (surface) => {
      const before = earlier(50);
      const agent = createAgent({ model: script(), tools: { add } });
      const { result } = await runOn(surface, agent, "2 + 3?", { messages: before });

      expect(isView(result, "messages")).toBe(true);
      expect(result.requests.map((request) => isView(request, "messages"))).toEqual([true, true]);

      const question = { role: "user", content: "2 + 3?" };
      expect(result.requests[0]!.messages).toEqual([...before, question]);
      expect(result.requests[1]!.messages).toEqual(result.messages.slice(0, 103));
      expect(result.messages).toHaveLength(104);
      expect(result.messages.slice(0, 101)).toEqual([...before, question]);
      expect(result.messages[103]).toEqual({ role: "assistant", content: [{ type: "text", text: "5" }] });
      // Read once, a plain property again: the same list each read, and assignable.
      expect(isView(result, "messages")).toBe(false);
      expect(result.messages).toBe(result.messages);
    },
  );

  it("serialises, spreads and clones as a copy would", async () => {
    const before = earlier(40);
    const agent = createAgent({ model: script(), tools: { add } });
    const result = await agent.run("2 + 3?", { messages: before });
    const copies = [
      JSON.parse(JSON.stringify(result)),
      structuredClone({ ...result, events: [] }),
      { ...result, requests: result.requests.map((request) => ({ ...request })) },
    ];
    for (const copy of copies) {
      expect(copy.messages).toHaveLength(84);
      expect(copy.requests[0].messages).toHaveLength(81);
      expect(copy.requests[1].messages).toHaveLength(83);
    }
    expect(Object.keys(result)).toContain("messages");
    expect(Object.keys(result.requests[1]!).indexOf("messages")).toBe(3);
  });

  it("a recorded run (a model_error hook of its own) copies no history per request either", async () => {
    const agent = createAgent({
      model: script(),
      tools: { add },
      store: new MemoryStore(),
      recordRuns: true,
    });
    const result = await agent.run("2 + 3?", { messages: earlier(50), sessionId: "s" });
    expect(result.requests.map((request) => isView(request, "messages"))).toEqual([true, true]);
    expect(result.requests[1]!.messages).toHaveLength(103);
  });

  it("a request's history stays the transcript it sent when a later step edits the transcript in place", async () => {
    const before = earlier(40);
    let edited = false;
    const agent = createAgent({
      model: script(),
      tools: { add },
      hooks: [
        defineHook({
          name: "forget-the-first",
          on: "step_start",
          kind: "transform",
          handler: (_event, ctx) => {
            if (ctx.step !== 1) return;
            edited = true;
            return flow.replaceMessages(ctx.messages[0]!, { role: "user", content: "forgotten" });
          },
        }),
      ],
    });
    const result = await agent.run("2 + 3?", { messages: before });
    expect(edited).toBe(true);
    expect(result.requests[0]!.messages[0]).toEqual({ role: "user", content: "question 0" });
    expect(result.requests[0]!.messages).toHaveLength(81);
    expect(result.requests[1]!.messages[0]).toEqual({ role: "user", content: "forgotten" });
    expect(result.messages[0]).toEqual({ role: "user", content: "forgotten" });
  });

  it("a result read after the next run of its session (a store lending the transcript) compacted it", async () => {
    const store = new MemoryStore({ lendTranscripts: true });
    const agent = createAgent({
      model: scriptedModel([{ text: "first answer" }, { text: "second answer" }]),
      store,
      hooks: [
        defineHook({
          name: "compactor",
          on: "run_start",
          kind: "transform",
          handler: (event, ctx) =>
            event.input === "second"
              ? flow.compact({
                  remove: ctx.messages.slice(0, -2),
                  reason: "test",
                  replacement: () => [{ role: "user", content: "summary" }],
                })
              : undefined,
        }),
      ],
    });
    const before = earlier(40);
    const first = await agent.run("first", { sessionId: "s", messages: before });
    const second = await agent.run("second", { sessionId: "s" });
    expect(second.messages[0]).toEqual({ role: "user", content: "summary" });
    expect(first.messages).toEqual([
      ...before,
      { role: "user", content: "first" },
      { role: "assistant", content: [{ type: "text", text: "first answer" }] },
    ]);
    expect(first.requests[0]!.messages).toEqual([...before, { role: "user", content: "first" }]);
  });
});
