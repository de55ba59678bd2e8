/**
 * A run's set-up (drive.ts `openRun`): synchronous for a session the run names itself, a
 * promise otherwise. Either way the steps start after `run()` returned, a failed set-up is
 * a rejection (never a throw), and it gives back the session's turn.
 */
import { describe, expect, test } from "vitest";
import { createAgent } from "../agent/create-agent.js";
import { scriptedModel } from "../models/scripted-model.js";
import { MemoryStore } from "../state/memory-store.js";

describe("a run's set-up", () => {
  test("the model is first called after run() returned, with or without a sessionId", async () => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const agent = createAgent({ model });
    const fresh = agent.run("hi");
    expect(model.calls.length).toBe(0);
    expect((await fresh).text).toBe("one");
    const named = agent.run("again", { sessionId: "s1" });
    expect(model.calls.length).toBe(1);
    expect((await named).text).toBe("two");
    expect(model.calls.length).toBe(2);
  });

  test("a set-up that fails rejects, and the session's next run is not kept waiting", async () => {
    const store = new MemoryStore();
    let failures = 1;
    const load = store.loadSession.bind(store);
    store.loadSession = async (id: string) => {
      if (failures-- > 0) throw new Error("store unavailable");
      return load(id);
    };
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model, store, sessions: { waitMs: 200 } });
    let failed: Promise<unknown> | undefined;
    expect(() => {
      failed = agent.run("hi", { sessionId: "s1" });
    }).not.toThrow();
    await expect(failed).rejects.toThrow("store unavailable");
    expect(model.calls.length).toBe(0);
    const result = await agent.run("hi", { sessionId: "s1" });
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("ok");
  });

  test("input that is no user message rejects, never throws", async () => {
    const agent = createAgent({ model: scriptedModel([{ text: "never" }]) });
    let failed: Promise<unknown> | undefined;
    expect(() => {
      failed = agent.run([{ role: "assistant", content: "hi" }] as never);
    }).not.toThrow();
    await expect(failed).rejects.toThrow(TypeError);
  });
});
