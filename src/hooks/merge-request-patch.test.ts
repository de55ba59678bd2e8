/**
 * The RequestPatch merge rules, one test per rule. The provider-side effect of
 * each rule is checked at loop level in `agent/engine-request-patch.test.ts`.
 */
import { describe, expect, test } from "vitest";
import { deepMerge, mergeRequestPatches, type NamedPatch, type RequestPatch } from "../index.js";

const named = (...patches: RequestPatch[]): NamedPatch[] =>
  patches.map((patch, index) => ({ hook: `h${index + 1}`, patch }));

describe("mergeRequestPatches", () => {
  test("extraContext: appended in hook order", () => {
    const { patch } = mergeRequestPatches(
      named({ extraContext: ["a"] }, {}, { extraContext: [{ id: "x", text: "b" }, "c"] }),
    );
    expect(patch.extraContext).toEqual(["a", { id: "x", text: "b" }, "c"]);
  });

  test("appendToUserMessage: appended in hook order", () => {
    const { patch } = mergeRequestPatches(
      named({ appendToUserMessage: "one" }, { temperature: 1 }, { appendToUserMessage: "two" }),
    );
    expect(patch.appendToUserMessage).toBe("one\n\ntwo");
  });

  test("system: last writer wins, with a warning naming both hooks", () => {
    const merged = mergeRequestPatches(named({ system: "first" }, { system: "second" }));
    expect(merged.patch.system).toBe("second");
    expect(merged.setBy.system).toBe("h2");
    expect(merged.warnings).toHaveLength(1);
    expect(merged.warnings[0]).toContain('"h1"');
    expect(merged.warnings[0]).toContain('"h2"');
  });

  test("messages: last writer wins, with a warning naming both hooks", () => {
    const merged = mergeRequestPatches(
      named(
        { messages: [{ role: "user", content: "first" }] },
        { messages: [{ role: "user", content: "second" }] },
        { messages: [{ role: "user", content: "third" }] },
      ),
    );
    expect(merged.patch.messages).toEqual([{ role: "user", content: "third" }]);
    expect(merged.warnings).toEqual([
      expect.stringMatching(/"h1".*"h2"/),
      expect.stringMatching(/"h2".*"h3"/),
    ]);
  });

  test("a single writer of system / messages is no conflict", () => {
    expect(mergeRequestPatches(named({ system: "s" }, { messages: [] })).warnings).toEqual([]);
  });

  test("scalars: last writer wins per field, silently", () => {
    const merged = mergeRequestPatches(
      named(
        { temperature: 0.1, maxOutputTokens: 10, toolChoice: "none", seed: 1 },
        { temperature: 0.9, topP: 0.3, stopSequences: ["x"], toolChoice: { type: "tool", toolName: "a" } },
      ),
    );
    expect(merged.patch).toEqual({
      temperature: 0.9,
      maxOutputTokens: 10,
      topP: 0.3,
      seed: 1,
      stopSequences: ["x"],
      toolChoice: { type: "tool", toolName: "a" },
    });
    expect(merged.setBy).toMatchObject({ temperature: "h2", maxOutputTokens: "h1", toolChoice: "h2" });
    expect(merged.warnings).toEqual([]);
  });

  test("providerOptions: deep merge, later wins per key", () => {
    const { patch } = mergeRequestPatches(
      named(
        { providerOptions: { openai: { a: 1, nested: { x: 1, y: 1 } }, anthropic: { k: 1 } } },
        { providerOptions: { openai: { a: 2, nested: { y: 2 }, list: [1] } } },
        { providerOptions: { openai: { list: [2] } } },
      ),
    );
    expect(patch.providerOptions).toEqual({
      openai: { a: 2, nested: { x: 1, y: 2 }, list: [2] },
      anthropic: { k: 1 },
    });
  });

  test("activeTools: intersection, over canonical tool names; [] narrows to nothing", () => {
    const canonical = (name: string) => name.replace(".", "_");
    const merged = mergeRequestPatches(
      named(
        { activeTools: ["fs.read", "fs.write", "web.get"] },
        {},
        { activeTools: ["fs_read", "web_get", "x"] },
      ),
      canonical,
    );
    expect(merged.patch.activeTools).toEqual(["fs_read", "web_get"]);
    expect(merged.activeToolsBy).toEqual(["h1", "h3"]);
    expect(mergeRequestPatches(named({ activeTools: ["a"] }, { activeTools: [] })).patch.activeTools).toEqual(
      [],
    );
  });

  test("toolChoice naming a tool is canonicalised like activeTools", () => {
    const { patch } = mergeRequestPatches(
      named({ toolChoice: { type: "tool", toolName: "fs.read" } }),
      (name) => name.replace(".", "_"),
    );
    expect(patch.toolChoice).toEqual({ type: "tool", toolName: "fs_read" });
  });

  test("no patch, no field", () => {
    expect(mergeRequestPatches([]).patch).toEqual({});
    expect(mergeRequestPatches(named({}, {})).patch).toEqual({});
  });
});

describe("deepMerge", () => {
  test("does not mutate its inputs", () => {
    const base = { a: { b: 1 } };
    const over = { a: { c: 2 } };
    expect(deepMerge(base, over)).toEqual({ a: { b: 1, c: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
  });
});
