import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, type ScriptStep, scriptedModel, tool } from "../index.js";

/** A model that asks for the tool forever (well, 50 times). */
function loopingFixture(maxSteps?: number) {
  const counter = { executed: 0 };
  const script: ScriptStep[] = Array.from({ length: 50 }, (_, index) => ({
    text: `step ${index}`,
    toolCalls: [{ name: "tick", args: {} }],
  }));
  const model = scriptedModel(script);
  const agent = createAgent({
    model,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    tools: {
      tick: tool({
        inputSchema: { type: "object" },
        execute: () => ++counter.executed,
      }),
    },
  });
  return { agent, model, counter };
}

describe("maxSteps", () => {
  it.each(SURFACES)("%s: a looping script ends with outcome max_steps", async (surface) => {
    const { agent, model, counter } = loopingFixture(3);
    const { result } = await runOn(surface, agent, "loop");
    expect(result.outcome).toBe("max_steps");
    expect(result.reason).toMatch(/maxSteps/);
    expect(model.calls).toHaveLength(3);
    expect(result.steps).toHaveLength(3);
    expect(counter.executed).toBe(3);
    expect(result.text).toBe("step 2");
  });

  it.each(SURFACES)("%s: the default maxSteps is 20", async (surface) => {
    const { agent, model } = loopingFixture();
    const { result } = await runOn(surface, agent, "loop");
    expect(result.outcome).toBe("max_steps");
    expect(model.calls).toHaveLength(20);
  });

  it.each(SURFACES)("%s: a run that finishes within maxSteps completes", async (surface) => {
    const model = scriptedModel([{ toolCalls: [{ name: "tick" }] }, { text: "finished" }]);
    const agent = createAgent({
      model,
      maxSteps: 2,
      tools: { tick: tool({ inputSchema: { type: "object" }, execute: () => 1 }) },
    });
    const { result } = await runOn(surface, agent, "loop");
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("finished");
  });

  it.each(SURFACES)("%s: retries do not count as steps", async (surface) => {
    const model = scriptedModel([{ error: { status: 429 } }, { text: "first try failed" }]);
    const agent = createAgent({ model, maxSteps: 1, retry: { initialDelayMs: 0 } });
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(2);
  });

  it("rejects maxSteps 0 at createAgent", () => {
    expect(() => createAgent({ model: scriptedModel([]), maxSteps: 0 })).toThrow(/maxSteps/);
  });
});
