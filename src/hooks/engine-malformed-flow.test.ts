/**
 * Malformed hook answers fail closed at the boundary: a flow of an accepted type but with
 * wrong fields (a plain-JS or config hook has no compiler to stop it) is a `HookError`
 * naming the hook and the field; the guarded operation does not happen and nothing of it
 * is persisted.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runBoth, runOn } from "../../test/support/engine-harness.js";
import { SURFACES } from "../../test/support/surfaces.js";
import { type AnyHook, createAgent, defineHook, flow, MemoryStore, scriptedModel, tool } from "../index.js";

function rawHook(on: string, kind: string, answer: () => unknown, name = "bad-hook"): AnyHook {
  return { name, on, kind, handler: answer } as unknown as AnyHook;
}

/** One call to `write` (its side effect recorded), then a text answer. */
function writer(hooks: AnyHook[]) {
  return () => {
    const written: string[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: "write", args: { path: "a.txt" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      tools: {
        write: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: ({ path }) => {
            written.push(path);
            return { wrote: path };
          },
        }),
      },
      hooks,
    });
    return { agent, model, written };
  };
}

function circular(): unknown {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

describe("model_request: a malformed patch ends the run before any provider call", () => {
  const cases: [string, unknown, string][] = [
    ["system: 42", { system: 42 }, "patch.system"],
    ['temperature: "hot"', { temperature: "hot" }, "patch.temperature"],
    ["an unknown field", { sytem: "be brief" }, "patch.sytem"],
    ["extraContext: 5", { extraContext: 5 }, "patch.extraContext"],
    ["patch: null", null, "patch"],
    [
      "messages that are not model messages",
      { messages: [{ role: "robot", content: "x" }] },
      "patch.messages[0].role",
    ],
  ];
  test.each(cases)("%s", async (_name, patch, field) => {
    const out = await runBoth(
      writer([rawHook("model_request", "transform", () => ({ type: "patch", patch }), "rag")]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(fixture.written).toEqual([]);
      expect(result).toMatchObject({ outcome: "error", hook: "rag" });
      expect(result.error?.name).toBe("HookError");
      expect(result.error?.message).toContain(`${field}:`);
      expect(result.reason).toContain('"rag"');
    }
  });

  test("a valid patch still applies", async () => {
    const out = await runBoth(
      writer([rawHook("model_request", "transform", () => flow.patch({ system: "S!" }))]),
    );
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(JSON.stringify(fixture.model.calls[0]!.prompt)).toContain("S!");
    }
  });
});

describe("tool_call / tool_result: malformed answers fail closed and name hook and field", () => {
  test.each([
    ["rewriteArgs with a function", () => ({ type: "rewriteArgs", args: { path: () => "x" } }), "args.path"],
    ["skip with a circular result", () => ({ type: "skip", result: circular() }), "result.self"],
  ])("%s: the tool does not run", async (_name, answer, field) => {
    const out = await runBoth(writer([rawHook("tool_call", "transform", answer)]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      const sent = String(result.steps[0]!.toolResults[0]!.result);
      expect(sent).toContain('"bad-hook"');
      expect(sent).toContain(field);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, executed: false });
    }
  });

  test.each([
    ["a circular rewriteResult", () => ({ type: "rewriteResult", result: circular() }), "result.self"],
    ["a function rewriteResult", () => ({ type: "rewriteResult", result: () => 1 }), "result"],
  ])("%s: the raw result is withheld, the field named", async (_name, answer, field) => {
    const out = await runBoth(writer([rawHook("tool_result", "transform", answer)]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual(["a.txt"]);
      const sent = String(result.steps[0]!.toolResults[0]!.result);
      expect(sent).toContain("withheld");
      expect(sent).toContain('"bad-hook"');
      expect(sent).toContain(`${field}:`);
      expect(sent).not.toContain("wrote");
      expect(() => JSON.stringify(result)).not.toThrow();
    }
  });

  test("a deny without a reason gets a default reason naming the hook", async () => {
    const out = await runBoth(
      writer([rawHook("tool_call", "decide", () => ({ type: "deny" }), "silent-guard")]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(result.steps[0]!.toolResults[0]!.result).toBe(
        'tool "write" was denied by hook "silent-guard": denied by hook "silent-guard"',
      );
    }
  });

  class Deny {
    get type() {
      return "deny";
    }
  }
  test.each([
    ["a class instance whose type is a getter", () => new Deny()],
    ["an object whose type is its prototype's", () => Object.create({ type: "deny" })],
    ["a promise of an inherited deny", () => Promise.resolve(Object.create({ type: "deny" }))],
  ])("a deny without a reason whose type is not its own field still denies: %s", async (_name, answer) => {
    const out = await runBoth(writer([rawHook("tool_call", "decide", answer, "guard")]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(result.steps[0]!.toolResults[0]!.result).toBe(
        'tool "write" was denied by hook "guard": denied by hook "guard"',
      );
    }
  });

  test("a terminate without a reason whose type is inherited still ends the run", async () => {
    const out = await runBoth(
      writer([rawHook("tool_call", "transform", () => Object.create({ type: "terminate" }), "stopper")]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(result).toMatchObject({ outcome: "terminated", hook: "stopper" });
    }
  });

  test.each([
    [
      "a thenable whose then throws",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hook answering a thenable is the case under test
        then() {
          throw new Error("then broke");
        },
      }),
      "threw: then broke",
    ],
    [
      "a thenable that answers a deny at once",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hook answering a thenable is the case under test
        then: (resolve: (value: unknown) => void) => resolve({ type: "deny", reason: "at once" }),
      }),
      "at once",
    ],
  ])("%s: the call is refused naming the hook, the run goes on", async (_name, answer, text) => {
    const out = await runBoth(writer([rawHook("tool_call", "decide", answer, "guard")]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(result.outcome).toBe("completed");
      const sent = String(result.steps[0]!.toolResults[0]!.result);
      expect(sent).toContain('"guard"');
      expect(sent).toContain(text);
    }
  });

  test("a deny with a non-string reason is malformed (fails closed all the same)", async () => {
    const out = await runBoth(writer([rawHook("tool_call", "decide", () => ({ type: "deny", reason: 7 }))]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain("reason");
    }
  });
});

describe("run_start: nothing malformed is persisted", () => {
  test.each(SURFACES)(
    "a malformed injection ends the run, and the session's next run works (%s)",
    async (surface) => {
      const store = new MemoryStore();
      let first = true;
      const model = scriptedModel([{ text: "fine" }]);
      const agent = createAgent({
        model,
        store,
        hooks: [
          rawHook("run_start", "transform", () => {
            if (!first) return undefined;
            first = false;
            return { type: "inject", messages: [{ role: "user" }, "hello"] };
          }),
        ],
      });
      const failed = await runOn(surface, { agent }, "one", { sessionId: "s" });
      expect(failed.result).toMatchObject({ outcome: "error", hook: "bad-hook" });
      expect(failed.result.reason).toContain("messages[0].content:");
      expect(model.calls).toHaveLength(0);
      const stored = await store.loadSession("s");
      expect(JSON.stringify(stored?.messages ?? [])).not.toContain("hello");
      const next = await runOn(surface, { agent }, "two", { sessionId: "s" });
      expect(next.result.outcome).toBe("completed");
      expect(next.result.text).toBe("fine");
    },
  );

  test("rewriteInput with a non-string ends the run naming the field", async () => {
    const out = await runBoth(
      writer([rawHook("run_start", "transform", () => ({ type: "rewriteInput", input: 42 }))]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result).toMatchObject({ outcome: "error", hook: "bad-hook" });
      expect(result.reason).toContain("input:");
    }
  });

  test("a well-formed injection is still persisted", async () => {
    const store = new MemoryStore();
    const agent = createAgent({
      model: scriptedModel([{ text: "ok" }]),
      store,
      hooks: [
        defineHook({
          name: "note",
          on: "run_start",
          kind: "transform",
          handler: () => flow.inject({ role: "user", content: "remember: metric units" }),
        }),
      ],
    });
    await agent.run("hi", { sessionId: "s" });
    expect(JSON.stringify((await store.loadSession("s"))!.messages)).toContain("metric units");
  });
});
