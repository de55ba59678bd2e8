/**
 * What a step's tool results keep as their arguments (step-slots.ts `keptArgs`): the model's
 * own parsed arguments (the transcript's, not a copy) when the validated ones the tool ran
 * with read the same, key order and nested values included; else the validated ones.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createAgent, scriptedModel, tool } from "../index.js";

async function argsOf(schema: z.ZodType, args: unknown) {
  const seen: unknown[] = [];
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: "c1", name: "probe", args }] }, { text: "done" }]),
    tools: {
      probe: tool({
        inputSchema: schema as z.ZodObject,
        execute: (input: unknown) => {
          seen.push(input);
          return "ok";
        },
      }),
    },
  });
  const result = await agent.run("go");
  const kept = result.steps[0]!.toolResults[0]!.args;
  const assistant = result.messages.find((message) => message.role === "assistant")!;
  const part = (assistant.content as { type: string; input?: unknown }[]).find(
    (item) => item.type === "tool-call",
  )!;
  return { kept, model: part.input, ran: seen[0] };
}

describe("the arguments a tool result keeps", () => {
  test("the same after validation, nested lists and objects included: the model's own", async () => {
    const schema = z.object({
      name: z.string(),
      tags: z.array(z.object({ key: z.string(), on: z.boolean() })),
      meta: z.object({ depth: z.object({ level: z.number() }) }),
    });
    const args = { name: "x", tags: [{ key: "a", on: true }], meta: { depth: { level: 3 } } };
    const { kept, model, ran } = await argsOf(schema, args);
    expect(kept).toBe(model);
    expect(kept).toEqual(args);
    expect(ran).not.toBe(model);
  });

  test("a default the schema added, a key it stripped, or another key order: the validated ones", async () => {
    const added = await argsOf(z.object({ a: z.number(), b: z.number().default(7) }), { a: 1 });
    expect(added.kept).toEqual({ a: 1, b: 7 });
    expect(added.kept).not.toBe(added.model);

    const stripped = await argsOf(z.object({ a: z.number() }), { a: 1, extra: true });
    expect(stripped.kept).toEqual({ a: 1 });
    expect(Object.keys(stripped.kept as object)).toEqual(["a"]);

    const reordered = await argsOf(z.object({ a: z.number(), b: z.number() }), { b: 2, a: 1 });
    expect(Object.keys(reordered.kept as object)).toEqual(["a", "b"]);
    expect(reordered.kept).toBe(reordered.ran);

    const nested = await argsOf(z.object({ o: z.object({ x: z.number(), y: z.number().default(0) }) }), {
      o: { x: 1 },
    });
    expect(nested.kept).toEqual({ o: { x: 1, y: 0 } });
  });
});
