import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runBoth, runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";

function fixture() {
  const model = scriptedModel([
    {
      reasoning: "I should add.",
      text: "Adding.",
      toolCalls: [{ id: "c1", name: "add", args: { a: 2, b: 3 } }],
      usage: { inputTokens: 10, outputTokens: 4 },
    },
    { text: "2 + 3 = 5", usage: { inputTokens: 20, outputTokens: 6 } },
  ]);
  const agent = createAgent({
    name: "calculator",
    model,
    instructions: "You add numbers.",
    temperature: 0.2,
    tools: {
      add: tool({
        description: "Adds two numbers",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => a + b,
      }),
    },
    hooks: [defineHook({ name: "audit", on: "tool_result", kind: "inspect", handler: () => undefined })],
  });
  return { agent, model };
}

describe("RunResult", () => {
  it.each(SURFACES)("%s: has every documented field", async (surface) => {
    const { agent } = fixture();
    const { result } = await runOn(surface, agent, "What is 2 + 3?", { sessionId: "session-7" });

    expect(Object.keys(result).sort()).toEqual(
      ["events", "messages", "outcome", "requests", "runId", "sessionId", "steps", "text", "usage"].sort(),
    );
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("2 + 3 = 5");
    expect(result.sessionId).toBe("session-7");
    expect(result.runId).toMatch(/^[0-9a-f-]{36}$/);

    expect(result.messages).toEqual([
      { role: "user", content: "What is 2 + 3?" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "I should add." },
          { type: "text", text: "Adding." },
          { type: "tool-call", toolCallId: "c1", toolName: "add", input: { a: 2, b: 3 } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "add", output: { type: "json", value: 5 } },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "2 + 3 = 5" }] },
    ]);

    expect(result.steps).toEqual([
      {
        index: 0,
        text: "Adding.",
        reasoning: "I should add.",
        toolCalls: [{ toolCallId: "c1", toolName: "add", args: { a: 2, b: 3 } }],
        toolResults: [
          {
            toolCallId: "c1",
            toolName: "add",
            qualifiedName: "add",
            args: { a: 2, b: 3 },
            result: 5,
            isError: false,
            executed: true,
          },
        ],
        finishReason: "tool-calls",
        usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 },
        attempts: 1,
      },
      {
        index: 1,
        text: "2 + 3 = 5",
        reasoning: "",
        toolCalls: [],
        toolResults: [],
        finishReason: "stop",
        usage: { inputTokens: 20, outputTokens: 6, totalTokens: 26 },
        attempts: 1,
      },
    ]);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 10, totalTokens: 40 });

    expect(result.requests).toHaveLength(2);
    const [first, second] = result.requests;
    expect(first).toMatchObject({
      step: 0,
      attempt: 1,
      system: "You add numbers.",
      toolChoice: "auto",
      temperature: 0.2,
    });
    expect(first!.tools).toEqual([
      {
        name: "add",
        description: "Adds two numbers",
        inputSchema: expect.objectContaining({ type: "object", required: ["a", "b"] }),
      },
    ]);
    // Each request is what that attempt sent: the first saw only the user message, even
    // though the transcript grew afterwards.
    expect(first!.messages).toEqual([{ role: "user", content: "What is 2 + 3?" }]);
    expect(second!.messages).toEqual(result.messages.slice(0, 3));
    expect(second).toMatchObject({ step: 1, attempt: 1 });
    // Requests share the transcript's immutable messages instead of copying them, so
    // recording every attempt stays linear in the run's length.
    second!.messages.forEach((message, index) => {
      expect(message).toBe(result.messages[index]);
    });
    expect(first!.messages[0]).toBe(result.messages[0]);

    expect(result.events).toEqual([
      { event: "tool_result", hook: "audit", kind: "inspect", effect: "observed" },
    ]);
  });

  it.each(SURFACES)("%s: the request's settings reach the provider", async (surface) => {
    const { agent, model } = fixture();
    await runOn(surface, agent, "What is 2 + 3?");
    expect(model.calls[0]).toMatchObject({ temperature: 0.2, toolChoice: { type: "auto" } });
    expect(model.calls[0]!.prompt[0]).toEqual({ role: "system", content: "You add numbers." });
  });

  it("is plain data: it survives a JSON round trip (what `hookwise run --json` prints)", async () => {
    const { agent } = fixture();
    const result = await agent.run("What is 2 + 3?");
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("says why and who when a hook terminates the run", async () => {
    const { run, stream } = await runBoth(() => {
      const model = scriptedModel([{ toolCalls: [{ id: "x", name: "wipe" }] }, { text: "never" }]);
      let wiped = false;
      const agent = createAgent({
        model,
        tools: {
          wipe: tool({
            inputSchema: z.object({}),
            execute: () => {
              wiped = true;
              return "wiped";
            },
          }),
        },
        hooks: [
          defineHook({
            name: "stopper",
            on: "tool_call",
            kind: "transform",
            handler: () => flow.terminate("no wiping today"),
          }),
        ],
      });
      return { agent, model, wiped: () => wiped };
    }, "wipe it");
    for (const { result, wiped, model } of [run, stream]) {
      expect(result.outcome).toBe("terminated");
      expect(result.reason).toBe("no wiping today");
      expect(result.hook).toBe("stopper");
      expect(wiped()).toBe(false);
      expect(model.calls).toHaveLength(1);
      // Nothing of the terminated batch is committed: no dangling tool call.
      expect(result.messages).toEqual([{ role: "user", content: "wipe it" }]);
      expect(result.events).toContainEqual({
        event: "tool_call",
        hook: "stopper",
        kind: "transform",
        effect: "terminate",
        toolCallId: expect.any(String),
        toolName: expect.any(String),
        detail: "no wiping today",
      });
    }
  });

  it.each(SURFACES)("%s: an error outcome carries reason and a plain error object", async (surface) => {
    const model = scriptedModel([{ error: { status: 401, message: "bad key" } }]);
    const { result } = await runOn(surface, createAgent({ model }), "hi");
    expect(result).toMatchObject({
      outcome: "error",
      text: "",
      // The reason names the provider, the model, the error class and the provider's words.
      reason: "model scripted:scripted failed: auth (HTTP 401): bad key",
      error: { name: "ModelError", message: "model scripted:scripted failed: auth (HTTP 401): bad key" },
    });
    expect(result.steps).toEqual([]);
    expect(result.requests).toHaveLength(1);
  });
});

describe("RunResult.events across runs of one agent", () => {
  it.each(SURFACES)(
    "%s: a shorter run after a longer one lists exactly its own firings (the room kept for the longer trace is not shown)",
    async (surface) => {
      const model = scriptedModel([
        { toolCalls: [{ id: "a", name: "noop", args: {} }] },
        { toolCalls: [{ id: "b", name: "noop", args: {} }] },
        { text: "long run done" },
        { text: "short run done" },
      ]);
      const agent = createAgent({
        model,
        tools: { noop: tool({ inputSchema: z.object({}), execute: () => "ok" }) },
        hooks: [
          defineHook({ name: "steps", on: "step_start", kind: "inspect", handler: () => undefined }),
          defineHook({ name: "calls", on: "tool_call", kind: "transform", handler: () => undefined }),
        ],
      });
      const long = await runOn(surface, agent, "long");
      const short = await runOn(surface, agent, "short");
      expect(long.result.events.map((entry) => entry.hook)).toEqual([
        "steps",
        "calls",
        "steps",
        "calls",
        "steps",
      ]);
      expect(short.result.events).toEqual([
        { event: "step_start", hook: "steps", kind: "inspect", effect: "observed" },
      ]);
      // Each run's list is its own: the second run did not write into the first's.
      expect(long.result.events).toHaveLength(5);
    },
  );
});

describe("RunResult.events with many no-op hooks (kept compactly while the run goes on)", () => {
  it.each(SURFACES)(
    "%s: every firing is listed in order, across runs whose hooks fire in different orders",
    async (surface) => {
      const fired: string[] = [];
      const noop = <E extends "tool_call" | "tool_result">(name: string, on: E, match?: string) =>
        defineHook({
          name,
          on,
          kind: "transform",
          ...(match ? { match } : {}),
          handler: () => {
            fired.push(name);
            return undefined;
          },
        });
      const model = scriptedModel([
        {
          toolCalls: [
            { id: "a", name: "read", args: {} },
            { id: "b", name: "write", args: {} },
          ],
        },
        { toolCalls: [{ id: "c", name: "write", args: {} }] },
        { text: "first run done" },
        { toolCalls: [{ id: "d", name: "read", args: {} }] },
        { text: "second run done" },
      ]);
      const agent = createAgent({
        model,
        tools: {
          read: tool({ inputSchema: z.object({}), execute: () => "r" }),
          write: tool({ inputSchema: z.object({}), execute: () => "w" }),
        },
        hooks: [
          noop("first", "tool_call"),
          // Fires for writes only: after "first" comes "only-writes" or "last".
          noop("only-writes", "tool_call", "write"),
          noop("last", "tool_call"),
          defineHook({
            name: "redact-writes",
            on: "tool_result",
            kind: "transform",
            match: "write",
            handler: () => {
              fired.push("redact-writes");
              return flow.rewriteResult("[redacted]");
            },
          }),
          noop("after-result", "tool_result"),
        ],
      });
      for (const input of ["one", "two"]) {
        fired.length = 0;
        const { result } = await runOn(surface, agent, input);
        expect(result.outcome).toBe("completed");
        expect(result.events.map((entry) => entry.hook)).toEqual(fired);
        for (const entry of result.events)
          expect(entry.effect).toBe(entry.hook === "redact-writes" ? "rewriteResult" : "continue");
      }
    },
  );
});
