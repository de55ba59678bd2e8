import { describe, expect, it } from "vitest";
import { createAgent, MemoryStore, policy, scriptedModel, tool } from "../index.js";
import { suspendedRunProblem } from "./suspended-run-shape.js";

/** A suspended run as the loop stores it. */
async function storedRun(): Promise<Record<string, unknown>> {
  const store = new MemoryStore();
  const agent = createAgent({
    model: scriptedModel([{ text: "Paying.", toolCalls: [{ name: "pay", args: { amount: 5 } }] }]),
    tools: {
      pay: tool({
        description: "pay",
        inputSchema: { type: "object", properties: {} },
        execute: () => "paid",
      }),
    },
    policies: [policy.askUser("pay")],
    store,
  });
  const result = await agent.run("pay it", { sessionId: "s" });
  expect(result.outcome).toBe("suspended");
  return (await store.get<Record<string, unknown>>(`run:${result.runId}:suspended`))!;
}

describe("suspendedRunProblem", () => {
  it("accepts what the loop stores", async () => {
    expect(suspendedRunProblem(await storedRun())).toBeUndefined();
  });

  it("names the first field that is wrong, by its path", async () => {
    const run = await storedRun();
    const pending = run.pending as { entries: unknown[]; turn: Record<string, unknown> };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...run, pending: { ...pending, entries: "?" } }, "pending.entries: "],
      [
        { ...run, pending: { ...pending, entries: [{ kind: "pending", toolCallId: 1 }] } },
        "pending.entries[0]",
      ],
      [{ ...run, token: undefined }, "token: "],
      [{ ...run, messages: [{ role: "robot", content: "x" }] }, "messages[0].role: "],
      [
        { ...run, pending: { ...pending, turn: { ...pending.turn, toolCalls: null } } },
        "pending.turn.toolCalls: ",
      ],
      [{ ...run, version: 2 }, "version: "],
      [{ ...run, onceKeys: [3] }, "onceKeys[0]: "],
    ];
    for (const [value, path] of cases)
      expect(suspendedRunProblem(value)).toMatch(new RegExp(`^${path.replace(/[[\]().]/g, "\\$&")}`));
    expect(suspendedRunProblem("a string")).toMatch(/^the record: /);
  });
});
