import { jsonSchema } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, normalizeSchema, resolveTool, scriptedModel, tool } from "../index.js";

describe("resolveTool", () => {
  it("names a toolset's tool: qualified toolset.tool, function toolset_tool", () => {
    const resolved = resolveTool(
      "read",
      tool({ inputSchema: z.object({ path: z.string() }), execute: () => "" }),
      {
        toolset: "fs",
      },
    );
    expect(resolved).toMatchObject({
      qualifiedName: "fs.read",
      functionName: "fs_read",
      toolset: "fs",
      name: "read",
    });
    expect(resolved.description).toBe("");
  });

  it("accepts a plain object with a JSON Schema, no import of hookwise needed", () => {
    const resolved = resolveTool("echo", {
      description: "Echoes",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: ({ text }: { text: string }) => text,
    });
    expect(resolved.functionName).toBe("echo");
    expect(resolved.input.validate({ text: "hi" })).toEqual({ ok: true, value: { text: "hi" } });
    expect(resolved.input.validate({ text: 1 }).ok).toBe(false);
  });

  it("rejects a definition without execute and a schema that is not one", () => {
    expect(() => resolveTool("broken", { inputSchema: {} } as never)).toThrow(
      /tool "broken": expected an object/,
    );
    expect(() => resolveTool("bad", { inputSchema: "string", execute: () => 1 })).toThrow(
      /tool "bad": inputSchema must be a zod, Standard or AI SDK schema, or a JSON Schema object; got string/,
    );
  });
});

describe("normalizeSchema", () => {
  it("turns zod into the JSON Schema sent to the model, without $schema", () => {
    const schema = normalizeSchema(
      z.object({ a: z.number().describe("first"), b: z.number().optional() }),
      "t",
    );
    expect(schema.jsonSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number", description: "first" }, b: { type: "number" } },
      required: ["a"],
    });
    expect(schema.jsonSchema.$schema).toBeUndefined();
  });

  it("refuses a JSON Schema it cannot check, naming where, rather than accepting anything", () => {
    expect(() => normalizeSchema({ not: { type: "string" } }, "createAgent output")).toThrow(
      /^createAgent output: its JSON Schema cannot be checked \(not is not supported/,
    );
  });

  it("holds a plain JSON Schema's required names, declared in properties or not, at any depth", () => {
    const json = {
      type: "object",
      properties: { where: { type: "object", required: ["path"] } },
      required: ["where", "mode"],
    } as const;
    for (const schema of [normalizeSchema(json, "t"), normalizeSchema(jsonSchema(json as never), "t")]) {
      expect(schema.validate({ where: { path: "a" }, mode: 1 }).ok).toBe(true);
      expect(schema.validate({ where: { path: "a" } }).ok).toBe(false);
      expect(schema.validate({ where: {}, mode: 1 }).ok).toBe(false);
      expect(schema.validate({ mode: 1 }).ok).toBe(false);
    }
    // What the model is sent is the schema as given.
    expect(normalizeSchema(json, "t").jsonSchema).toEqual(json);
  });

  it("validates with zod and names the failing path", () => {
    const schema = normalizeSchema(z.object({ user: z.object({ age: z.number() }) }), "t");
    const checked = schema.validate({ user: { age: "old" } });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.message).toMatch(/^user\.age: /);
  });

  it("accepts the AI SDK's jsonSchema() wrapper", () => {
    const schema = normalizeSchema(
      jsonSchema({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
      "t",
    );
    expect(schema.jsonSchema).toMatchObject({ required: ["q"] });
    expect(schema.validate({}).ok).toBe(false);
    expect(schema.validate({ q: "x" }).ok).toBe(true);
  });

  it("defaults a missing schema to an empty object schema", () => {
    const schema = normalizeSchema(undefined, "t");
    expect(schema.jsonSchema).toEqual({ type: "object", properties: {} });
    expect(schema.validate({}).ok).toBe(true);
  });
});

describe("tools from a toolset in a run", () => {
  it.each(SURFACES)(
    "%s: the model calls the function name; hooks see the qualified name",
    async (surface) => {
      const seen: string[] = [];
      const model = scriptedModel([
        { toolCalls: [{ id: "r1", name: "fs_read", args: { path: "a.md" } }] },
        { text: "ok" },
      ]);
      const agent = createAgent({
        model,
        tools: [
          resolveTool(
            "read",
            tool({ inputSchema: z.object({ path: z.string() }), execute: ({ path }) => `read ${path}` }),
            {
              toolset: "fs",
            },
          ),
        ],
        hooks: [
          defineHook({
            name: "watch-fs",
            on: "tool_call",
            kind: "inspect",
            match: "fs.*",
            handler: (event) => {
              seen.push(`${event.toolName} ${event.qualifiedName}`);
            },
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "read a.md");
      expect(result.requests[0]!.tools.map((spec) => spec.name)).toEqual(["fs_read"]);
      expect(model.calls[0]!.tools?.map((spec) => spec.name)).toEqual(["fs_read"]);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({
        toolName: "fs_read",
        qualifiedName: "fs.read",
        result: "read a.md",
      });
      expect(seen).toEqual(["fs_read fs.read"]);
    },
  );

  it("rejects two tools with the same function name", () => {
    const definition = tool({ inputSchema: z.object({}), execute: () => 1 });
    expect(() =>
      createAgent({
        model: scriptedModel([]),
        tools: [resolveTool("b", definition, { toolset: "a" }), resolveTool("a_b", definition)],
      }),
    ).toThrow(/two tools share the function name "a_b"/);
  });
});
