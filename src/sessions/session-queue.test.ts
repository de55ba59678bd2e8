import { describe, expect, it } from "vitest";
import { createAgent, MemoryStore, scriptedModel } from "../index.js";

describe("runs of one session", () => {
  it("take turns: two concurrent runs both keep their messages", async () => {
    const agent = createAgent({
      model: scriptedModel([{ text: "one", delayMs: 20 }, { text: "two" }, { text: "three" }]),
      store: new MemoryStore(),
    });
    await Promise.all([agent.run("first", { sessionId: "s" }), agent.run("second", { sessionId: "s" })]);
    const third = await agent.run("third", { sessionId: "s" });
    const users = third.messages
      .filter((message) => message.role === "user")
      .map((message) => message.content);
    expect(users).toEqual(["first", "second", "third"]);
    expect(third.messages).toHaveLength(6);
  });

  it("different sessions still run at the same time", async () => {
    const model = scriptedModel([
      { text: "x", delayMs: 40 },
      { text: "y", delayMs: 40 },
    ]);
    const agent = createAgent({ model });
    const both = Promise.all([agent.run("a", { sessionId: "a" }), agent.run("b", { sessionId: "b" })]);
    await new Promise((resolve) => setTimeout(resolve, 15));
    // Both model calls are in flight before either run ends (one session would queue).
    expect(model.calls).toHaveLength(2);
    await both;
  });

  it("one session queues: the second run's model call waits for the first run", async () => {
    const model = scriptedModel([{ text: "x", delayMs: 40 }, { text: "y" }]);
    const agent = createAgent({ model });
    const both = Promise.all([agent.run("a", { sessionId: "s" }), agent.run("b", { sessionId: "s" })]);
    await new Promise((resolve) => setTimeout(resolve, 15));
    expect(model.calls).toHaveLength(1);
    await both;
    expect(model.calls).toHaveLength(2);
  });
});
