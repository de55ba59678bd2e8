/**
 * `inject_tool_call` and `compact_context`: validation, and behaviour through the loop
 * (config hooks compiled by loadConfig, scripted model, both surfaces).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { unpairedToolCallIds } from "../../context/tool-pairing.js";
import { defineHook, type Flow, type ModelMessage, type RunResult, scriptedModel } from "../../index.js";
import { MemoryStore } from "../../state/memory-store.js";
import { testEvaluation, testServices } from "../build/test-evaluation.js";
import { validateConfigText } from "../check/validate-config.js";
import { type LoadedConfig, loadConfig } from "../load-config.js";
import { formatIssue } from "../source/config-error.js";
import { compileAction } from "./index.js";

const dirs: string[] = [];
const opened: LoadedConfig[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((config) => config.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function loadText(yaml: string, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-context-actions-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, "config.yaml"), yaml);
  const config = await loadConfig(join(dir, "config.yaml"), { store: new MemoryStore(), logger: quiet });
  opened.push(config);
  return config;
}

function errors(yaml: string): string[] {
  return validateConfigText(yaml, "c.yaml").issues.map(formatIssue);
}

describe("validation", () => {
  it.each([
    [
      "inject_tool_call on tool_start",
      "runtime:\n  hooks:\n    - id: i\n      on: tool_start\n      action: { type: inject_tool_call, tool_name: t }\n",
      'c.yaml:5:23: runtime.hooks[0].action.type: action "inject_tool_call" cannot act on tool_call; expected an event among run_start, step_start',
    ],
    [
      "a TTL of 0 minutes",
      "runtime:\n  hooks:\n    - id: i\n      on: turn_start\n      action:\n        type: inject_tool_call\n        tool_name: t\n        refresh_condition: { kind: ttl, ttl_minutes: 0 }\n",
      "c.yaml:8:54: runtime.hooks[0].action.refresh_condition.ttl_minutes: 0 is too small; expected a number > 0",
    ],
    [
      "an unknown content strategy",
      "runtime:\n  hooks:\n    - id: i\n      on: turn_start\n      action: { type: inject_tool_call, tool_name: t, content: { strategy: llm } }\n",
      'unknown content strategy "llm"; valid: tool, static',
    ],
    [
      "compact_context on tool_end",
      "runtime:\n  hooks:\n    - id: c\n      on: tool_end\n      action: { type: compact_context }\n",
      'action "compact_context" cannot act on tool_result; expected an event among run_start, step_start, step_end, run_end',
    ],
    [
      "a target pressure above 1",
      "runtime:\n  hooks:\n    - id: c\n      on: turn_end\n      action: { type: compact_context, target_pressure: 1.5 }\n",
      "runtime.hooks[0].action.target_pressure",
    ],
    [
      "an unknown compaction strategy",
      "runtime:\n  hooks:\n    - id: c\n      on: turn_end\n      action: { type: compact_context, strategy: forget }\n",
      "runtime.hooks[0].action.strategy",
    ],
  ])("%s is an error", (_name, yaml, expected) => {
    const found = errors(yaml);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join("\n")).toContain(expected);
  });

  it("a manifest entry on another event than on_request_start is an error", () => {
    expect(errors('{"hooks": [{"kind": "tool_call", "event": "on_pre_llm", "tool_name": "t"}]}')).toEqual([
      'c.yaml:1:43: hooks[0].event: manifest hooks fire only on on_request_start, not "on_pre_llm"; expected "on_request_start" (use runtime.hooks for other events)',
    ]);
  });
});

/** The one compaction a compact_context action answered with. */
function compaction(result: Flow | undefined) {
  if (result?.type !== "editMessages") throw new Error(`expected editMessages, got ${result?.type}`);
  const edit = result.edits[0]!;
  if (edit.kind !== "compact" || typeof edit.replacement !== "function")
    throw new Error("expected a compaction");
  return { remove: edit.remove, replacement: edit.replacement };
}

describe("compact_context (unit)", () => {
  const messages: ModelMessage[] = Array.from({ length: 6 }, (_, index) => ({
    role: index % 2 ? "assistant" : "user",
    content: `message ${index}`,
  })) as ModelMessage[];

  it("summarize outside a loop (no ctx.model) fails when the loop asks for the summary", async () => {
    const action = compileAction({ type: "compact_context", keep_recent: 2 }, testServices(), ["action"]);
    const evaluation = testEvaluation({
      event: { type: "run_start", agentPath: ["main"], input: "x" },
      messages,
      context: { messages },
    });
    const edit = compaction(await action.run(evaluation));
    expect(edit.remove).toEqual(messages.slice(0, 4));
    await expect(Promise.resolve(edit.replacement(edit.remove))).rejects.toThrow(
      "strategy summarize needs a model",
    );
  });

  it("cooldown_turns: not again within that many runs once it compacted", async () => {
    const services = testServices();
    const action = compileAction(
      { type: "compact_context", strategy: "truncate", keep_recent: 1, cooldown_turns: 2 },
      services,
      ["action"],
    );
    const at = (turn: number) =>
      testEvaluation({
        event: { type: "run_start", agentPath: ["main"], input: "x" },
        messages,
        context: { messages, turn },
      });
    await compaction(await action.run(at(3))).replacement([]); // the loop applied it
    expect(await action.run(at(4))).toBeUndefined();
    expect(await action.run(at(5))).toBeDefined();
  });
});

describe.each(SURFACES)("through the loop on %s()", (surface) => {
  const TOOLS = `export const lookup = {
  description: "Look something up",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: ({ q }) => "a long answer about " + q + ": " + "lorem ipsum dolor sit amet ".repeat(50),
};
`;

  it("truncate with target_pressure: pairs kept, pressure under the target, the rest archived", async () => {
    const config = await loadText(
      `models:
  default: { provider: scripted, model: ./unused.yaml, context_window: 1500 }
toolsets:
  kb: { kind: module, path: ./tools.mjs }
runtime:
  hooks:
    - id: compact
      on: turn_start
      condition: { type: context_pressure, threshold: 0.5 }
      action: { type: compact_context, strategy: truncate, keep_recent: 2, target_pressure: 0.3 }
`,
      { "tools.mjs": TOOLS },
    );
    const script = [1, 2, 3, 4].flatMap((index) => [
      { tool_calls: [{ name: "kb_lookup", args: { q: `topic ${index}` } }] },
      { text: `answer ${index}` },
    ]);
    const model = scriptedModel(script);
    const agent = await config.createAgent(undefined, { model });
    const pressures: number[][] = [];
    agent.use(
      defineHook({
        name: "measure",
        on: "model_request",
        kind: "inspect",
        handler: (event, ctx) => {
          pressures.at(-1)!.push(ctx.contextWindow!.pressure(event.history));
        },
      }),
    );
    const results: RunResult[] = [];
    for (const input of ["one", "two", "three", "four"]) {
      pressures.push([]);
      const { result } = await runOn(surface, agent, input, { sessionId: "s" });
      results.push(result);
    }
    const compactedIn = results.map((result) => result.events.some((entry) => entry.hook === "compact"));
    expect(compactedIn).toEqual([false, false, false, true]);
    for (const result of results) {
      for (const request of result.requests) expect(unpairedToolCallIds(request.messages).size).toBe(0);
    }
    // The first request after the compaction is under the target; the one before was not.
    expect(pressures[2]!.at(-1)).toBeGreaterThan(0.5);
    expect(pressures[3]![0]).toBeLessThan(0.3);
    const session = (await config.store.loadSession("s"))!;
    expect(session.archived!.length).toBeGreaterThan(0);
    expect(unpairedToolCallIds(session.archived!).size).toBe(0);
    // Nothing lost: what was archived and what is kept hold every question.
    const questions = [...session.archived!, ...session.messages].filter(
      (message) => message.role === "user",
    );
    expect(questions.map((message) => message.content)).toEqual(["one", "two", "three", "four"]);
  });

  it("a chain of inject_tool_call and compact_context carries both edits", async () => {
    const config = await loadText(
      `models:
  default: { provider: scripted, model: ./unused.yaml, context_window: 100000 }
toolsets:
  kb: { kind: module, path: ./tools.mjs }
runtime:
  hooks:
    - id: both
      on: turn_start
      action:
        type: chain
        actions:
          - { type: compact_context, strategy: truncate, keep_recent: 2 }
          - { type: inject_tool_call, toolset_name: kb, tool_name: lookup, arguments: { q: news }, frequency: always }
`,
      { "tools.mjs": TOOLS },
    );
    const model = scriptedModel([{ text: "a1" }, { text: "a2" }, { text: "a3" }]);
    const agent = await config.createAgent(undefined, { model });
    for (const input of ["one", "two"]) await runOn(surface, agent, input, { sessionId: "s" });
    const { result } = await runOn(surface, agent, "three", { sessionId: "s" });
    expect(result.messages.map((message) => message.role)).toEqual([
      "system", // the truncation note: run 1, run 2's question and its injected pair went
      "assistant", // keep_recent 2 keeps run 2's pair whole…
      "tool",
      "assistant", // …and its answer
      "user", // three
      "assistant", // this run's injected pair, appended after the compaction
      "tool",
      "assistant",
    ]);
    expect(result.messages[0]!.content).toBe("[5 earlier messages were removed to save context.]");
    expect(unpairedToolCallIds(result.messages).size).toBe(0);
    // Equal pairs (frequency: always) still get distinct call ids.
    const ids = result.messages.flatMap((message) =>
      message.role === "tool"
        ? message.content.map((part) => (part as { toolCallId: string }).toolCallId)
        : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});
