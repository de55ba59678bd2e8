/**
 * Before-observers: inspect hooks on `tool_call` with `when: "before"` run after every
 * decide allowed the call and before the tool body, awaited, in priority order; their
 * failures are isolated; they never run for a call that will not happen.
 * Order: transforms → decides → before-observers → the operation → after-inspects.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { recordingLogger, runBoth } from "../../../test/support/engine-harness.js";
import {
  type AnyHook,
  createAgent,
  defineHook,
  flow,
  HookRegistry,
  scriptedModel,
  tool,
} from "../../index.js";

function fixture(hooks: (order: string[]) => AnyHook[]) {
  return () => {
    const order: string[] = [];
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
            order.push(`body:${path}`);
            return "ok";
          },
        }),
      },
      hooks: hooks(order),
    });
    return { agent, model, order, logger };
  };
}

const step = (order: string[], name: string, kind: "transform" | "decide" | "inspect", extra = {}): AnyHook =>
  ({
    name,
    on: "tool_call",
    kind,
    ...extra,
    handler: async (event: { args: unknown }) => {
      await Promise.resolve();
      order.push(`${name}:${(event.args as { path: string }).path}`);
      return kind === "transform" ? flow.rewriteArgs({ path: "b.txt" }) : undefined;
    },
  }) as unknown as AnyHook;

describe("when: before", () => {
  test("transforms → decides → before-observers (awaited, priority order) → body → after-inspects", async () => {
    const out = await runBoth(
      fixture((order) => [
        step(order, "after", "inspect", { priority: 1 }),
        step(order, "observer-2", "inspect", { when: "before", priority: 50 }),
        step(order, "observer-1", "inspect", { when: "before", priority: 10 }),
        step(order, "guard", "decide", { priority: 0 }),
        step(order, "rewrite", "transform", { priority: 200 }),
        defineHook({
          name: "slow-observer",
          on: "tool_call",
          kind: "inspect",
          when: "before",
          priority: 60,
          handler: async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            order.push("slow-observer:done");
          },
        }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(fixture.order).toEqual([
        "rewrite:a.txt",
        "guard:b.txt",
        "observer-1:b.txt",
        "observer-2:b.txt",
        "slow-observer:done",
        "body:b.txt",
        "after:b.txt",
      ]);
    }
  });

  test("a denied call: no before-observer runs", async () => {
    const out = await runBoth(
      fixture((order) => [
        step(order, "observer", "inspect", { when: "before" }),
        defineHook({ name: "no", on: "tool_call", kind: "decide", handler: () => flow.deny("no") }),
      ]),
    );
    for (const { fixture } of out.both) expect(fixture.order).toEqual([]);
  });

  test("an ask: the observer runs after the approval, only when approved", async () => {
    const ask = (answer: boolean) =>
      defineHook({
        name: "ask",
        on: "tool_call",
        kind: "decide",
        handler: () => flow.ask({ handler: () => answer }),
      });
    const approved = await runBoth(
      fixture((order) => [step(order, "observer", "inspect", { when: "before" }), ask(true)]),
    );
    for (const { fixture } of approved.both) expect(fixture.order).toEqual(["observer:a.txt", "body:a.txt"]);
    const refused = await runBoth(
      fixture((order) => [step(order, "observer", "inspect", { when: "before" }), ask(false)]),
    );
    for (const { fixture } of refused.both) expect(fixture.order).toEqual([]);
  });

  test("a failing observer is isolated: logged, traced, and the tool still runs", async () => {
    const out = await runBoth(
      fixture((order) => [
        defineHook({
          name: "broken",
          on: "tool_call",
          kind: "inspect",
          when: "before",
          handler: () => {
            throw new Error("backup disk full");
          },
        }),
        step(order, "next", "inspect", { when: "before" }),
      ]),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.order).toEqual(["next:a.txt", "body:a.txt"]);
      expect(fixture.logger.warnings.join("\n")).toContain("backup disk full");
      expect(result.events).toContainEqual(expect.objectContaining({ hook: "broken", effect: "error" }));
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ result: "ok", isError: false });
    }
  });

  test("registration refuses `when: before` where it cannot apply", () => {
    const handler = () => undefined;
    expect(
      () =>
        new HookRegistry([
          { name: "d", on: "tool_call", kind: "decide", when: "before", handler } as AnyHook,
        ]),
    ).toThrow(/inspect hooks/);
    expect(
      () =>
        new HookRegistry([
          { name: "r", on: "tool_result", kind: "inspect", when: "before", handler } as AnyHook,
        ]),
    ).toThrow(/applies to tool_call, not tool_result/);
    expect(
      () =>
        new HookRegistry([
          { name: "w", on: "tool_call", kind: "inspect", when: "now", handler } as unknown as AnyHook,
        ]),
    ).toThrow(/"before" or "after"/);
  });
});
