import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, MemoryStore, scriptedModel } from "../../index.js";
import { memoryToolset } from "./memory-toolset.js";

describe("builtin memory toolset", () => {
  it.each(SURFACES)("%s: a key-value store per session, kept in the StateStore", async (surface) => {
    const store = new MemoryStore();
    const memory = memoryToolset("memory", { store });
    expect(memory.tools.map((tool) => tool.functionName)).toEqual([
      "memory_set",
      "memory_get",
      "memory_delete",
      "memory_list",
      "memory_remember",
      "memory_get_memories",
    ]);
    const writer = createAgent({
      name: "main",
      store,
      tools: memory.tools,
      model: scriptedModel([
        {
          toolCalls: [
            { id: "a", name: "memory_set", args: { key: "city", value: "Paris" } },
            { id: "b", name: "memory_set", args: { key: "unit", value: { temperature: "C" } } },
            { id: "c", name: "memory_remember", args: { content: "likes tea" } },
            { id: "d", name: "memory_delete", args: { key: "unit" } },
          ],
        },
        { toolCalls: [{ id: "e", name: "memory_list", args: {} }] },
        { text: "stored" },
      ]),
    });
    const first = await runOn(surface, writer, "remember", { sessionId: "s1" });
    expect(first.result.steps[1]!.toolResults[0]!.result).toEqual({ city: "Paris" });
    expect(await store.get("memory:memory:s1")).toEqual({
      values: { city: "Paris" },
      memories: ["likes tea"],
    });

    const reader = createAgent({
      name: "main",
      store,
      tools: memory.tools,
      model: scriptedModel([
        {
          toolCalls: [
            { id: "f", name: "memory_get", args: { key: "city" } },
            { id: "g", name: "memory_get_memories", args: {} },
          ],
        },
        { text: "read" },
        {
          toolCalls: [{ id: "h", name: "memory_get", args: { key: "city" } }],
        },
        { text: "other session" },
      ]),
    });
    const same = await runOn(surface, reader, "recall", { sessionId: "s1" });
    expect(same.result.steps[0]!.toolResults.map((record) => record.result)).toEqual([
      "Paris",
      ["likes tea"],
    ]);
    const other = await runOn(surface, reader, "recall", { sessionId: "s2" });
    expect(other.result.steps[0]!.toolResults[0]!.result).toBeNull();
  });

  it("concurrent updates of one session are not lost", async () => {
    const store = new MemoryStore();
    const memory = memoryToolset("memory", { store });
    const remember = memory.tools.find((tool) => tool.name === "remember")!;
    const options = {
      toolCallId: "t",
      signal: new AbortController().signal,
      get abortSignal() {
        return this.signal;
      },
      messages: [],
      context: { sessionId: "s", runId: "r", step: 0, agentName: "main" },
    };
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => remember.execute({ content: `m${index}` }, options)),
    );
    expect(((await store.get("memory:memory:s")) as { memories: string[] }).memories).toHaveLength(20);
  });
});
