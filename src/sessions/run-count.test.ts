/**
 * A run's `turn` is the session's count of runs, committed with its transcript: exact
 * across agents and processes, never shifted by injected user messages, and read from the
 * counter of earlier versions for sessions stored before the count was kept.
 */
import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, MemoryStore, scriptedModel } from "../index.js";
import type { StateStore } from "../state/state-store.js";

function counting(store: StateStore) {
  const turns: number[] = [];
  const agent = createAgent({
    model: scriptedModel(Array.from({ length: 10 }, () => ({ text: "ok" }))),
    store,
    hooks: [
      defineHook({
        name: "turns",
        on: "run_start",
        kind: "inspect",
        handler: (_event, context) => {
          turns.push(context.turn);
        },
      }),
      // A persisted user message each run: counting user messages would skip turns.
      defineHook({
        name: "inject",
        on: "run_start",
        kind: "transform",
        handler: () => ({ type: "inject", messages: [{ role: "user", content: "(reminder)" }] }),
      }),
    ],
  });
  return { agent, turns };
}

describe.each(SURFACES)("turn on %s()", (surface) => {
  it("counts committed runs, across agents sharing the store", async () => {
    const store = new MemoryStore();
    const first = counting(store);
    const second = counting(store);
    await runOn(surface, first.agent, "a", { sessionId: "s" });
    await runOn(surface, second.agent, "b", { sessionId: "s" });
    await runOn(surface, first.agent, "c", { sessionId: "s" });
    expect([...first.turns, ...second.turns].sort()).toEqual([0, 1, 2]);
    const stored = (await store.loadSession("s"))!;
    expect(stored.runs).toBe(3);
    expect(stored.messages.filter((message) => message.content === "(reminder)")).toHaveLength(3);
    // Nothing beside the session: the count lives in it.
    expect(store.size.values).toBe(0);
  });

  it("a session stored before the count was kept continues from its old counter, or its transcript", async () => {
    const store = new MemoryStore();
    const transcript = [
      { role: "user" as const, content: "one" },
      { role: "assistant" as const, content: "ok" },
    ];
    await store.saveSession({ id: "old", messages: transcript, createdAt: 0, updatedAt: 0, version: 0 });
    await store.set("session:old:runs", 5);
    await store.saveSession({ id: "older", messages: transcript, createdAt: 0, updatedAt: 0, version: 0 });
    const { agent, turns } = counting(store);
    await runOn(surface, agent, "x", { sessionId: "old" });
    await runOn(surface, agent, "y", { sessionId: "older" });
    expect(turns).toEqual([5, 1]);
    expect((await store.loadSession("old"))!.runs).toBe(6);
    expect((await store.loadSession("older"))!.runs).toBe(2);
  });
});
