/**
 * HookContext: identity fields; scratchpads session ⊃ run ⊃ step ⊃ operation,
 * visible downward only, dropped when their scope ends; atomic `update`; `ctx.signal`.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runBoth, runOn, type SurfaceName } from "../../test/support/engine-harness.js";
import { createAgent, defineHook, type HookContext, scriptedModel, tool } from "../index.js";

const SURFACES: SurfaceName[] = ["run", "stream"];
const noop = tool({ inputSchema: z.object({}), execute: () => "ok" });

function read(ctx: HookContext, key: string) {
  return {
    session: ctx.scratch.session.get(key),
    run: ctx.scratch.run.get(key),
    step: ctx.scratch.step.get(key),
    operation: ctx.scratch.operation.get(key),
  };
}

describe("scratchpads", () => {
  test.each(SURFACES)("visibility downward only, per-scope lifetimes (%s)", async (surface) => {
    const log: Record<string, unknown> = {};
    const model = scriptedModel([
      { toolCalls: [{ name: "noop", args: {} }] },
      { text: "first run done" },
      { text: "second run done" },
      { text: "other session" },
    ]);
    const agent = createAgent({
      model,
      tools: { noop },
      hooks: [
        defineHook({
          name: "run-start",
          on: "run_start",
          kind: "transform",
          handler: (event, ctx) => {
            log[`run_start:${event.input}`] = { s: read(ctx, "s"), r: read(ctx, "r") };
            if (event.input === "first") {
              ctx.scratch.session.set("s", "session-value");
              ctx.scratch.run.set("r", "run-value");
            }
          },
        }),
        defineHook({
          name: "step-start",
          on: "step_start",
          kind: "transform",
          handler: (event, ctx) => {
            if (event.step === 0) ctx.scratch.step.set("st", `step-${event.step}`);
          },
        }),
        defineHook({
          name: "call",
          on: "tool_call",
          kind: "transform",
          handler: (_event, ctx) => {
            ctx.scratch.operation.set("op", "operation-value");
            log.tool_call = {
              s: read(ctx, "s"),
              r: read(ctx, "r"),
              st: read(ctx, "st"),
              op: read(ctx, "op"),
            };
          },
        }),
        defineHook({
          name: "result",
          on: "tool_result",
          kind: "transform",
          handler: (_event, ctx) => {
            log.tool_result = read(ctx, "op");
          },
        }),
        defineHook({
          name: "request",
          on: "model_request",
          kind: "transform",
          handler: (_event, ctx) => {
            log[`model_request:${ctx.runId}:${ctx.step}`] = {
              st: read(ctx, "st"),
              op: read(ctx, "op"),
              r: read(ctx, "r"),
            };
          },
        }),
      ],
    });
    const first = await runOn(surface, { agent }, "first", { sessionId: "s-1" });
    const second = await runOn(surface, { agent }, "second", { sessionId: "s-1" });
    const other = await runOn(surface, { agent }, "third", { sessionId: "s-2" });
    expect([first, second, other].map((outcome) => outcome.result.outcome)).toEqual([
      "completed",
      "completed",
      "completed",
    ]);

    // Broader values are visible in narrower scopes; narrower ones never leak upward.
    expect(log.tool_call).toEqual({
      s: {
        session: "session-value",
        run: "session-value",
        step: "session-value",
        operation: "session-value",
      },
      r: { session: undefined, run: "run-value", step: "run-value", operation: "run-value" },
      st: { session: undefined, run: undefined, step: "step-0", operation: "step-0" },
      op: { session: undefined, run: undefined, step: undefined, operation: "operation-value" },
    });
    // tool_call and tool_result are one operation.
    expect(log.tool_result).toEqual({
      session: undefined,
      run: undefined,
      step: undefined,
      operation: "operation-value",
    });
    // Step values are dropped at step end; operation values at operation end; run values live on.
    expect(log[`model_request:${first.result.runId}:1`]).toEqual({
      st: { session: undefined, run: undefined, step: undefined, operation: undefined },
      op: { session: undefined, run: undefined, step: undefined, operation: undefined },
      r: { session: undefined, run: "run-value", step: "run-value", operation: "run-value" },
    });
    // Run values are dropped at run end; session values persist across runs of the session only.
    expect(log["run_start:second"]).toEqual({
      s: {
        session: "session-value",
        run: "session-value",
        step: "session-value",
        operation: "session-value",
      },
      r: { session: undefined, run: undefined, step: undefined, operation: undefined },
    });
    expect(log["run_start:third"]).toEqual({
      s: { session: undefined, run: undefined, step: undefined, operation: undefined },
      r: { session: undefined, run: undefined, step: undefined, operation: undefined },
    });
  });

  test.each(SURFACES)(
    "one model call is one operation: model_request, model_response and model_turn_finished share it (%s)",
    async (surface) => {
      const seen: Record<string, unknown> = {};
      const model = scriptedModel([{ text: "first" }]);
      const agent = createAgent({
        model,
        hooks: [
          defineHook({
            name: "mark",
            on: "model_request",
            kind: "transform",
            handler: (_event, ctx) => {
              ctx.scratch.operation.set("call", `attempt ${ctx.attempt}`);
            },
          }),
          defineHook({
            name: "response",
            on: "model_response",
            kind: "inspect",
            handler: (_event, ctx) => {
              seen.response = ctx.scratch.operation.get("call");
            },
          }),
          defineHook({
            name: "finished",
            on: "model_turn_finished",
            kind: "inspect",
            handler: (_event, ctx) => {
              seen.finished = ctx.scratch.operation.get("call");
            },
          }),
          defineHook({
            name: "end",
            on: "step_end",
            kind: "inspect",
            handler: (_event, ctx) => {
              // step_end is not part of the model call's operation.
              seen.stepEnd = ctx.scratch.operation.get("call") ?? "none";
            },
          }),
        ],
      });
      const { result } = await runOn(surface, { agent }, "go");
      expect(result.outcome).toBe("completed");
      expect(seen).toEqual({ response: "attempt 1", finished: "attempt 1", stepEnd: "none" });
    },
  );

  test("update is atomic per key: concurrent tool hooks lose no increment", async () => {
    const out = await runBoth(() => {
      const totals: unknown[] = [];
      const ids = ["a", "b", "c", "d", "e", "f"];
      const model = scriptedModel([
        { toolCalls: ids.map((id) => ({ name: "noop", args: {}, id })) },
        { text: "done" },
      ]);
      const agent = createAgent({
        model,
        tools: { noop },
        toolConcurrency: 6,
        hooks: [
          defineHook({
            name: "count",
            on: "tool_call",
            kind: "transform",
            handler: async (event, ctx) => {
              await new Promise((resolve) => setImmediate(resolve));
              ctx.scratch.step.update<number>("calls", (count) => (count ?? 0) + 1);
              ctx.scratch.run.update<string[]>("ids", (list) => [...(list ?? []), event.toolCallId]);
            },
          }),
          defineHook({
            name: "total",
            on: "step_end",
            kind: "transform",
            handler: (event, ctx) => {
              if (event.step === 0)
                totals.push(ctx.scratch.step.get("calls"), ctx.scratch.run.get<string[]>("ids")?.length);
            },
          }),
        ],
      });
      return { agent, totals };
    });
    for (const { fixture } of out.both) expect(fixture.totals).toEqual([6, 6]);
  });
});

describe("identity and signal", () => {
  test("ctx carries sessionId, runId, agentName, agentPath, isStreaming", async () => {
    const out = await runBoth(
      () => {
        const seen: unknown[] = [];
        const model = scriptedModel([{ text: "ok" }]);
        const agent = createAgent({
          name: "helper",
          model,
          hooks: [
            defineHook({
              name: "who",
              on: "run_start",
              kind: "inspect",
              handler: (event, ctx) =>
                void seen.push({
                  sessionId: ctx.sessionId,
                  runId: ctx.runId,
                  agentName: ctx.agentName,
                  agentPath: ctx.agentPath,
                  eventPath: event.agentPath,
                  isStreaming: ctx.isStreaming,
                  step: ctx.step,
                  attempt: ctx.attempt,
                }),
            }),
          ],
        });
        return { agent, seen };
      },
      "hi",
      { sessionId: "session-42" },
    );
    for (const { fixture, result, surface } of out.both) {
      expect(fixture.seen).toEqual([
        {
          sessionId: "session-42",
          runId: result.runId,
          agentName: "helper",
          agentPath: ["helper"],
          eventPath: ["helper"],
          isStreaming: surface === "stream",
          step: -1,
          attempt: 1,
        },
      ]);
    }
  });

  test("ctx.signal is aborted when the run is aborted", async () => {
    for (const surface of SURFACES) {
      const controller = new AbortController();
      const captured: { ctx?: HookContext; abortedAtCall?: boolean } = {};
      const model = scriptedModel([{ toolCalls: [{ name: "slow", args: {} }] }, { text: "never" }]);
      const agent = createAgent({
        model,
        tools: {
          slow: tool({
            inputSchema: z.object({}),
            execute: (_args, options) =>
              new Promise((_resolve, reject) => {
                setImmediate(() => controller.abort());
                options.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
              }),
          }),
        },
        hooks: [
          defineHook({
            name: "capture",
            on: "tool_call",
            kind: "decide",
            handler: (_event, ctx) => {
              captured.ctx = ctx;
              captured.abortedAtCall = ctx.signal.aborted;
            },
          }),
        ],
      });
      const { result } = await runOn(surface, { agent }, "go", { signal: controller.signal });
      expect(captured.abortedAtCall).toBe(false);
      expect(captured.ctx?.signal.aborted).toBe(true);
      expect(result.outcome).toBe("error");
      expect(model.calls).toHaveLength(1);
    }
  });

  test.each(SURFACES)(
    "an aborted run does not wait for a blocking hook that ignores ctx.signal (%s)",
    async (surface) => {
      const controller = new AbortController();
      const ran: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "noop", args: {} }] }, { text: "never" }]);
      const agent = createAgent({
        model,
        tools: {
          noop: tool({
            inputSchema: z.object({}),
            execute: () => {
              ran.push("noop");
              return "ok";
            },
          }),
        },
        hooks: [
          defineHook({
            name: "stuck-guard",
            on: "tool_call",
            kind: "decide",
            onError: "fail_open", // an abort never fails open
            timeoutMs: 10_000, // were the run to wait for it, the trace would say "timeout"
            handler: () => {
              setImmediate(() => controller.abort());
              return new Promise<undefined>(() => {});
            },
          }),
        ],
      });
      const { result } = await runOn(surface, { agent }, "go", { signal: controller.signal });
      expect(ran).toEqual([]);
      expect(result.outcome).toBe("error");
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "stuck-guard", effect: "aborted" }),
      );
      expect(model.calls).toHaveLength(1);
    },
  );
});
