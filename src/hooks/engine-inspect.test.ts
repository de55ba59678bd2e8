/**
 * Inspect hooks (DESIGN §3, seed 002): never block the path between operations (checked by
 * the recorded sequence, not by time), never lose events (the run resolves after they
 * settled), and an inspect error is isolated (the run completes).
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { deferred, recordingLogger, runBoth } from "../../test/support/engine-harness.js";
import { createAgent, defineHook, scriptedModel, tool } from "../index.js";

const noop = tool({ inputSchema: z.object({}), execute: () => "ok" });

describe("inspect hooks", () => {
  test("a slow inspect hook does not delay the next operation", async () => {
    const out = await runBoth(() => {
      const seq: string[] = [];
      const gate = deferred();
      const model = scriptedModel([
        { toolCalls: [{ name: "noop", args: {} }] },
        () => {
          seq.push("next model call");
          gate.resolve(); // only the main path going on can release the inspection
          return { text: "done" };
        },
      ]);
      const agent = createAgent({
        model,
        tools: { noop },
        hooks: [
          defineHook({
            name: "slow-audit",
            on: "tool_result",
            kind: "inspect",
            // If the loop waited for this hook, the gate would never open: it times out and
            // the sequence below shows the wrong order (the test fails, it does not hang).
            timeoutMs: 2_000,
            handler: async () => {
              seq.push("inspect started");
              await gate.promise;
              seq.push("inspect finished");
            },
          }),
        ],
      });
      return { agent, seq };
    });
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(fixture.seq).toEqual(["inspect started", "next model call", "inspect finished"]);
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "slow-audit", effect: "observed" }),
      );
    }
  });

  test("the run resolves only after its inspections settled; none is lost", async () => {
    const out = await runBoth(() => {
      const settled: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "noop", args: {} }] }, { text: "done" }]);
      const later = (name: string) => async () => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        settled.push(name);
      };
      const agent = createAgent({
        model,
        tools: { noop },
        hooks: [
          defineHook({
            name: "on-result",
            on: "tool_result",
            kind: "inspect",
            handler: later("tool_result"),
          }),
          defineHook({ name: "on-turn", on: "model_turn_finished", kind: "inspect", handler: later("turn") }),
          defineHook({ name: "on-end", on: "run_end", kind: "inspect", handler: later("run_end") }),
        ],
      });
      return { agent, settled };
    });
    for (const { fixture, result, stream, surface } of out.both) {
      expect([...fixture.settled].sort()).toEqual(["run_end", "tool_result", "turn", "turn"]);
      expect(result.events.filter((entry) => entry.kind === "inspect")).toHaveLength(4);
      if (surface === "stream") {
        // Every hook event is surfaced before run-finish.
        const finish = stream.findIndex((event) => event.type === "run-finish");
        expect(stream.filter((event, index) => event.type === "hook" && index > finish)).toEqual([]);
        expect(stream.filter((event) => event.type === "hook")).toHaveLength(4);
      }
    }
  });

  test("an inspect error or timeout is isolated: logged, traced, and the run completes", async () => {
    const out = await runBoth(() => {
      const logger = recordingLogger();
      const model = scriptedModel([{ toolCalls: [{ name: "noop", args: {} }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        logger,
        tools: { noop },
        hooks: [
          defineHook({
            name: "broken-audit",
            on: "tool_call",
            kind: "inspect",
            handler: () => {
              throw new Error("audit sink down");
            },
          }),
          defineHook({
            name: "hung-audit",
            on: "tool_result",
            kind: "inspect",
            timeoutMs: 20,
            handler: () => deferred().promise,
          }),
        ],
      });
      return { agent, model, logger };
    });
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("done");
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ executed: true, isError: false });
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "broken-audit", effect: "error" }),
      );
      expect(result.events).toContainEqual(
        expect.objectContaining({ hook: "hung-audit", effect: "timeout" }),
      );
      expect(fixture.logger.warnings.some((message) => message.includes("audit sink down"))).toBe(true);
    }
  });

  test("an inspection sees the event as it was, even if it reads it after the run moved on", async () => {
    const out = await runBoth(() => {
      const lengths: number[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "noop", args: {} }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: { noop },
        hooks: [
          defineHook({
            name: "late-reader",
            on: "model_request",
            kind: "inspect",
            handler: async (event) => {
              await new Promise((resolve) => setTimeout(resolve, 15));
              lengths.push(event.history.length, event.request.messages.length);
            },
          }),
        ],
      });
      return { agent, lengths };
    });
    for (const { fixture } of out.both) expect([...fixture.lengths].sort()).toEqual([1, 1, 3, 3]);
  });
});
