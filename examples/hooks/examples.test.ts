/**
 * Runs every example of examples/hooks and checks the behaviour docs/hooks.md states for
 * it; also checks that each TypeScript block of docs/hooks.md is taken verbatim from an
 * example here, so the documentation only shows code that the suite executes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { HookLogger } from "../../src/index.js";
import { main as backupBeforeWrite } from "./backup-before-write.js";
import { main as decideDenyTool } from "./decide-deny-tool.js";
import { main as failClosed } from "./fail-closed.js";
import { type AuditEntry, main as inspectAuditLog } from "./inspect-audit-log.js";
import { main as policies } from "./policies.js";
import { printHookEvents, wipingAgent } from "./stream-hook-events.js";
import { main as injectContext, model as injectModel } from "./transform-inject-context.js";
import { CARD_NUMBER, main as redactResult } from "./transform-redact-result.js";
import { main as typedArguments } from "./typed-arguments.js";

describe("inspect: audit log", () => {
  it("records every call and result, the asynchronous writer included, before the run resolves", async () => {
    const sink: AuditEntry[] = [];
    const result = await inspectAuditLog(sink);
    expect(result.outcome).toBe("completed");
    expect(sink).toEqual([
      { event: "tool_call", tool: "weather", args: { city: "Paris" } },
      {
        event: "tool_result",
        tool: "weather",
        args: { city: "Paris" },
        result: { city: "Paris", temperatureC: 18 },
      },
    ]);
    expect(result.events).toEqual([
      { event: "tool_call", hook: "audit-calls", kind: "inspect", effect: "observed" },
      { event: "tool_result", hook: "audit-results", kind: "inspect", effect: "observed" },
    ]);
  });
});

describe("decide: deny a tool call", () => {
  it("the denied call never runs; its sibling does; the model learns why", async () => {
    const files = new Map([
      ["notes.md", "# notes"],
      ["secrets.env", "API_KEY=sk-123"],
    ]);
    const result = await decideDenyTool(files);
    expect(result.outcome).toBe("completed");
    expect([...files.keys()]).toEqual(["secrets.env"]); // the side effect is absent
    const [allowed, denied] = result.steps[0]!.toolResults;
    expect(allowed).toMatchObject({ executed: true, isError: false, result: "deleted notes.md" });
    expect(denied).toMatchObject({ executed: false, isError: true });
    expect(denied!.result).toBe(
      'tool "delete_file" was denied by hook "protect-env-files": secrets.env is protected',
    );
    const toolMessage = result.messages.find((message) => message.role === "tool");
    expect(JSON.stringify(toolMessage)).toContain("secrets.env is protected");
    expect(result.events).toEqual([
      {
        event: "tool_call",
        hook: "protect-env-files",
        kind: "decide",
        effect: "allow",
        toolCallId: expect.any(String),
        toolName: "delete_file",
      },
      {
        event: "tool_call",
        hook: "protect-env-files",
        kind: "decide",
        effect: "deny",
        toolCallId: expect.any(String),
        toolName: "delete_file",
        detail: "secrets.env is protected",
      },
    ]);
  });
});

describe("transform: redact a tool result", () => {
  it("the raw card number reaches neither the model, the transcript, the requests nor the trace", async () => {
    const result = await redactResult();
    expect(result.outcome).toBe("completed");
    expect(JSON.stringify(result)).not.toContain(CARD_NUMBER);
    expect(result.steps[0]!.toolResults[0]!.result).toEqual({
      id: "c-42",
      name: "Ada Lovelace",
      card: "[redacted card]",
      notes: "Called on 2024-05-01 about card [redacte…",
    });
  });

  it("chains in priority order: truncate sees the redacted result", async () => {
    const result = await redactResult();
    expect(result.events.map((entry) => [entry.hook, entry.effect])).toEqual([
      ["redact-card-numbers", "rewriteResult"],
      ["truncate-notes", "rewriteResult"],
    ]);
  });
});

describe("transform: inject request context", () => {
  it("each attempt carries only its own fresh context, in hook order, and the transcript none", async () => {
    const model = injectModel();
    const result = await injectContext(model);
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(2);
    const lastUserText = (index: number) => JSON.stringify(model.calls[index]!.prompt.at(-1));
    expect(lastUserText(0)).toContain("tick 1 (attempt 1)");
    expect(lastUserText(1)).toContain("tick 2 (attempt 2)");
    expect(lastUserText(1)).not.toContain("tick 1");
    for (const index of [0, 1]) {
      const text = lastUserText(index);
      expect(text.indexOf("clock")).toBeLessThan(text.indexOf("metric units"));
    }
    expect(result.requests.map((request) => request.attempt)).toEqual([1, 2]);
    expect(JSON.stringify(result.messages)).not.toContain("<context");
    expect(result.messages[0]).toEqual({ role: "user", content: "How warm is it?" });
  });
});

describe("policies", () => {
  it("allow-listed reads run, an approved write runs, the rest is denied and never runs", async () => {
    const written: string[] = [];
    const result = await policies(written);
    expect(written).toEqual(["drafts/plan.md"]);
    const outcomes = result.steps[0]!.toolResults.map((entry) => [entry.toolName, entry.executed]);
    expect(outcomes).toEqual([
      ["read_file", true],
      ["write_file", true],
      ["write_file", false],
      ["delete_file", false],
    ]);
    expect(result.steps[0]!.toolResults[3]!.result).toContain("not on the allow-list");
  });
});

describe("failure rules", () => {
  it("a throwing and a timed-out decide hook block their tools; fail_open lets its call through", async () => {
    const executed: string[] = [];
    const warnings: string[] = [];
    const logger: HookLogger = {
      debug() {},
      info() {},
      warn: (message) => warnings.push(message),
      error() {},
    };
    const result = await failClosed(executed, logger);
    expect(result.outcome).toBe("completed");
    expect(executed).toEqual(["send_receipt"]);
    const [charge, refund] = result.steps[0]!.toolResults;
    expect(charge!.result).toContain('hook "flaky-guard" on tool_call: threw: policy service unreachable');
    expect(refund!.result).toContain('hook "slow-guard" on tool_call: timed out after 50 ms');
    expect(result.events.map((entry) => [entry.hook, entry.effect])).toEqual([
      ["flaky-guard", "error"],
      ["slow-guard", "timeout"],
      ["optional-check", "fail_open"],
    ]);
    expect(warnings.some((message) => message.includes("optional-check"))).toBe(true);
  });
});

describe("stream: hook events", () => {
  it("one event per dispatch: both decide hooks' firings in one, the deny last; the tool never runs", async () => {
    const wiped: string[] = [];
    const lines: string[] = [];
    const result = await printHookEvents(wipingAgent(wiped), (line) => lines.push(line));
    expect(lines).toEqual(["tool_call: audit → continue", "tool_call: no-wipe → deny"]);
    expect(wiped).toEqual([]);
    expect(result.events.map((entry) => `${entry.hook}:${entry.effect}`)).toEqual([
      "audit:continue",
      "no-wipe:deny",
    ]);
    const events = [];
    for await (const event of wipingAgent().stream("wipe it")) if (event.type === "hook") events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]!.firings).toHaveLength(2);
  });
});

describe("typed arguments", () => {
  it("reads event.args.path without a cast: the write outside drafts/ is denied, the one inside runs", async () => {
    const { result, written } = await typedArguments();
    expect(result.outcome).toBe("completed");
    expect(written).toEqual(["drafts/notes.md"]);
  });
});

describe("docs/hooks.md", () => {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const sources = readdirSync(here)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => readFileSync(`${here}${name}`, "utf8"));
  const docs = readFileSync(fileURLToPath(new URL("../../docs/hooks.md", import.meta.url)), "utf8");
  const blocks = [...docs.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!.trimEnd());

  it("backup-before-write.ts saves the old content before the write replaces it", async () => {
    const { result, files, saved } = await backupBeforeWrite();
    expect(result.outcome).toBe("completed");
    expect(files.get("notes.md")).toBe("new notes");
    expect(saved.get("notes.md")).toBe("old notes");
  });

  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((block, index) => [index, block] as const))(
    "block %i is taken verbatim from an executed example",
    (_index, block) => {
      expect(sources.some((source) => source.includes(block))).toBe(true);
    },
  );
});
