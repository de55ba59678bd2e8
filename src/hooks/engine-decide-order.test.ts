/**
 * Decide order where a planted one-line bug once went unnoticed: of two `ask` answers the
 * first in priority order is the one asked (its reason, its handler, its hook); an async
 * `model_request` decide beside a transform and a later deny runs each hook exactly once.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runBoth } from "../../test/support/engine-harness.js";
import { createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";
import type { HookContext } from "./hook-context.js";
import { HookRegistry } from "./hook-registry.js";
import { HookRunner } from "./hook-runner.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function asks(calls: string[]) {
  return [
    defineHook({
      name: "second-ask",
      on: "tool_call",
      kind: "decide",
      priority: 20,
      handler: () =>
        flow.ask({
          reason: "second reason",
          handler: () => {
            calls.push("second");
            return false;
          },
        }),
    }),
    defineHook({
      name: "first-ask",
      on: "tool_call",
      kind: "decide",
      priority: 10,
      handler: async () =>
        flow.ask({
          reason: "first reason",
          handler: () => {
            calls.push("first");
            return true;
          },
        }),
    }),
  ];
}

describe("two decides answer ask", () => {
  test("the approval carries the first in priority order: reason, handler and hook", async () => {
    const calls: string[] = [];
    const runner = new HookRunner({
      registries: [{ registry: new HookRegistry(asks(calls)), depth: 0 }],
      log: silent,
    });
    const payload = {
      type: "tool_call",
      agentPath: ["a"],
      toolCallId: "c",
      toolName: "t",
      qualifiedName: "t",
      args: {},
    } as const;
    const outcome = await runner.blocking(payload, { signal: new AbortController().signal } as HookContext);
    expect(outcome.terminal?.hook).toBe("first-ask");
    expect(outcome.terminal?.flow).toMatchObject({ type: "ask", request: { reason: "first reason" } });
  });

  test("in a run: the first ask's handler answers (both surfaces)", async () => {
    const out = await runBoth(() => {
      const calls: string[] = [];
      const ran: string[] = [];
      const agent = createAgent({
        model: scriptedModel([{ toolCalls: [{ name: "pay", args: {} }] }, { text: "done" }]),
        tools: { pay: tool({ inputSchema: z.object({}), execute: () => ran.push("pay") && "paid" }) },
        hooks: asks(calls),
      });
      return { agent, calls, ran };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.calls).toEqual(["first"]);
      expect(fixture.ran).toEqual(["pay"]);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ result: "paid", isError: false });
    }
  });
});

describe("model_request: an async decide, a transform and a later deny", () => {
  test("the request is denied and each hook runs exactly once (both surfaces)", async () => {
    const out = await runBoth(() => {
      const fired: string[] = [];
      const model = scriptedModel([{ text: "never" }]);
      const agent = createAgent({
        model,
        hooks: [
          defineHook({
            name: "rag",
            on: "model_request",
            kind: "transform",
            handler: () => {
              fired.push("rag");
              return flow.patch({ system: "patched" });
            },
          }),
          defineHook({
            name: "quota",
            on: "model_request",
            kind: "decide",
            priority: 5,
            handler: () => {
              fired.push("quota");
              return flow.allow();
            },
          }),
          defineHook({
            name: "budget",
            on: "model_request",
            kind: "decide",
            priority: 10,
            handler: async () => {
              fired.push("budget");
              await new Promise((resolve) => setTimeout(resolve, 5));
              return flow.allow();
            },
          }),
          defineHook({
            name: "no-requests",
            on: "model_request",
            kind: "decide",
            priority: 20,
            handler: () => {
              fired.push("no-requests");
              return flow.deny("closed for today");
            },
          }),
        ],
      });
      return { agent, model, fired };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result).toMatchObject({
        outcome: "terminated",
        hook: "no-requests",
        reason: "closed for today",
      });
      expect(fixture.fired.sort()).toEqual(["budget", "no-requests", "quota", "rag"]);
    }
  });
});
