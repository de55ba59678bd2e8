import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ACTIONS } from "../actions/index.js";
import { kindOutputsOf } from "../check/kind-outputs-of.js";
import { validateConfigText } from "../check/validate-config.js";
import { CONDITIONS } from "../conditions/index.js";
import { type KindFamily, keepKindOutput, kindKey, parseKind } from "./kind-outputs.js";

/** A module whose schema must not run: answered from the outputs, or the test fails. */
const unparsed = (type: string) => ({
  type,
  schema: {
    safeParse: () => {
      throw new Error("the schema ran");
    },
  } as unknown as z.ZodType<{ type: string }>,
});

describe("kind outputs", () => {
  it("answers every action's and condition's example with what its schema outputs, without running the schema", () => {
    const families: [
      KindFamily,
      ReadonlyMap<string, { type: string; schema: z.ZodType; example: unknown }>,
    ][] = [
      ["action", ACTIONS],
      ["condition", CONDITIONS],
    ];
    for (const [family, registry] of families) {
      for (const module of new Set(registry.values())) {
        const outputs: Record<string, string> = {};
        const output = module.schema.parse(module.example);
        keepKindOutput(outputs, family, module.type, module.example, output);
        const kept = parseKind(family, unparsed(module.type), module.example, outputs);
        expect(kept, `${family} ${module.type}`).toEqual({ success: true, data: output });
      }
    }
  });

  it("keeps the schema's output, its defaults filled in, as a fresh copy on each answer", () => {
    const schema = z.object({ type: z.literal("log"), level: z.string().default("info") });
    const outputs: Record<string, string> = {};
    keepKindOutput(outputs, "action", "log", { type: "log" }, schema.parse({ type: "log" }));
    const first = parseKind("action", unparsed("log"), { type: "log" }, outputs);
    expect(first).toEqual({ success: true, data: { type: "log", level: "info" } });
    (first as unknown as { data: { level: string } }).data.level = "changed";
    expect(parseKind("action", unparsed("log"), { type: "log" }, outputs)).toEqual({
      success: true,
      data: { type: "log", level: "info" },
    });
  });

  it("keeps nothing that JSON cannot hold as it is, and runs the schema for it", () => {
    const outputs: Record<string, string> = {};
    const at = new Date(0);
    keepKindOutput(outputs, "action", "x", { type: "x" }, { type: "x", at });
    keepKindOutput(outputs, "action", "x", { type: "x", missing: undefined }, { type: "x" });
    keepKindOutput(outputs, "action", "x", { type: "x", n: Number.NaN }, { type: "x" });
    keepKindOutput(outputs, "action", "x", { type: "x", big: 1 }, { type: "x", big: 10n });
    expect(outputs).toEqual({});
    const schema = z.object({ type: z.string(), at: z.date().default(at) });
    expect(parseKind("action", { type: "x", schema }, { type: "x" }, outputs)).toMatchObject({
      success: true,
      data: { type: "x", at },
    });
  });

  it("finds an output only by the same family, type and data (key order aside)", () => {
    const key = kindKey("condition", "not", { type: "not", condition: { type: "always", a: [1, "2"] } });
    expect(kindKey("condition", "not", { condition: { a: [1, "2"], type: "always" }, type: "not" })).toBe(
      key,
    );
    expect(kindKey("action", "not", { type: "not", condition: { type: "always", a: [1, "2"] } })).not.toBe(
      key,
    );
    expect(kindKey("condition", "not", { type: "not", condition: { type: "always", a: [1, 2] } })).not.toBe(
      key,
    );
    expect(kindKey("condition", "not", { type: "not", condition: { type: "always", a: [1] } })).not.toBe(key);
    const outputs: Record<string, string> = {};
    keepKindOutput(outputs, "condition", "never", { type: "never" }, { type: "never" });
    // Another input of the same type is parsed by its schema, and fails as it would.
    const other = parseKind("condition", CONDITIONS.get("never")!, { type: "never", extra: 1 }, outputs);
    expect(other.success).toBe(
      CONDITIONS.get("never")!.schema.safeParse({ type: "never", extra: 1 }).success,
    );
  });

  it("holds the output of every condition and action of a config's hooks, nested ones included", () => {
    const result = validateConfigText(
      [
        "runtime:",
        "  hooks:",
        "    - id: a",
        "      on: tool_call",
        "      condition: { type: not, condition: { type: tool_name, match: shell } }",
        "      action: { type: chain, actions: [{ type: log, message: hi }, { type: gate }] }",
        "agents:",
        "  - id: main",
        "    hooks:",
        "      - { id: b, on: run_end, action: { type: log, message: bye } }",
      ].join("\n"),
      "hookwise.yaml",
    );
    expect(result.issues.filter((issue) => issue.severity === "error")).toEqual([]);
    const outputs = kindOutputsOf(result.validated!);
    const kept = (family: KindFamily, value: { type: string; [field: string]: unknown }) =>
      JSON.parse(outputs[kindKey(family, value.type, value)!]!);
    expect(kept("action", { type: "log", message: "hi" })).toEqual({
      type: "log",
      message: "hi",
      level: "info",
    });
    expect(kept("action", { type: "log", message: "bye" })).toMatchObject({ level: "info" });
    expect(kept("action", { type: "gate" })).toEqual(ACTIONS.get("gate")!.schema.parse({ type: "gate" }));
    expect(kept("condition", { type: "tool_name", match: "shell" })).toBeDefined();
    // A hook without a condition compiles `always`, its default.
    expect(kept("condition", { type: "always" })).toEqual({ type: "always" });
    expect(Object.keys(outputs).filter((key) => key.startsWith("action:chain:"))).toHaveLength(1);
    expect(Object.keys(outputs).filter((key) => key.startsWith("condition:not:"))).toHaveLength(1);
  });
});
