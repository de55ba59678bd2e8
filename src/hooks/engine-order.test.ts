/**
 * Dispatch order: transforms → decides → the operation → inspects; priority
 * (lower first, default 100, ties keep registration order); `match` patterns over qualified
 * and function names; disposers; the hook trace (`RunResult.events`, stream `hook` events).
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { recordingLogger, runBoth, runOn, type SurfaceName } from "../../test/support/engine-harness.js";
import { createAgent, defineHook, flow, resolveTool, scriptedModel, tool } from "../index.js";

const SURFACES: SurfaceName[] = ["run", "stream"];

function echoTool(seq: string[]) {
  return tool({
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => {
      seq.push(`body:${text}`);
      return text;
    },
  });
}

describe("order of one event's hooks", () => {
  test("tool_call: transforms → decides → the tool body → inspects, whatever the priorities", async () => {
    const out = await runBoth(() => {
      const seq: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: { echo: echoTool(seq) },
        // Registered in reverse and with priorities against the kind order: kind still wins.
        hooks: [
          defineHook({
            name: "i",
            on: "tool_call",
            kind: "inspect",
            priority: 0,
            handler: () => void seq.push("inspect"),
          }),
          defineHook({
            name: "d",
            on: "tool_call",
            kind: "decide",
            priority: 1,
            handler: () => {
              seq.push("decide");
            },
          }),
          defineHook({
            name: "t",
            on: "tool_call",
            kind: "transform",
            priority: 500,
            handler: () => {
              seq.push("transform");
            },
          }),
        ],
      });
      return { agent, seq };
    });
    for (const { fixture } of out.both) {
      expect(fixture.seq).toEqual(["transform", "decide", "body:x", "inspect"]);
    }
  });

  test("model_request: transforms → decides → the provider call → inspects, on every attempt", async () => {
    const out = await runBoth(() => {
      const seq: string[] = [];
      const model = scriptedModel([
        () => {
          seq.push("provider");
          return { error: { status: 503 } };
        },
        () => {
          seq.push("provider");
          return { text: "ok" };
        },
      ]);
      const agent = createAgent({
        model,
        retry: { initialDelayMs: 0 },
        hooks: [
          defineHook({
            name: "i",
            on: "model_request",
            kind: "inspect",
            handler: (_event, ctx) => void seq.push(`inspect${ctx.attempt}`),
          }),
          defineHook({
            name: "d",
            on: "model_request",
            kind: "decide",
            handler: (_event, ctx) => {
              seq.push(`decide${ctx.attempt}`);
            },
          }),
          defineHook({
            name: "t",
            on: "model_request",
            kind: "transform",
            handler: (_event, ctx) => {
              seq.push(`transform${ctx.attempt}`);
            },
          }),
        ],
      });
      return { agent, seq };
    });
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(fixture.seq).toEqual([
        "transform1",
        "decide1",
        "provider",
        "inspect1",
        "transform2",
        "decide2",
        "provider",
        "inspect2",
      ]);
    }
  });
});

describe("priority", () => {
  test("lower first, default 100, ties keep registration order (options and use() alike)", async () => {
    const out = await runBoth(() => {
      const seq: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "done" }]);
      const named = (name: string, priority?: number) =>
        defineHook({
          name,
          on: "tool_call",
          kind: "transform",
          ...(priority === undefined ? {} : { priority }),
          handler: () => {
            seq.push(name);
          },
        });
      const decide = (name: string, priority?: number) =>
        defineHook({
          name,
          on: "tool_call",
          kind: "decide",
          ...(priority === undefined ? {} : { priority }),
          handler: () => {
            seq.push(name);
          },
        });
      const agent = createAgent({
        model,
        tools: { echo: echoTool([]) },
        hooks: [named("b"), named("a", 50), named("c"), named("late", 101), decide("d2"), decide("d1", 99)],
      });
      agent.use(named("e")); // default 100, registered after b and c
      agent.use(named("first", 1));
      agent.use(named("ninety-nine", 99));
      agent.use(named("hundred", 100));
      return { agent, seq };
    });
    for (const { fixture } of out.both) {
      expect(fixture.seq).toEqual([
        "first",
        "a",
        "ninety-nine",
        "b",
        "c",
        "e",
        "hundred",
        "late",
        "d1",
        "d2",
      ]);
    }
  });
});

describe("decides", () => {
  test("first deny wins: later decides do not run; an earlier ask does not override it", async () => {
    const out = await runBoth(() => {
      const seq: string[] = [];
      const asked: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "done" }]);
      const decide = (
        name: string,
        priority: number,
        answer: () => ReturnType<typeof flow.deny> | undefined,
      ) =>
        defineHook({
          name,
          on: "tool_call",
          kind: "decide",
          priority,
          handler: () => {
            seq.push(name);
            return answer();
          },
        });
      const agent = createAgent({
        model,
        tools: { echo: echoTool(seq) },
        approvals: {
          handler: () => {
            asked.push("asked");
            return true;
          },
        },
        hooks: [
          defineHook({
            name: "asker",
            on: "tool_call",
            kind: "decide",
            priority: 1,
            handler: () => {
              seq.push("asker");
              return flow.ask({ reason: "check" });
            },
          }),
          decide("allower", 2, () => undefined),
          decide("denier", 3, () => flow.deny("no")),
          decide("after", 4, () => undefined),
        ],
      });
      return { agent, seq, asked };
    });
    for (const { fixture } of out.both) {
      expect(fixture.seq).toEqual(["asker", "allower", "denier"]);
      expect(fixture.asked).toEqual([]);
    }
  });
});

describe("match patterns", () => {
  test("picomatch over the qualified name and the function name; unmatched hooks do not fire", async () => {
    const out = await runBoth(() => {
      const fired: string[] = [];
      const model = scriptedModel([
        {
          toolCalls: [
            { name: "fs_read", args: { text: "a" } },
            { name: "web_get", args: { text: "b" } },
            { name: "local", args: { text: "c" } },
          ],
        },
        { text: "done" },
      ]);
      const hook = (name: string, match: string | string[], on: "tool_call" | "tool_result" = "tool_call") =>
        defineHook({
          name,
          on,
          kind: "inspect",
          match,
          handler: (event) => void fired.push(`${name}@${event.toolName}`),
        });
      const agent = createAgent({
        model,
        tools: [
          resolveTool("read", echoTool([]), { toolset: "fs" }),
          resolveTool("get", echoTool([]), { toolset: "web" }),
          resolveTool("local", echoTool([])),
          // Tools the model does not call: hooks matching only them never fire (a pattern
          // matching no tool of the agent at all is refused by createAgent).
          resolveTool("send", echoTool([]), { toolset: "mail" }),
          resolveTool("nothing", echoTool([])),
        ],
        hooks: [
          hook("qualified-glob", "fs.*"),
          hook("function-name", "web_get"),
          hook("list", ["nothing", "l*"]),
          hook("never", "mail.*"),
          hook("star", "*"),
          hook("result-side", "web.get", "tool_result"),
        ],
      });
      return { agent, fired };
    });
    for (const { fixture } of out.both) {
      expect(fixture.fired.sort()).toEqual(
        [
          "qualified-glob@fs_read",
          "function-name@web_get",
          "list@local",
          "star@fs_read",
          "star@web_get",
          "star@local",
          "result-side@web_get",
        ].sort(),
      );
    }
  });
});

describe("disposer", () => {
  test.each(SURFACES)("agent.use() returns a disposer that removes the hook (%s)", async (surface) => {
    const fired: number[] = [];
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const agent = createAgent({ model });
    const dispose = agent.use(
      defineHook({
        name: "count",
        on: "run_start",
        kind: "inspect",
        handler: () => void fired.push(1),
      }),
    );
    const first = await runOn(surface, { agent }, "first");
    dispose();
    dispose(); // idempotent
    const second = await runOn(surface, { agent }, "second");
    expect(fired).toEqual([1]);
    expect(first.result.events.map((entry) => entry.hook)).toEqual(["count"]);
    expect(second.result.events).toEqual([]);
  });
});

describe("the hook trace", () => {
  test("RunResult.events has one entry per hook that fired; stream yields them live", async () => {
    const out = await runBoth(() => {
      const logger = recordingLogger();
      const model = scriptedModel([
        {
          toolCalls: [
            { name: "echo", args: { text: "x" }, id: "c1" },
            { name: "echo", args: { text: "no" }, id: "c2" },
          ],
        },
        { text: "done" },
      ]);
      const agent = createAgent({
        model,
        logger,
        tools: { echo: echoTool([]) },
        hooks: [
          defineHook({
            name: "shout",
            on: "tool_call",
            kind: "transform",
            handler: (event) => flow.rewriteArgs({ text: String((event.args as { text: string }).text) }),
          }),
          defineHook({
            name: "guard",
            on: "tool_call",
            kind: "decide",
            handler: (event) =>
              (event.args as { text: string }).text === "no" ? flow.deny("not that") : flow.allow(),
          }),
          defineHook({ name: "watch", on: "tool_result", kind: "inspect", handler: () => {} }),
          defineHook({ name: "quiet", on: "tool_error", kind: "inspect", handler: () => {} }),
        ],
      });
      return { agent };
    });
    for (const { result, stream, surface } of out.both) {
      const entries = result.events;
      expect(entries).toHaveLength(5);
      expect(entries).toEqual(
        expect.arrayContaining([
          {
            event: "tool_call",
            hook: "shout",
            kind: "transform",
            effect: "rewriteArgs",
            toolCallId: "c1",
            toolName: "echo",
            detail: { text: "x" },
          },
          {
            event: "tool_call",
            hook: "guard",
            kind: "decide",
            effect: "allow",
            toolCallId: "c1",
            toolName: "echo",
          },
          { event: "tool_result", hook: "watch", kind: "inspect", effect: "observed" },
          {
            event: "tool_call",
            hook: "shout",
            kind: "transform",
            effect: "rewriteArgs",
            toolCallId: "c2",
            toolName: "echo",
            detail: { text: "no" },
          },
          {
            event: "tool_call",
            hook: "guard",
            kind: "decide",
            effect: "deny",
            toolCallId: "c2",
            toolName: "echo",
            detail: "not that",
          },
        ]),
      );
      expect(entries.filter((entry) => entry.hook === "guard").map((entry) => entry.effect)).toEqual([
        "allow",
        "deny",
      ]);
      if (surface === "stream") {
        const hooks = stream.filter((event) => event.type === "hook");
        expect(hooks.flatMap((event) => event.firings)).toEqual(entries);
        // Live: the step's hook events come before the step finishes, not with the result.
        const firstFinish = stream.findIndex((event) => event.type === "step-finish");
        const guardDeny = stream.findIndex(
          (event) =>
            event.type === "hook" &&
            event.firings.some((entry) => entry.hook === "guard" && entry.effect === "deny"),
        );
        expect(guardDeny).toBeGreaterThan(-1);
        expect(guardDeny).toBeLessThan(firstFinish);
      }
    }
  });

  test("a rewrite rejected by the tool's schema is one trace entry (error), not two", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: { echo: echoTool([]) },
        hooks: [
          defineHook({
            name: "breaks-schema",
            on: "tool_call",
            kind: "transform",
            handler: () => flow.rewriteArgs({ text: 42 }),
          }),
        ],
      });
      return { agent };
    });
    for (const { result } of out.both) {
      const entries = result.events.filter((entry) => entry.hook === "breaks-schema");
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ event: "tool_call", kind: "transform", effect: "error" });
    }
  });
});
