import { describe, expect, it } from "vitest";
import { createAgent, defineHook, MemoryStore, scriptedModel } from "../index.js";

describe("agent.endSession", () => {
  it("fires session_end with the reason and the stored transcript, drops the scratchpad, keeps the transcript", async () => {
    const seen: { reason: string; messages: number; fromScratch: unknown }[] = [];
    const store = new MemoryStore();
    const agent = createAgent({
      model: scriptedModel([{ text: "hello" }]),
      store,
      hooks: [
        defineHook({
          name: "remember",
          on: "run_start",
          kind: "inspect",
          handler: (_event, ctx) => ctx.scratch.session.set("user", "ada"),
        }),
        defineHook({
          name: "goodbye",
          on: "session_end",
          kind: "inspect",
          handler: (event, ctx) =>
            void seen.push({
              reason: event.reason,
              messages: ctx.messages.length,
              fromScratch: ctx.scratch.session.get("user"),
            }),
        }),
      ],
    });
    await agent.run("hi", { sessionId: "s1" });
    await agent.endSession("s1", { reason: "idle" });
    expect(seen).toEqual([{ reason: "idle", messages: 2, fromScratch: "ada" }]);
    expect(agent.runtime.sessionScratch.has("s1")).toBe(false);
    expect((await store.loadSession("s1"))?.messages).toHaveLength(2);
    await agent.endSession("s1", { delete: true });
    expect(await store.loadSession("s1")).toBeUndefined();
    expect(seen.map((entry) => entry.reason)).toEqual(["idle", "closed"]);
  });
});
