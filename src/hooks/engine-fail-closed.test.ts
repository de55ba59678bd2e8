/**
 * Fail-closed: a blocking hook that throws, rejects, times out or answers with a
 * result its event does not accept stops the operation it guards. A tool call gets an error
 * result naming the hook (the run goes on); a model_request / run_start failure ends the run.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { deferred, recordingLogger, runBoth, toolResultsSent } from "../../test/support/engine-harness.js";
import { type AnyHook, createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";
import { HookTimedOut } from "./invoke-hook.js";

/** One call to `write`, whose side effect is recorded, then a text answer. */
function guarded(hooks: AnyHook[]) {
  return () => {
    const written: string[] = [];
    const logger = recordingLogger();
    const model = scriptedModel([
      { toolCalls: [{ name: "write", args: { path: "a.txt" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      logger,
      tools: {
        write: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: ({ path }) => {
            written.push(path);
            return `wrote ${path}`;
          },
        }),
      },
      hooks,
    });
    return { agent, model, written, logger };
  };
}

function blockedResult(model: { calls: { prompt: unknown[] }[] }) {
  const results = toolResultsSent(model.calls[1]!.prompt);
  expect(results).toHaveLength(1);
  expect(results[0]!.output.type).toBe("error-text");
  return String(results[0]!.output.value);
}

describe("tool_call hooks fail closed", () => {
  test("a throwing decide hook blocks the tool; the model gets an error naming the hook", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "flaky-guard",
          on: "tool_call",
          kind: "decide",
          handler: () => {
            throw new Error("guard crashed");
          },
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(result.outcome).toBe("completed");
      const sent = blockedResult(fixture.model);
      expect(sent).toContain('"flaky-guard"');
      expect(sent).toContain("guard crashed");
      expect(result.events).toContainEqual(expect.objectContaining({ hook: "flaky-guard", effect: "error" }));
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, executed: false });
    }
  });

  test("a rejecting async transform blocks the tool", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "async-transform",
          on: "tool_call",
          kind: "transform",
          handler: async () => {
            await Promise.resolve();
            throw new Error("rejected");
          },
        }),
      ]),
    );
    for (const { fixture } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(blockedResult(fixture.model)).toContain('"async-transform"');
    }
  });

  test("a decide hook that times out (timeoutMs: 20) blocks the tool", async () => {
    const never = deferred<undefined>();
    const out = await runBoth(
      guarded([
        defineHook({
          name: "slow-guard",
          on: "tool_call",
          kind: "decide",
          timeoutMs: 20,
          handler: () => never.promise,
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      const sent = blockedResult(fixture.model);
      expect(sent).toContain('"slow-guard"');
      expect(sent).toContain("timed out");
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "slow-guard", effect: "timeout" }),
      );
    }
  });

  test("a hook ended by its own signal's timeout (what a config hook's command throws then) times out, whatever it would have answered", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "command-guard",
          on: "tool_call",
          kind: "transform",
          timeoutMs: 5_000,
          handler: async () => {
            await Promise.resolve();
            throw new HookTimedOut();
          },
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(blockedResult(fixture.model)).toContain('"command-guard" on tool_call: timed out after 5000 ms');
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "command-guard", effect: "timeout" }),
      );
    }
  });

  test("a result the event does not accept (rewriteResult from tool_call, via plain JS) fails closed", async () => {
    const wrong = {
      name: "wrong-shape",
      on: "tool_call",
      kind: "transform",
      handler: () => flow.rewriteResult("forged result"),
    } as unknown as AnyHook;
    const out = await runBoth(guarded([wrong]));
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual([]);
      const sent = blockedResult(fixture.model);
      expect(sent).toContain('"wrong-shape"');
      expect(sent).toContain("flow.rewriteResult()");
      expect(sent).not.toBe("forged result");
      expect(result.events).toContainEqual(expect.objectContaining({ hook: "wrong-shape", effect: "error" }));
    }
  });

  test.each([
    ["a decide hook returning flow.skip", "decide", () => flow.skip("x")],
    ["a decide hook returning a string", "decide", () => "yes"],
    ["a transform returning an unknown type", "transform", () => ({ type: "approve" })],
    ["a transform returning a number", "transform", () => 1],
  ])("%s fails closed", async (_label, kind, handler) => {
    const hook = { name: "odd", on: "tool_call", kind, handler } as unknown as AnyHook;
    const out = await runBoth(guarded([hook]));
    for (const { fixture } of out.both) {
      expect(fixture.written).toEqual([]);
      expect(blockedResult(fixture.model)).toContain('"odd"');
    }
  });

  test('onError: "fail_open" lets the tool run (and says so in the trace and the log)', async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "lenient",
          on: "tool_call",
          kind: "decide",
          onError: "fail_open",
          handler: () => {
            throw new Error("crashed");
          },
        }),
        defineHook({
          name: "lenient-slow",
          on: "tool_call",
          kind: "transform",
          onError: "fail_open",
          timeoutMs: 20,
          handler: () => deferred<undefined>().promise,
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.written).toEqual(["a.txt"]);
      expect(
        result.events.filter((entry) => entry.effect === "fail_open").map((entry) => entry.hook),
      ).toEqual(["lenient-slow", "lenient"]);
      expect(fixture.logger.warnings.some((message) => message.includes("lenient"))).toBe(true);
    }
  });

  test("rewritten args that break the tool's schema fail closed, before the decides", async () => {
    const decided: unknown[] = [];
    const out = await runBoth(
      guarded([
        defineHook({
          name: "bad-rewrite",
          on: "tool_call",
          kind: "transform",
          handler: () => flow.rewriteArgs({ path: 7 }),
        }),
        defineHook({
          name: "guard",
          on: "tool_call",
          kind: "decide",
          handler: (event) => {
            decided.push(event.args);
          },
        }),
      ]),
    );
    expect(decided).toEqual([]);
    for (const { fixture } of out.both) {
      expect(fixture.written).toEqual([]);
      const sent = blockedResult(fixture.model);
      expect(sent).toContain('"bad-rewrite"');
      expect(sent).toContain("schema");
    }
  });

  test("a failing tool_result transform withholds the raw output", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ toolCalls: [{ name: "leak", args: {} }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: { leak: tool({ inputSchema: z.object({}), execute: () => "RAW-SECRET-99" }) },
        hooks: [
          defineHook({
            name: "redactor",
            on: "tool_result",
            kind: "transform",
            handler: () => {
              throw new Error("redactor down");
            },
          }),
        ],
      });
      return { agent, model };
    });
    for (const outcome of out.both) {
      const sent = blockedResult(outcome.fixture.model);
      expect(sent).toContain('"redactor"');
      expect(JSON.stringify([outcome.result, outcome.stream])).not.toContain("RAW-SECRET-99");
    }
  });

  test("a rewritten result that breaks the tool's output schema is withheld (fail closed)", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ toolCalls: [{ name: "count", args: {} }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: {
          count: tool({
            inputSchema: z.object({}),
            outputSchema: z.object({ n: z.number() }),
            execute: () => ({ n: 1 }),
          }),
        },
        hooks: [
          defineHook({
            name: "stringify",
            on: "tool_result",
            kind: "transform",
            handler: () => flow.rewriteResult({ n: "one" }),
          }),
        ],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      const sent = blockedResult(fixture.model);
      expect(sent).toContain('"stringify"');
      expect(sent).toContain("output schema");
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, executed: true });
    }
  });
});

describe("run-level hooks fail closed", () => {
  test("a throwing model_request transform ends the run with outcome error, naming the hook", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "rag",
          on: "model_request",
          kind: "transform",
          handler: () => {
            throw new Error("index offline");
          },
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result.outcome).toBe("error");
      expect(result.hook).toBe("rag");
      expect(result.reason).toContain("index offline");
      expect(result.error?.name).toBe("HookError");
    }
  });

  test("a timed-out model_request decide ends the run", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "budget",
          on: "model_request",
          kind: "decide",
          timeoutMs: 20,
          handler: () => deferred<undefined>().promise,
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result).toMatchObject({ outcome: "error", hook: "budget" });
    }
  });

  test("a throwing run_start hook ends the run before any step", async () => {
    const out = await runBoth(
      guarded([
        defineHook({
          name: "input-guard",
          on: "run_start",
          kind: "decide",
          handler: () => {
            throw new Error("classifier down");
          },
        }),
      ]),
    );
    for (const { fixture, result, stream } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(fixture.written).toEqual([]);
      expect(result).toMatchObject({ outcome: "error", hook: "input-guard" });
      expect(result.reason).toContain("classifier down");
      expect(stream.some((event) => event.type === "step-start")).toBe(false);
    }
  });

  test("a wrong-shaped run_start result (plain JS) ends the run", async () => {
    const hook = {
      name: "bad-start",
      on: "run_start",
      kind: "transform",
      handler: () => flow.rewriteArgs({}),
    } as unknown as AnyHook;
    const out = await runBoth(guarded([hook]));
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result).toMatchObject({ outcome: "error", hook: "bad-start" });
    }
  });
});
