import { describe, expect, it } from "vitest";
import { delay, runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, scriptedModel, tool } from "../../index.js";

/** Three calls of a slow tool that tracks how many of its bodies run at once. */
function fixture(toolConcurrency?: number) {
  const tracker = { inFlight: 0, maxInFlight: 0, order: [] as string[] };
  const model = scriptedModel([
    {
      toolCalls: [
        { id: "s1", name: "slow", args: { label: "a" } },
        { id: "s2", name: "slow", args: { label: "b" } },
        { id: "s3", name: "slow", args: { label: "c" } },
      ],
    },
    { text: "all done" },
  ]);
  const agent = createAgent({
    model,
    ...(toolConcurrency === undefined ? {} : { toolConcurrency }),
    tools: {
      slow: tool({
        inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
        execute: async ({ label }: { label: string }) => {
          tracker.inFlight++;
          tracker.maxInFlight = Math.max(tracker.maxInFlight, tracker.inFlight);
          tracker.order.push(`start ${label}`);
          await delay(30);
          tracker.order.push(`end ${label}`);
          tracker.inFlight--;
          return label.toUpperCase();
        },
      }),
    },
  });
  return { agent, tracker };
}

describe("toolConcurrency", () => {
  it.each(SURFACES)("%s: toolConcurrency 3 overlaps three slow tools", async (surface) => {
    const { agent, tracker } = fixture(3);
    const { result } = await runOn(surface, agent, "go");
    expect(tracker.maxInFlight).toBe(3);
    expect(tracker.order.slice(0, 3)).toEqual(["start a", "start b", "start c"]);
    expect(result.outcome).toBe("completed");
    // Results are committed in call order, whatever order the bodies finished in.
    expect(result.steps[0]!.toolResults.map((record) => record.result)).toEqual(["A", "B", "C"]);
  });

  it.each(SURFACES)("%s: toolConcurrency 1 never overlaps", async (surface) => {
    const { agent, tracker } = fixture(1);
    const { result } = await runOn(surface, agent, "go");
    expect(tracker.maxInFlight).toBe(1);
    expect(tracker.order).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(result.steps[0]!.toolResults.map((record) => record.result)).toEqual(["A", "B", "C"]);
  });

  it.each(SURFACES)("%s: the default is sequential", async (surface) => {
    const { agent, tracker } = fixture();
    await runOn(surface, agent, "go");
    expect(tracker.maxInFlight).toBe(1);
  });

  it.each(SURFACES)("%s: toolConcurrency 2 runs at most two at once", async (surface) => {
    const { agent, tracker } = fixture(2);
    await runOn(surface, agent, "go");
    expect(tracker.maxInFlight).toBe(2);
  });

  it.each([0, -1, 1.5])("rejects toolConcurrency %s at createAgent", (value) => {
    expect(() => createAgent({ model: scriptedModel([]), toolConcurrency: value })).toThrow(
      /toolConcurrency/,
    );
  });
});
