import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, loadScript, scriptedModel, tool } from "../index.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-script-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const yaml = `# a scripted conversation
- tool_calls:
    - { name: fs_read, args: { path: notes.md } }
- error: { status: 429, message: rate limited }
- text: "Here is the summary of your notes."
  delay_ms: 1
`;

describe("loadScript", () => {
  it("reads a YAML script with the tool_calls spelling", () => {
    const entries = loadScript(write("script.yaml", yaml));
    expect(entries).toHaveLength(3);
    expect(entries[0]!.tool_calls).toEqual([{ name: "fs_read", args: { path: "notes.md" } }]);
    expect(entries[1]!.error).toEqual({ status: 429, message: "rate limited" });
    expect(entries[2]).toMatchObject({ text: "Here is the summary of your notes.", delayMs: 1 });
  });

  it.each(SURFACES)(
    "%s: a loaded YAML script drives a run: tool call, retried error, text",
    async (surface) => {
      const model = scriptedModel(loadScript(write("script.yaml", yaml)));
      const read: string[] = [];
      const agent = createAgent({
        model,
        retry: { initialDelayMs: 0 },
        tools: {
          fs_read: tool({
            inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
            execute: ({ path }: { path: string }) => {
              read.push(path);
              return "- buy milk";
            },
          }),
        },
      });
      const { result } = await runOn(surface, agent, "Summarise my notes");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("Here is the summary of your notes.");
      expect(read).toEqual(["notes.md"]);
      expect(model.calls).toHaveLength(3);
      expect(result.steps.map((step) => step.attempts)).toEqual([1, 2]);
    },
  );

  it("accepts a mapping with a script key, and JSON Lines", () => {
    expect(loadScript(write("wrapped.yaml", "script:\n  - text: hi\n"))).toEqual([{ text: "hi" }]);
    const jsonl = write("script.jsonl", '{"text":"one"}\n\n{"toolCalls":[{"name":"x"}]}\n');
    expect(loadScript(jsonl)).toEqual([{ text: "one" }, { toolCalls: [{ name: "x" }] }]);
  });

  it("names the file and the entry of an unknown key", () => {
    const path = write("typo.yaml", "- text: hi\n- tool_call: []\n");
    expect(() => loadScript(path)).toThrow(
      `scripted model: ${path}:2:3: entry 2 has unknown key "tool_call"; expected one of text, text_deltas, textDeltas, reasoning, toolCalls, tool_calls, error, usage, delayMs, delay_ms; did you mean "tool_calls"?`,
    );
    const camel = write("camel.yaml", "- text: hi\n- toolcalls: []\n");
    expect(() => loadScript(camel)).toThrow(/camel\.yaml:2:3: .*did you mean "tool_calls"\?/);
    const jsonl = write("typo.jsonl", '{"text":"hi"}\n\n{"text":"x","delay":5}\n');
    expect(() => loadScript(jsonl)).toThrow(/typo\.jsonl:3:13: entry 2 has unknown key "delay"/);
  });

  it("rejects a tool call without a name, or with an unknown key", () => {
    const nameless = write("nameless.yaml", "- tool_calls:\n    - { args: { a: 1 } }\n");
    expect(() => loadScript(nameless)).toThrow(/nameless\.yaml:2:7: entry 1 tool call 1 .*name/);
    const misspelled = write("misspelled.yaml", "- tool_calls:\n    - { name: add, arguments: { a: 1 } }\n");
    expect(() => loadScript(misspelled)).toThrow(
      /misspelled\.yaml:2:20: entry 1 tool call 1 has unknown key "arguments"; expected one of name, args, id/,
    );
  });

  it("text_deltas: a stream sends exactly those pieces, run() their joined text", async () => {
    const path = write("pieces.yaml", '- text_deltas: ["Hel", "lo, w", "orld."]\n- textDeltas: ["again"]\n');
    expect(loadScript(path)[0]).toEqual({ text_deltas: ["Hel", "lo, w", "orld."] });
    const streamed = createAgent({ name: "a", model: scriptedModel(loadScript(path)) }).stream("hi");
    const deltas: string[] = [];
    for await (const event of streamed) if (event.type === "text-delta") deltas.push(event.delta);
    expect(deltas).toEqual(["Hel", "lo, w", "orld."]);
    const result = await createAgent({ name: "a", model: scriptedModel(loadScript(path)) }).run("hi");
    expect(result.text).toBe("Hello, world.");
    const both = write("both.yaml", '- text: hi\n  text_deltas: ["h", "i"]\n');
    expect(() => loadScript(both)).toThrow(/both\.yaml:1:9: entry 1: give text or text_deltas, not both/);
    const numbers = write("numbers.yaml", "- text_deltas: [1, 2]\n");
    expect(() => loadScript(numbers)).toThrow(
      /numbers\.yaml:1:16: entry 1: text_deltas must be a list of strings/,
    );
  });

  it("rejects a file that is not a list, and a missing file", () => {
    expect(() => loadScript(write("map.yaml", "text: hi\n"))).toThrow(/must hold a list of entries/);
    expect(() => loadScript(join(dir, "missing.yaml"))).toThrow(/cannot read script file .*missing\.yaml/);
  });
});
