import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, scriptedModel, type ToolExecutionOptions, tool } from "../../index.js";

describe("tool execution", () => {
  it.each(SURFACES)(
    "%s: a throwing tool gives the model an error result and the run goes on",
    async (surface) => {
      const model = scriptedModel([
        { toolCalls: [{ id: "f1", name: "flaky", args: {} }] },
        { text: "The tool failed, sorry." },
      ]);
      const agent = createAgent({
        model,
        tools: {
          flaky: tool({
            inputSchema: z.object({}),
            execute: () => {
              throw new Error("disk on fire");
            },
          }),
        },
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("The tool failed, sorry.");
      expect(result.steps[0]!.toolResults[0]).toMatchObject({
        toolCallId: "f1",
        isError: true,
        executed: true,
      });
      const sent = JSON.stringify(model.calls[1]!.prompt);
      expect(sent).toContain("error-text");
      expect(sent).toContain("disk on fire");
    },
  );

  it.each(SURFACES)(
    "%s: a tool that changes its arguments changes its record, not the transcript",
    async (surface) => {
      const model = scriptedModel([
        {
          toolCalls: [
            { id: "m", name: "grab", args: { items: ["a"], n: 1 } },
            { id: "k", name: "keep", args: { b: 2, a: 1 } },
          ],
        },
        { text: "ok" },
      ]);
      const agent = createAgent({
        model,
        tools: {
          grab: tool({
            inputSchema: z.object({ items: z.array(z.string()), n: z.number() }),
            execute: (args) => {
              args.items.push("taken");
              args.n = 2;
              return "done";
            },
          }),
          // Validation reorders the keys: the record keeps them as the tool got them.
          keep: tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: () => "kept" }),
        },
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result.outcome).toBe("completed");
      const [grabbed, kept] = result.steps[0]!.toolResults;
      expect(grabbed!.args).toEqual({ items: ["a", "taken"], n: 2 });
      expect(result.steps[0]!.toolCalls[0]!.args).toEqual({ items: ["a", "taken"], n: 2 });
      expect(JSON.stringify(kept!.args)).toBe('{"a":1,"b":2}');
      const assistant = result.messages.find((message) => message.role === "assistant")!;
      expect(JSON.stringify(assistant.content)).toContain('"input":{"items":["a"],"n":1}');
      expect(JSON.stringify(assistant.content)).toContain('"input":{"b":2,"a":1}');
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain('"input":{"items":["a"],"n":1}');
    },
  );

  it.each(SURFACES)("%s: a tool receives its call id, the run's signal and identity", async (surface) => {
    const seen: ToolExecutionOptions[] = [];
    const model = scriptedModel([{ toolCalls: [{ id: "i1", name: "whoami" }] }, { text: "ok" }]);
    const agent = createAgent({
      name: "helper",
      model,
      tools: {
        whoami: tool({
          inputSchema: z.object({}),
          execute: (_args, options) => {
            seen.push(options);
            return "me";
          },
        }),
      },
    });
    const { result } = await runOn(surface, agent, "go", { sessionId: "sess" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.toolCallId).toBe("i1");
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]!.context).toEqual({
      sessionId: "sess",
      runId: result.runId,
      step: 0,
      agentName: "helper",
    });
  });

  it.each(SURFACES)("%s: a string result is sent as text, anything else as JSON", async (surface) => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "s", name: "value", args: { kind: "string" } },
          { id: "o", name: "value", args: { kind: "object" } },
          { id: "u", name: "value", args: { kind: "undefined" } },
        ],
      },
      { text: "ok" },
    ]);
    const agent = createAgent({
      model,
      tools: {
        value: tool({
          inputSchema: z.object({ kind: z.enum(["string", "object", "undefined"]) }),
          execute: ({ kind }) => (kind === "string" ? "plain" : kind === "object" ? { n: 1 } : undefined),
        }),
      },
    });
    const { result } = await runOn(surface, agent, "go");
    const toolMessage = result.messages.find((message) => message.role === "tool");
    expect((toolMessage!.content as { output: unknown }[]).map((part) => part.output)).toEqual([
      { type: "text", value: "plain" },
      { type: "json", value: { n: 1 } },
      { type: "json", value: null },
    ]);
  });
});
