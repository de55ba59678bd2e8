/**
 * Atomic tool batches (DESIGN §5, seed 001 round 3): on the first terminate, start no new
 * call, drop not-yet-started siblings, drain in-flight ones, report the lowest call index's
 * reason and commit nothing of the batch. `tool-execution-start` only for bodies that ran,
 * with the effective arguments; a skipped call surfaces only its result.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { deferred, runBoth, type SurfaceOutcome } from "../../../test/support/engine-harness.js";
import { type AnyHook, createAgent, defineHook, flow, scriptedModel, tool } from "../../index.js";

const calls = (ids: string[]) => ({
  toolCalls: ids.map((id) => ({ name: "work", args: { id }, id })),
});

function batchFixture(
  ids: string[],
  hooks: (ran: string[]) => AnyHook[],
  options: { toolConcurrency?: number; body?: (id: string) => Promise<void> | void } = {},
) {
  return () => {
    const ran: string[] = [];
    const finished: string[] = [];
    const model = scriptedModel([calls(ids), { text: "never" }]);
    const agent = createAgent({
      model,
      toolConcurrency: options.toolConcurrency ?? 1,
      tools: {
        work: tool({
          inputSchema: z.object({ id: z.string() }),
          execute: async ({ id }) => {
            ran.push(id);
            await options.body?.(id);
            finished.push(id);
            return `done ${id}`;
          },
        }),
      },
      hooks: hooks(ran),
    });
    return { agent, model, ran, finished };
  };
}

function expectNothingOfTheBatch(outcome: SurfaceOutcome<unknown>, ids: string[]) {
  const { result, stream } = outcome;
  // The transcript holds the user message only: no assistant tool call, no tool result.
  expect(result.messages).toEqual([{ role: "user", content: "go" }]);
  expect(JSON.stringify(result.messages)).not.toContain("tool-call");
  expect(result.steps).toEqual([]);
  const surfaced = stream.filter(
    (event) => event.type === "tool-execution-start" || event.type === "tool-result",
  );
  expect(surfaced).toEqual([]);
  // What the model emitted is still reported as emitted.
  if (outcome.surface === "stream") {
    expect(stream.filter((event) => event.type === "tool-call").map((event) => event.toolCallId)).toEqual(
      ids,
    );
  }
}

describe("atomic batches", () => {
  test("terminate on the 2nd of 3 sequential calls: the 3rd never runs, nothing of the batch is committed", async () => {
    const out = await runBoth(
      batchFixture(["c1", "c2", "c3"], () => [
        defineHook({
          name: "stop-at-c2",
          on: "tool_call",
          kind: "transform",
          handler: (event) => (event.toolCallId === "c2" ? flow.terminate("c2 is one too many") : undefined),
        }),
      ]),
    );
    for (const outcome of out.both) {
      const { fixture, result } = outcome;
      expect(fixture.ran).toEqual(["c1"]);
      expect(result).toMatchObject({
        outcome: "terminated",
        reason: "c2 is one too many",
        hook: "stop-at-c2",
      });
      expect(fixture.model.calls).toHaveLength(1);
      expectNothingOfTheBatch(outcome, ["c1", "c2", "c3"]);
    }
  });

  test("a terminate from tool_result also drops the rest of a sequential batch", async () => {
    const out = await runBoth(
      batchFixture(["c1", "c2", "c3"], () => [
        defineHook({
          name: "result-stop",
          on: "tool_result",
          kind: "transform",
          handler: (event) => (event.toolCallId === "c1" ? flow.terminate("enough") : undefined),
        }),
      ]),
    );
    for (const outcome of out.both) {
      expect(outcome.fixture.ran).toEqual(["c1"]);
      expect(outcome.result).toMatchObject({ outcome: "terminated", hook: "result-stop" });
      expectNothingOfTheBatch(outcome, ["c1", "c2", "c3"]);
    }
  });

  test("toolConcurrency 2: the not-yet-started sibling is dropped while the in-flight one drains", async () => {
    const out = await runBoth(() => {
      const c2Started = deferred();
      const c2Release = deferred();
      return batchFixture(
        ["c1", "c2", "c3"],
        () => [
          defineHook({
            name: "stop-at-c1",
            on: "tool_call",
            kind: "transform",
            handler: async (event) => {
              if (event.toolCallId !== "c1") return undefined;
              await c2Started.promise; // c2 is in flight now
              // Release c2 a macrotask later: by then the terminate has been recorded (its
              // path is microtasks only), so c2's worker finds the batch stopped.
              setImmediate(() => c2Release.resolve());
              return flow.terminate("stop c1");
            },
          }),
        ],
        {
          toolConcurrency: 2,
          body: async (id) => {
            if (id !== "c2") return;
            c2Started.resolve();
            await c2Release.promise;
          },
        },
      )();
    });
    for (const outcome of out.both) {
      const { fixture, result } = outcome;
      expect(fixture.ran).toEqual(["c2"]); // c1 terminated before its body, c3 never started
      expect(fixture.finished).toEqual(["c2"]); // the in-flight sibling drained
      expect(result).toMatchObject({ outcome: "terminated", reason: "stop c1", hook: "stop-at-c1" });
      expectNothingOfTheBatch(outcome, ["c1", "c2", "c3"]);
    }
  });

  test("the lowest call index's reason is reported, even when a higher index terminated first", async () => {
    const out = await runBoth(() => {
      const c2Terminated = deferred();
      return batchFixture(
        ["c1", "c2"],
        () => [
          defineHook({
            name: "stopper",
            on: "tool_call",
            kind: "transform",
            handler: async (event) => {
              if (event.toolCallId === "c2") {
                setImmediate(() => c2Terminated.resolve());
                return flow.terminate("reason of c2");
              }
              await c2Terminated.promise;
              return flow.terminate("reason of c1");
            },
          }),
        ],
        { toolConcurrency: 2 },
      )();
    });
    for (const outcome of out.both) {
      expect(outcome.fixture.ran).toEqual([]);
      expect(outcome.result).toMatchObject({ outcome: "terminated", reason: "reason of c1" });
      expectNothingOfTheBatch(outcome, ["c1", "c2"]);
    }
  });

  test("with concurrency, results are committed and surfaced in call order, not completion order", async () => {
    const out = await runBoth(() => {
      const c1Release = deferred();
      return batchFixture(["c1", "c2"], () => [], {
        toolConcurrency: 2,
        body: async (id) => {
          if (id === "c1") await c1Release.promise;
          else c1Release.resolve();
        },
      })();
    });
    for (const { fixture, result, stream, surface } of out.both) {
      expect(fixture.finished).toEqual(["c2", "c1"]);
      const tool = result.messages.find((message) => message.role === "tool")!;
      expect((tool.content as { toolCallId: string }[]).map((part) => part.toolCallId)).toEqual(["c1", "c2"]);
      if (surface === "stream") {
        const surfaced = stream
          .filter((event) => event.type === "tool-execution-start" || event.type === "tool-result")
          .map((event) => `${event.type}:${(event as { toolCallId: string }).toolCallId}`);
        expect(surfaced).toEqual([
          "tool-execution-start:c1",
          "tool-result:c1",
          "tool-execution-start:c2",
          "tool-result:c2",
        ]);
      }
    }
  });
});

describe("what the stream surfaces", () => {
  test("tool-execution-start only for bodies that ran, with the rewritten args; skipped and denied calls surface only their result", async () => {
    const out = await runBoth(
      batchFixture(["run", "skip", "deny"], () => [
        defineHook({
          name: "rewrite",
          on: "tool_call",
          kind: "transform",
          handler: (event) => {
            const { id } = event.args as { id: string };
            if (id === "skip") return flow.skip("skipped by hook");
            return flow.rewriteArgs({ id: `${id}-rewritten` });
          },
        }),
        defineHook({
          name: "deny",
          on: "tool_call",
          kind: "decide",
          handler: (event) =>
            (event.args as { id: string }).id.startsWith("deny") ? flow.deny("no") : undefined,
        }),
      ]),
    );
    // The second model turn exists in the script as "never": here the run completes with it.
    for (const { fixture, result, stream, surface } of out.both) {
      expect(fixture.ran).toEqual(["run-rewritten"]);
      expect(result.outcome).toBe("completed");
      if (surface !== "stream") continue;
      const surfaced = stream
        .filter((event) => event.type === "tool-execution-start" || event.type === "tool-result")
        .map((event) =>
          event.type === "tool-execution-start"
            ? { start: event.toolCallId, args: event.args }
            : { result: event.toolCallId, isError: event.isError },
        );
      expect(surfaced).toEqual([
        { start: "run", args: { id: "run-rewritten" } },
        { result: "run", isError: false },
        { result: "skip", isError: false },
        { result: "deny", isError: true },
      ]);
    }
  });
});
