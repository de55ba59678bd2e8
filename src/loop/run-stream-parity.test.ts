import { describe, expect, it } from "vitest";
import { z } from "zod";
import { comparable, runBoth } from "../../test/support/surfaces.js";
import {
  type AgentEvent,
  createAgent,
  defineHook,
  flow,
  type RunResult,
  type ScriptStep,
  scriptedModel,
  tool,
} from "../index.js";

/** A run with reasoning, text, a rewritten call, a denied call, an invalid call and two steps. */
function fixture() {
  const executed: unknown[] = [];
  const model = scriptedModel([
    {
      reasoning: "The user wants two sums and a file.",
      text: "Let me add those numbers for you.",
      toolCalls: [
        { id: "a1", name: "add", args: { a: 1, b: 2 } },
        { id: "a2", name: "add", args: { a: 3, b: "four" } },
        { id: "d1", name: "delete_file", args: { path: "/etc/passwd" } },
      ],
    },
    { toolCalls: [{ id: "a3", name: "add", args: { a: 5, b: 5 } }] },
    { text: "The sums are three and ten, and I may not delete files." },
  ]);
  const agent = createAgent({
    model,
    instructions: "You add numbers.",
    tools: {
      add: tool({
        description: "Adds two numbers",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => {
          executed.push({ a, b });
          return { sum: a + b };
        },
      }),
      delete_file: tool({
        description: "Deletes a file",
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => {
          executed.push({ path });
          return "deleted";
        },
      }),
    },
    hooks: [
      defineHook({
        name: "cap-b",
        on: "tool_call",
        kind: "transform",
        match: "add",
        handler: (event) => {
          const args = event.args as { a: number; b: number };
          return args.a === 5 ? flow.rewriteArgs({ ...args, b: 7 }) : undefined;
        },
      }),
      defineHook({
        name: "no-deletes",
        on: "tool_call",
        kind: "decide",
        match: "delete_*",
        handler: () => flow.deny("deleting is not allowed"),
      }),
      defineHook({ name: "watch-results", on: "tool_result", kind: "inspect", handler: () => undefined }),
      defineHook({
        name: "watch-turns",
        on: "model_turn_finished",
        kind: "inspect",
        handler: () => undefined,
      }),
      defineHook({
        name: "context",
        on: "model_request",
        kind: "transform",
        handler: () => flow.patch({ extraContext: ["today is Tuesday"] }),
      }),
      defineHook({ name: "watch-steps", on: "step_end", kind: "inspect", handler: () => undefined }),
      defineHook({ name: "watch-end", on: "run_end", kind: "inspect", handler: () => undefined }),
    ],
  });
  return { agent, model, executed };
}

function indexOf(events: AgentEvent[], predicate: (event: AgentEvent) => boolean): number {
  const index = events.findIndex(predicate);
  expect(index, "expected event not found").toBeGreaterThanOrEqual(0);
  return index;
}

describe("run() and stream() parity", () => {
  it("give the same text, transcript, tool results, requests, hook events and usage", async () => {
    const { run, stream } = await runBoth(fixture, "Add 1+2, 3+four, 5+5, and delete /etc/passwd");

    expect(run.result.outcome).toBe("completed");
    expect(run.result.text).toBe("The sums are three and ten, and I may not delete files.");
    expect(stream.result.text).toBe(run.result.text);
    expect(stream.result.messages).toEqual(run.result.messages);
    expect(stream.result.steps.map((step) => step.toolResults)).toEqual(
      run.result.steps.map((step) => step.toolResults),
    );
    expect(stream.result.events).toEqual(run.result.events);
    expect(stream.result.requests).toEqual(run.result.requests);
    expect(comparable(stream.result)).toEqual(comparable(run.result));
    expect(stream.model.calls.map((call) => call.prompt)).toEqual(run.model.calls.map((call) => call.prompt));
    expect(stream.executed).toEqual(run.executed);

    // And the behaviour itself is the intended one (so parity is not two identical bugs).
    expect(run.executed).toEqual([
      { a: 1, b: 2 },
      { a: 5, b: 7 },
    ]);
    const results = run.result.steps.flatMap((step) => step.toolResults);
    expect(results.map((record) => [record.toolCallId, record.isError, record.executed])).toEqual([
      ["a1", false, true],
      ["a2", true, false],
      ["d1", true, false],
      ["a3", false, true],
    ]);
    expect(String(results[2]!.result)).toContain("deleting is not allowed");
    expect(run.result.events.map((entry) => `${entry.event}:${entry.hook}:${entry.effect}`)).toContain(
      "tool_call:no-deletes:deny",
    );
    // The extra context reached the provider but never the transcript.
    expect(JSON.stringify(run.model.calls[0]!.prompt)).toContain("today is Tuesday");
    expect(JSON.stringify(run.result.messages)).not.toContain("today is Tuesday");
  });

  it("stream() surfaces every kind of event in a sensible order", async () => {
    const { stream } = await runBoth(fixture, "Add 1+2, 3+four, 5+5, and delete /etc/passwd");
    const events = stream.events;
    const types = events.map((event) => event.type);

    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-finish");
    expect(types.filter((type) => type === "run-start")).toHaveLength(1);
    expect(types.filter((type) => type === "run-finish")).toHaveLength(1);
    const finish = events.at(-1) as Extract<AgentEvent, { type: "run-finish" }>;
    expect(finish.result).toEqual(stream.result);
    const start = events[0] as Extract<AgentEvent, { type: "run-start" }>;
    expect(start).toMatchObject({ runId: stream.result.runId, sessionId: stream.result.sessionId });

    // Steps are bracketed: step-start n … step-finish n, in order.
    const brackets = events
      .filter((event) => event.type === "step-start" || event.type === "step-finish")
      .map((event) => `${event.type}:${(event as { step: number }).step}`);
    expect(brackets).toEqual([
      "step-start:0",
      "step-finish:0",
      "step-start:1",
      "step-finish:1",
      "step-start:2",
      "step-finish:2",
    ]);

    // Text arrives as several deltas that add up to the step's text.
    const deltas = (step: number) =>
      events
        .filter((event): event is Extract<AgentEvent, { type: "text-delta" }> => event.type === "text-delta")
        .filter((event) => event.step === step)
        .map((event) => event.delta);
    expect(deltas(0).length).toBeGreaterThan(1);
    expect(deltas(0).join("")).toBe("Let me add those numbers for you.");
    expect(deltas(2).length).toBeGreaterThan(1);
    expect(deltas(2).join("")).toBe(stream.result.text);
    const reasoning = events.filter((event) => event.type === "reasoning-delta");
    expect(reasoning.map((event) => (event as { delta: string }).delta).join("")).toBe(
      "The user wants two sums and a file.",
    );

    // tool-call: what the model emitted, all three of step 0.
    const calls = events.filter((event) => event.type === "tool-call");
    expect(calls.map((event) => (event as { toolCallId: string }).toolCallId)).toEqual([
      "a1",
      "a2",
      "d1",
      "a3",
    ]);
    expect(calls[1]).toMatchObject({ step: 0, toolName: "add", args: { a: 3, b: "four" } });

    // tool-execution-start only for bodies that ran, with the effective (rewritten) args.
    const starts = events.filter(
      (event): event is Extract<AgentEvent, { type: "tool-execution-start" }> =>
        event.type === "tool-execution-start",
    );
    expect(starts.map((event) => [event.toolCallId, event.args])).toEqual([
      ["a1", { a: 1, b: 2 }],
      ["a3", { a: 5, b: 7 }],
    ]);
    const results = events.filter(
      (event): event is Extract<AgentEvent, { type: "tool-result" }> => event.type === "tool-result",
    );
    expect(results.map((event) => [event.toolCallId, event.isError])).toEqual([
      ["a1", false],
      ["a2", true],
      ["d1", true],
      ["a3", false],
    ]);
    expect(results[0]!.result).toEqual({ sum: 3 });
    expect(results[3]!.result).toEqual({ sum: 12 });

    // Order within step 0: start → deltas → tool-call → execution → result → finish.
    const at = (predicate: (event: AgentEvent) => boolean) => indexOf(events, predicate);
    const stepStart0 = at((event) => event.type === "step-start" && event.step === 0);
    const firstDelta0 = at((event) => event.type === "text-delta" && event.step === 0);
    const call0 = at((event) => event.type === "tool-call" && event.toolCallId === "a1");
    const exec0 = at((event) => event.type === "tool-execution-start" && event.toolCallId === "a1");
    const result0 = at((event) => event.type === "tool-result" && event.toolCallId === "a1");
    const finish0 = at((event) => event.type === "step-finish" && event.step === 0);
    const stepStart1 = at((event) => event.type === "step-start" && event.step === 1);
    expect(stepStart0).toBeLessThan(firstDelta0);
    expect(firstDelta0).toBeLessThan(call0);
    expect(call0).toBeLessThan(exec0);
    expect(exec0).toBeLessThan(result0);
    expect(result0).toBeLessThan(finish0);
    expect(finish0).toBeLessThan(stepStart1);
    for (const event of results) {
      const index = events.indexOf(event);
      const start = starts.find((candidate) => candidate.toolCallId === event.toolCallId);
      if (start) expect(events.indexOf(start)).toBe(index - 1);
    }

    // Hook events surface live, and their firings are exactly the result's trace.
    const hooks = events
      .filter((event): event is Extract<AgentEvent, { type: "hook" }> => event.type === "hook")
      .flatMap((event) => event.firings);
    expect(hooks).toEqual(stream.result.events);
    expect(hooks.length).toBeGreaterThan(5);
    const denied = at(
      (event) => event.type === "hook" && event.firings.some((entry) => entry.hook === "no-deletes"),
    );
    expect(denied).toBeLessThan(finish0);
    expect(at((event) => event.type === "hook" && event.event === "run_end")).toBeLessThan(types.length - 1);
  });

  it("one hook event per dispatch: a seam's three hooks come as one event, the deny's firing in it, before the call's result", async () => {
    const { run, stream } = await runBoth(() => {
      const executed: string[] = [];
      const model = scriptedModel([
        {
          toolCalls: [
            { id: "k1", name: "keep", args: {} },
            { id: "w1", name: "wipe", args: {} },
          ],
        },
        { text: "done" },
      ]);
      const body = (name: string) =>
        tool({
          description: name,
          inputSchema: z.object({}),
          execute: () => {
            executed.push(name);
            return "ok";
          },
        });
      const agent = createAgent({
        model,
        tools: { keep: body("keep"), wipe: body("wipe") },
        hooks: [
          defineHook({ name: "look", on: "tool_call", kind: "decide", handler: () => undefined }),
          defineHook({ name: "fine", on: "tool_call", kind: "decide", handler: () => flow.allow() }),
          defineHook({
            name: "no-wipe",
            on: "tool_call",
            kind: "decide",
            handler: (event) => (event.toolName === "wipe" ? flow.deny("not wiping") : undefined),
          }),
        ],
      });
      return { agent, executed };
    }, "go");
    expect(run.executed).toEqual(["keep"]);
    expect(stream.executed).toEqual(["keep"]);
    expect(stream.result.events).toEqual(run.result.events);

    const hooks = stream.events.filter(
      (event): event is Extract<AgentEvent, { type: "hook" }> => event.type === "hook",
    );
    // One event per call's dispatch, with all three firings: not one event per firing.
    expect(hooks).toHaveLength(2);
    const firings = (index: number) => hooks[index]!.firings.map((entry) => `${entry.hook}:${entry.effect}`);
    expect(firings(0)).toEqual(["look:continue", "fine:allow", "no-wipe:continue"]);
    expect(firings(1)).toEqual(["look:continue", "fine:allow", "no-wipe:deny"]);
    expect(hooks.every((event) => event.event === "tool_call")).toBe(true);
    expect(hooks[1]!.firings[2]).toMatchObject({ kind: "decide", detail: "not wiping" });
    expect(hooks.flatMap((event) => event.firings)).toEqual(run.result.events);
    // Each dispatch's event comes before what it decided: the kept call's execution, the denied call's result.
    const at = (predicate: (event: AgentEvent) => boolean) => indexOf(stream.events, predicate);
    const keepStart = at((event) => event.type === "tool-execution-start" && event.toolCallId === "k1");
    const wipeResult = at((event) => event.type === "tool-result" && event.toolCallId === "w1");
    expect(stream.events.indexOf(hooks[0]!)).toBeLessThan(keepStart);
    expect(stream.events.indexOf(hooks[1]!)).toBeLessThan(wipeResult);
  });

  it("a stream whose consumer stops early still finishes the run and resolves result", async () => {
    const { agent, executed } = fixture();
    const live = agent.stream("go");
    for await (const event of live) {
      if (event.type === "step-start") break;
    }
    const result = await live.result;
    expect(result.outcome).toBe("completed");
    expect(executed).toHaveLength(2);
  });

  it("stream(input, { hookEvents: false }) carries no hook events; the run, its guards and its trace are the same", async () => {
    const prompt = "Add 1+2, 3+four, 5+5, and delete /etc/passwd";
    const collect = async (live: AsyncIterable<AgentEvent>) => {
      const events: AgentEvent[] = [];
      for await (const event of live) events.push(event);
      return events;
    };
    const loud = fixture();
    const full = loud.agent.stream(prompt);
    const fullEvents = await collect(full);
    const quiet = fixture();
    const live = quiet.agent.stream(prompt, { hookEvents: false });
    const events = await collect(live);

    expect(fullEvents.some((event) => event.type === "hook")).toBe(true);
    expect(events.some((event) => event.type === "hook")).toBe(false);
    // Every other event is there, in the same order.
    const shape = (list: AgentEvent[]) =>
      list
        .filter((event) => event.type !== "hook" && event.type !== "run-start" && event.type !== "run-finish")
        .map((event) => JSON.stringify(event));
    expect(shape(events)).toEqual(shape(fullEvents));
    // The guards held (the delete never ran, the rewrite applied), and the trace kept every firing.
    expect(quiet.executed).toEqual([
      { a: 1, b: 2 },
      { a: 5, b: 7 },
    ]);
    const firings = (entries: RunResult["events"]) =>
      entries.map((entry) => `${entry.event}:${entry.hook}:${entry.effect}`);
    const result = await live.result;
    expect(firings(result.events)).toEqual(firings((await full.result).events));
    expect(firings(result.events)).toContain("tool_call:no-deletes:deny");
  });

  it("a stream that is never iterated still resolves result", async () => {
    const { agent } = fixture();
    const result = await agent.stream("go").result;
    expect(result.outcome).toBe("completed");
  });

  const watchers = [
    defineHook({ name: "w-request", on: "model_request", kind: "inspect", handler: () => undefined }),
    defineHook({ name: "w-error", on: "model_error", kind: "inspect", handler: () => undefined }),
    defineHook({ name: "w-call", on: "tool_call", kind: "inspect", handler: () => undefined }),
    defineHook({ name: "w-invalid", on: "invalid_tool_call", kind: "inspect", handler: () => undefined }),
    defineHook({ name: "w-end", on: "run_end", kind: "inspect", handler: () => undefined }),
  ];
  const echo = tool({ inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text });

  it.each([
    {
      name: "a retried attempt",
      outcome: "completed",
      script: [{ error: { status: 429 } }, { text: "after the retry" }] as ScriptStep[],
    },
    {
      name: "an error outcome",
      outcome: "error",
      script: [{ error: { status: 400, message: "bad request" } }] as ScriptStep[],
    },
    {
      name: "an exhausted script",
      outcome: "error",
      script: [{ toolCalls: [{ name: "echo", args: { text: "x" } }] }] as ScriptStep[],
    },
    {
      name: "an invalid call and an unknown tool",
      outcome: "completed",
      script: [
        { toolCalls: [{ name: "echo", args: { text: 1 } }, { name: "nope" }] },
        { text: "recovered" },
      ] as ScriptStep[],
    },
    {
      name: "max_steps",
      outcome: "max_steps",
      script: Array.from({ length: 5 }, () => ({ toolCalls: [{ name: "echo", args: { text: "again" } }] })),
    },
  ])("give the same result and hook events for $name", async ({ script, outcome }) => {
    const { run, stream } = await runBoth(() => {
      const model = scriptedModel(script);
      return {
        model,
        agent: createAgent({
          model,
          maxSteps: 3,
          retry: { initialDelayMs: 0 },
          tools: { echo },
          hooks: watchers,
        }),
      };
    }, "go");
    expect(run.result.outcome).toBe(outcome);
    expect(comparable(stream.result)).toEqual(comparable(run.result));
    expect(stream.result.events.length).toBeGreaterThan(0);
    expect(stream.model.calls.length).toBe(run.model.calls.length);
    expect(stream.events.at(-1)).toEqual({ type: "run-finish", result: stream.result });
  });
});
