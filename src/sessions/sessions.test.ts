import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, scriptedModel, tool } from "../index.js";

function fixture() {
  const model = scriptedModel([
    { toolCalls: [{ id: "t1", name: "remember", args: { fact: "the cat is Tom" } }] },
    { text: "Noted." },
    { text: "The cat is Tom." },
  ]);
  const agent = createAgent({
    model,
    instructions: "You remember things.",
    tools: {
      remember: tool({
        inputSchema: { type: "object", properties: { fact: { type: "string" } }, required: ["fact"] },
        execute: ({ fact }: { fact: string }) => `stored: ${fact}`,
      }),
    },
  });
  return { agent, model };
}

describe("sessions", () => {
  it.each(SURFACES)(
    "%s: a second run with the same sessionId sends the first run's messages",
    async (surface) => {
      const { agent, model } = fixture();
      const first = await runOn(surface, agent, "Remember: the cat is Tom.", { sessionId: "s-1" });
      expect(first.result.sessionId).toBe("s-1");
      expect(first.result.messages).toHaveLength(4); // user, assistant(tool call), tool, assistant

      const second = await runOn(surface, agent, "What is the cat called?", { sessionId: "s-1" });
      expect(second.result.sessionId).toBe("s-1");
      expect(second.result.runId).not.toBe(first.result.runId);

      // The provider call of run 2 carried run 1's transcript, then the new input.
      const prompt = model.calls[2]!.prompt;
      expect(prompt[0]).toEqual({ role: "system", content: "You remember things." });
      expect(prompt.slice(1)).toHaveLength(5);
      expect(prompt[1]).toEqual({
        role: "user",
        content: [{ type: "text", text: "Remember: the cat is Tom." }],
      });
      expect(JSON.stringify(prompt)).toContain("stored: the cat is Tom");
      expect(prompt.at(-1)).toEqual({
        role: "user",
        content: [{ type: "text", text: "What is the cat called?" }],
      });

      // The recorded request says the same, and the result holds both runs.
      expect(second.result.requests[0]!.messages).toEqual([
        ...first.result.messages,
        { role: "user", content: "What is the cat called?" },
      ]);
      expect(second.result.messages).toEqual([
        ...first.result.messages,
        { role: "user", content: "What is the cat called?" },
        { role: "assistant", content: [{ type: "text", text: "The cat is Tom." }] },
      ]);
      expect(second.result.text).toBe("The cat is Tom.");
    },
  );

  it.each(SURFACES)(
    "%s: runs without a sessionId, or with another one, do not share history",
    async (surface) => {
      const model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
      const agent = createAgent({ model });
      const first = await runOn(surface, agent, "first");
      const second = await runOn(surface, agent, "second");
      const third = await runOn(surface, agent, "third", { sessionId: "other" });
      expect(second.result.sessionId).not.toBe(first.result.sessionId);
      expect(model.calls[1]!.prompt).toEqual([{ role: "user", content: [{ type: "text", text: "second" }] }]);
      expect(model.calls[2]!.prompt).toEqual([{ role: "user", content: [{ type: "text", text: "third" }] }]);
      expect(third.result.messages).toHaveLength(2);
    },
  );

  it("a session started by run() continues on stream() and the other way round", async () => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const agent = createAgent({ model });
    await runOn("run", agent, "first", { sessionId: "mixed" });
    await runOn("stream", agent, "second", { sessionId: "mixed" });
    const third = await runOn("run", agent, "third", { sessionId: "mixed" });
    expect(third.result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(model.calls[2]!.prompt).toHaveLength(5);
  });
});
