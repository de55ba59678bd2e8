/**
 * Recording runs: each attempt's answer, each call with its decisions and result (after
 * redaction), kept in the store; marks never reach the caller's trace; nothing registered
 * when recording is off.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, MemoryStore, scriptedModel, tool } from "../index.js";
import { loadRunRecords } from "./run-recorder.js";

const SECRET = "sk-live-123456";

function fixture(recordRuns: boolean | undefined, store = new MemoryStore()) {
  const deleted: string[] = [];
  const agent = createAgent({
    model: scriptedModel([
      { error: { status: 503, message: "overloaded" } },
      {
        toolCalls: [
          { id: "c1", name: "read", args: { path: "a.txt" } },
          { id: "c2", name: "remove", args: { path: "a.txt" } },
        ],
      },
      { text: "done" },
    ]),
    tools: {
      read: tool({ inputSchema: z.object({ path: z.string() }), execute: () => `key=${SECRET}` }),
      remove: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => {
          deleted.push(path);
          return "removed";
        },
      }),
    },
    hooks: [
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
    ],
    retry: { initialDelayMs: 0, maxDelayMs: 0 },
    store,
    ...(recordRuns === undefined ? {} : { recordRuns }),
  });
  return { agent, store, deleted };
}

describe.each(SURFACES)("recording runs (%s)", (surface) => {
  it("keeps every attempt, every call with its decisions, results after redaction", async () => {
    const { agent, store, deleted } = fixture(true);
    const { result, events } = await runOn(surface, agent, "tidy up", { sessionId: "s1" });
    expect(result.outcome).toBe("completed");
    expect(deleted).toEqual([]);
    // The caller's trace and stream are as without recording.
    expect(result.events.some((entry) => entry.hook.startsWith("hookwise:"))).toBe(false);
    expect(events.some((event) => event.type === "hook" && event.hook.startsWith("hookwise:"))).toBe(false);

    const [record, ...more] = await loadRunRecords(store, "s1");
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      runId: result.runId,
      input: "tidy up",
      outcome: "completed",
      text: "done",
    });
    expect(
      record!.attempts.map((attempt) => [attempt.step, attempt.attempt, Boolean(attempt.error)]),
    ).toEqual([
      [0, 1, true],
      [0, 2, false],
      [1, 1, false],
    ]);
    const [read, remove] = record!.steps[0]!.calls;
    expect(read).toMatchObject({ toolCallId: "c1", executed: true, result: "key=[key]" });
    expect(remove).toMatchObject({ toolCallId: "c2", executed: false, args: { path: "a.txt" } });
    expect(remove!.hooks).toContainEqual(
      expect.objectContaining({ hook: "no-remove", effect: "deny", detail: "removing is not allowed" }),
    );
    expect(read!.hooks.map((entry) => entry.hook)).toEqual(["redact"]);
    expect(JSON.stringify(await loadRunRecords(store, "s1"))).not.toContain(SECRET);
  });
});

describe("when runs are recorded", () => {
  it("not by default on an in-memory store, nor when turned off", async () => {
    for (const recordRuns of [undefined, false]) {
      const { agent, store } = fixture(recordRuns);
      const result = await agent.run("tidy up", { sessionId: "s1" });
      expect(result.outcome).toBe("completed");
      expect(await loadRunRecords(store, "s1")).toEqual([]);
      expect(await store.keys("hookwise:runs:")).toEqual([]);
    }
  });

  it("by default on a store shared beyond the process", async () => {
    const store = Object.assign(new MemoryStore(), { sharing: "shared" as const });
    const { agent } = fixture(undefined, store);
    await agent.run("tidy up", { sessionId: "s2" });
    expect((await loadRunRecords(store, "s2")).length).toBe(1);
  });
});
