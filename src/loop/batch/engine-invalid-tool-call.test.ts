/**
 * `invalid_tool_call` recovery (DESIGN §5, seed 001): default feedback lists the available
 * tools; `retry(feedback)` re-asks the model without committing the bad call; `repair(call)`
 * runs the repaired call; `skip(result)` answers it.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runBoth, toolResultsSent } from "../../../test/support/engine-harness.js";
import {
  type AnyHook,
  createAgent,
  defineHook,
  flow,
  type ScriptStep,
  scriptedModel,
  tool,
} from "../../index.js";

function fixture(script: ScriptStep[], hooks: AnyHook[] = []) {
  return () => {
    const ran: unknown[] = [];
    const seen: unknown[] = [];
    const model = scriptedModel(script);
    const agent = createAgent({
      model,
      tools: {
        add: tool({
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }) => {
            ran.push({ a, b });
            return a + b;
          },
        }),
        echo: tool({ inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
      },
      hooks: [
        defineHook({
          name: "watch",
          on: "invalid_tool_call",
          kind: "inspect",
          handler: (event) => void seen.push({ reason: event.reason, tools: event.availableTools }),
        }),
        ...hooks,
      ],
    });
    return { agent, model, ran, seen };
  };
}

describe("invalid_tool_call", () => {
  test("default: the model gets an error listing the available tools", async () => {
    const out = await runBoth(fixture([{ toolCalls: [{ name: "multiply", args: {} }] }, { text: "sorry" }]));
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      const sent = toolResultsSent(fixture.model.calls[1]!.prompt)[0]!;
      expect(sent.output.type).toBe("error-text");
      expect(sent.output.value).toContain('"multiply"');
      expect(sent.output.value).toContain("add");
      expect(sent.output.value).toContain("echo");
      expect(fixture.seen).toEqual([{ reason: "unknown_tool", tools: ["add", "echo"] }]);
    }
  });

  test("arguments that fail the schema are invalid_args and the tool does not run", async () => {
    const out = await runBoth(
      fixture([{ toolCalls: [{ name: "add", args: { a: "one", b: 2 } }] }, { text: "sorry" }]),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(fixture.seen).toEqual([{ reason: "invalid_args", tools: ["add", "echo"] }]);
      expect(toolResultsSent(fixture.model.calls[1]!.prompt)[0]!.output.type).toBe("error-text");
    }
  });

  test("retry(feedback): re-asks the model with the feedback, without committing the bad call", async () => {
    const out = await runBoth(
      fixture(
        [
          { toolCalls: [{ name: "multiply", args: { a: 2, b: 3 }, id: "bad" }] },
          { toolCalls: [{ name: "add", args: { a: 2, b: 3 }, id: "good" }] },
          { text: "5" },
        ],
        [
          defineHook({
            name: "coach",
            on: "invalid_tool_call",
            kind: "transform",
            handler: (event) =>
              flow.retry(`no ${event.toolName}; use one of: ${event.availableTools.join(", ")}`),
          }),
        ],
      ),
    );
    for (const { fixture, result, stream, surface } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("5");
      const retried = JSON.stringify(fixture.model.calls[1]!.prompt);
      expect(retried).toContain("no multiply; use one of: add, echo");
      // The feedback is for that one re-ask: the next request does not carry it.
      expect(JSON.stringify(fixture.model.calls[2]!.prompt)).not.toContain("no multiply");
      expect(JSON.stringify(result.messages)).not.toContain("multiply");
      expect(JSON.stringify(result.messages)).not.toContain('"bad"');
      expect(fixture.ran).toEqual([{ a: 2, b: 3 }]);
      if (surface === "stream") {
        const results = stream.filter((event) => event.type === "tool-result");
        expect(results.map((event) => event.toolCallId)).toEqual(["good"]);
      }
    }
  });

  test("repair(call): the repaired call runs and its result reaches the model", async () => {
    const out = await runBoth(
      fixture(
        [{ toolCalls: [{ name: "sum", args: { x: 1, y: 2 } }] }, { text: "3" }],
        [
          defineHook({
            name: "fixer",
            on: "invalid_tool_call",
            kind: "transform",
            handler: (event) => {
              const { x, y } = event.args as { x: number; y: number };
              return flow.repair({ toolName: "add", args: { a: x, b: y } });
            },
          }),
        ],
      ),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.ran).toEqual([{ a: 1, b: 2 }]);
      expect(toolResultsSent(fixture.model.calls[1]!.prompt)[0]!.output).toEqual({ type: "json", value: 3 });
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolName: "add", executed: true, result: 3 });
    }
  });

  test("a repair that is still invalid gets the default error (no second recovery round)", async () => {
    const out = await runBoth(
      fixture(
        [{ toolCalls: [{ name: "sum", args: {} }] }, { text: "sorry" }],
        [
          defineHook({
            name: "bad-fixer",
            on: "invalid_tool_call",
            kind: "transform",
            handler: () => flow.repair({ toolName: "add", args: { a: "x" } }),
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(toolResultsSent(fixture.model.calls[1]!.prompt)[0]!.output.type).toBe("error-text");
    }
  });

  test("skip(result): the model gets the result verbatim, nothing runs", async () => {
    const out = await runBoth(
      fixture(
        [{ toolCalls: [{ name: "multiply", args: {} }] }, { text: "ok" }],
        [
          defineHook({
            name: "answer",
            on: "invalid_tool_call",
            kind: "transform",
            handler: () => flow.skip("multiplication is not available; do it in your head"),
          }),
        ],
      ),
    );
    for (const { fixture, stream, surface } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(toolResultsSent(fixture.model.calls[1]!.prompt)[0]!.output).toEqual({
        type: "text",
        value: "multiplication is not available; do it in your head",
      });
      if (surface === "stream") {
        expect(stream.some((event) => event.type === "tool-execution-start")).toBe(false);
        expect(stream.some((event) => event.type === "tool-result")).toBe(true);
      }
    }
  });

  test("retry before any sibling runs: a valid call earlier in the batch is not executed twice", async () => {
    const out = await runBoth(
      fixture(
        [
          {
            toolCalls: [
              { name: "add", args: { a: 1, b: 2 } },
              { name: "multiply", args: {} },
            ],
          },
          { toolCalls: [{ name: "add", args: { a: 1, b: 2 } }] },
          { text: "3" },
        ],
        [
          defineHook({
            name: "retry-invalid",
            on: "invalid_tool_call",
            kind: "transform",
            handler: () => flow.retry("multiply does not exist"),
          }),
        ],
      ),
    );
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      // The retried step's valid sibling never ran; only the re-asked step's call did.
      expect(fixture.ran).toEqual([{ a: 1, b: 2 }]);
    }
  });

  test("a turn sent back by retry fires no model_turn_finished; its usage still counts", async () => {
    const finished: string[] = [];
    const out = await runBoth(
      fixture(
        [
          {
            text: "bad",
            toolCalls: [{ name: "multiply", args: {} }],
            usage: { inputTokens: 10, outputTokens: 1 },
          },
          { text: "good", usage: { inputTokens: 20, outputTokens: 2 } },
        ],
        [
          defineHook({
            name: "retry-invalid",
            on: "invalid_tool_call",
            kind: "transform",
            handler: () => flow.retry(),
          }),
          defineHook({
            name: "finished",
            on: "model_turn_finished",
            kind: "inspect",
            handler: (event) => void finished.push(event.text),
          }),
        ],
      ),
    );
    expect(finished).toEqual(["good", "good"]);
    for (const { result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 3 });
    }
  });
});
