/**
 * `hookwise trace` shows what the web UI's timeline shows for the same run. One run is
 * streamed with every kind of firing (a retried attempt, a request patch, rewritten
 * arguments, a denial, a redacted result); its stream events are kept as the server keeps
 * them for the web UI (`appendEvent`) and read with the web UI's own timeline model
 * (`web/src/timeline-model.js`), its run record is printed by `traceLines`. Every hook row
 * of the web timeline (event, kind, effect, reason, each before/after), every tool card
 * (arguments, result) and every step is in the trace; and the record printed from the
 * store by `hookwise trace` is the same.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunRecord } from "../../src/agent/run-record.js";
import { loadRunRecords } from "../../src/agent/run-recorder.js";
import { traceLines } from "../../src/cli/commands/trace-command.js";
import { createAgent, defineHook, flow, MemoryStore, scriptedModel, tool } from "../../src/index.js";
import { appendEvent, type TimelineEvent } from "../../src/server/runs/run-timeline.js";
// @ts-expect-error: the web UI's sources are JavaScript without declarations
import { buildRun } from "../../web/src/timeline-model.js";

const INSTRUCTIONS = "You keep the docs folder tidy.";
const SECRET = "sk-live-42";

function agentWith(records: RunRecord[], store = new MemoryStore()) {
  return createAgent({
    instructions: INSTRUCTIONS,
    model: scriptedModel([
      { error: { status: 503, message: "overloaded" } },
      {
        text: "Reading, then tidying.",
        toolCalls: [
          { id: "c1", name: "read", args: { path: "a.md" } },
          { id: "c2", name: "remove", args: { path: "a.md" } },
        ],
      },
      { text: "Read a.md; removing it is not allowed.", reasoning: "The removal was denied; say so." },
    ]),
    tools: {
      read: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => `${path}: key=${SECRET}`,
      }),
      remove: tool({ inputSchema: z.object({ path: z.string() }), execute: () => "removed" }),
    },
    hooks: [
      defineHook({
        name: "docs-prefix",
        on: "tool_call",
        kind: "transform",
        match: "read",
        handler: (event) => flow.rewriteArgs({ path: `docs/${(event.args as { path: string }).path}` }),
      }),
      defineHook({
        name: "no-remove",
        on: "tool_call",
        kind: "decide",
        match: "remove",
        handler: () => flow.deny("removing is not allowed"),
      }),
      defineHook({
        name: "redact",
        on: "tool_result",
        kind: "transform",
        handler: (event) =>
          typeof event.result === "string"
            ? flow.rewriteResult(event.result.replace(SECRET, "[key]"))
            : undefined,
      }),
      defineHook({ name: "step-audit", on: "step_end", kind: "inspect", handler: () => undefined }),
      defineHook({
        name: "terse",
        on: "model_request",
        kind: "transform",
        handler: () => flow.patch({ system: "Answer tersely.", extraContext: ["today is Monday"] }),
      }),
    ],
    retry: { initialDelayMs: 0, maxDelayMs: 0 },
    store,
    recordRuns: true,
    onRunRecord: (record) => records.push(record),
  });
}

const short = (value: unknown) =>
  (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ");

describe("hookwise trace shows the web timeline's content", () => {
  it("every step, attempt, tool call and hook firing, with reasons and before/after", async () => {
    const records: RunRecord[] = [];
    const live = agentWith(records).stream("tidy the docs", { sessionId: "s1" });
    const events: TimelineEvent[] = [];
    for await (const event of live) appendEvent(events, event);
    const result = await live.result;
    appendEvent(events, { type: "run-finish", result });
    expect(result.outcome).toBe("completed");

    const trace = traceLines(records, () => INSTRUCTIONS).join("\n");
    const web = buildRun(events, INSTRUCTIONS) as {
      segments: {
        kind: string;
        index?: number;
        text?: string;
        reasoning?: string;
        items?: {
          type: string;
          entry?: { event: string; hook: string; kind: string; effect: string; detail?: unknown };
          changes?: { field: string; before: unknown; after: unknown }[];
          note?: string;
          toolName?: string;
          asked?: unknown;
          ran?: unknown;
          result?: unknown;
          isError?: boolean;
          /** A tool card's decisions: the hook rows about that call. */
          decisions?: {
            type: string;
            entry?: { event: string; hook: string; kind: string; effect: string; detail?: unknown };
            changes?: { field: string; before: unknown; after: unknown }[];
            note?: string;
          }[];
        }[];
      }[];
    };
    const steps = web.segments.filter((segment) => segment.kind === "step");
    expect(steps.length).toBe(2);
    let hooks = 0;
    for (const step of steps) {
      expect(trace).toContain(`── step ${(step.index ?? Number.NaN) + 1}`);
      if (step.text) expect(trace).toContain(`assistant: ${step.text}`);
      if (step.reasoning) expect(trace).toContain(`reasoning: ${step.reasoning}`);
      // A tool card's decisions read like the step's own rows.
      const rows = (step.items ?? []).flatMap((item) => [item, ...(item.decisions ?? [])]);
      for (const item of rows as NonNullable<typeof step.items>) {
        if (item.type === "hook") {
          const { entry } = item;
          hooks++;
          expect(trace).toContain(`hook ${entry!.hook} (${entry!.event}, ${entry!.kind}) → ${entry!.effect}`);
          if (["deny", "terminate", "ask", "retry"].includes(entry!.effect))
            expect(trace).toContain(`→ ${entry!.effect}: ${entry!.detail}`);
          for (const change of item.changes ?? []) {
            expect(trace).toContain(`${change.field}:`);
            if (change.before !== undefined && change.before !== "")
              expect(trace).toContain(`- ${short(change.before)}`);
            expect(trace).toContain(`+ ${short(change.after)}`);
          }
          if (item.note) expect(trace).toContain(item.note);
        } else {
          expect(trace).toContain(`${short(item.asked)}`);
          if (item.ran !== undefined) expect(trace).toContain(short(item.ran));
          expect(trace).toContain(`◀ ${item.isError ? "error: " : ""}${short(item.result)}`);
        }
      }
    }
    // The web timeline's firings: the patch on both requests, the rewrite, the denial, the redaction.
    expect(hooks).toBeGreaterThanOrEqual(5);
    // What the trace spells out, as the web does.
    expect(trace).toContain("attempt 1: failed: ");
    expect(trace).toContain("(retryable)");
    expect(trace).toMatch(/── step 1 · 2 attempts · scripted:\S+/);
    expect(trace).toContain(`read arguments:\n          - {"path":"a.md"}\n          + {"path":"docs/a.md"}`);
    expect(trace).toContain(`system:\n        - ${INSTRUCTIONS}\n        + Answer tersely.`);
    expect(trace).toContain("extraContext:\n        + today is Monday");
    expect(trace).toContain("hook no-remove (tool_call, decide) → deny: removing is not allowed");
    expect(trace).toContain("the original is not shown");
    // A step's end comes after its calls, as in the web timeline.
    expect(trace.indexOf("hook step-audit (step_end, inspect) → observed")).toBeGreaterThan(
      trace.indexOf("▶ remove"),
    );
    expect(trace).not.toContain(SECRET);
    expect(steps.some((step) => step.reasoning)).toBe(true);
    expect(trace).toContain("■ completed");
  });
});

describe("hookwise trace reads every stored form of a record", () => {
  it("the packed record a run stores, and a record stored whole (before records were packed), print as the run's own", async () => {
    const records: RunRecord[] = [];
    const store = new MemoryStore();
    const result = await agentWith(records, store).run("tidy the docs", { sessionId: "s1" });
    const expected = traceLines(records, () => INSTRUCTIONS);
    const [key] = await store.keys("hookwise:runs:s1:");
    expect((await store.get<{ format: number }>(key!))?.format).toBe(3);
    expect(traceLines(await loadRunRecords(store, "s1"), () => INSTRUCTIONS)).toEqual(expected);
    // As an earlier version stored it: the whole record, format 1.
    await store.set(key!, records[0]);
    expect((await store.get<{ format: number }>(key!))?.format).toBe(1);
    const loaded = await loadRunRecords(store, "s1");
    expect(loaded[0]!.runId).toBe(result.runId);
    expect(traceLines(loaded, () => INSTRUCTIONS)).toEqual(expected);
  });
});
