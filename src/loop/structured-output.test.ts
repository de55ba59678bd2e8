/** Structured final output: JSON asked of the provider, validated, retried with feedback, on both surfaces. */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent } from "../agent/create-agent.js";
import { scriptedModel } from "../models/scripted-model.js";

const Weather = z.object({ city: z.string(), celsius: z.number() });

function promptText(prompt: unknown): string {
  return JSON.stringify(prompt);
}

describe.each(SURFACES)("output schema on %s()", (surface) => {
  test("a missed answer is sent back with what was wrong; the next one is result.output", async () => {
    const model = scriptedModel([
      { text: "It is 21 degrees in Paris." },
      { text: '{"city": "Paris", "celsius": "21"}' },
      { text: '```json\n{"city": "Paris", "celsius": 21}\n```' },
    ]);
    const agent = createAgent({ model, output: Weather });
    const { result } = await runOn(surface, agent, "weather in Paris?");
    expect(result.outcome).toBe("completed");
    expect(result.output).toEqual({ city: "Paris", celsius: 21 });
    // The provider was asked for JSON of the schema, on every attempt.
    expect(model.calls[0]!.responseFormat).toMatchObject({
      type: "json",
      schema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } } },
    });
    // Each retry carried the missed answer and its problem; the first request had neither.
    expect(promptText(model.calls[0]!.prompt)).not.toContain("does not match the required output");
    expect(promptText(model.calls[1]!.prompt)).toContain("It is 21 degrees in Paris.");
    expect(promptText(model.calls[1]!.prompt)).toMatch(/the answer is not JSON/);
    expect(promptText(model.calls[2]!.prompt)).toMatch(/celsius/);
    // Only the accepted answer is in the transcript.
    const assistant = result.messages.filter((message) => message.role === "assistant");
    expect(assistant).toHaveLength(1);
    expect(JSON.stringify(assistant[0])).toContain('\\"celsius\\": 21');
  });

  test("when the retries are used up the run ends in an OutputValidationError, with no output", async () => {
    const model = scriptedModel([{ text: "no" }, { text: '{"city": 1}' }, { text: "never asked" }]);
    const agent = createAgent({ model, output: Weather, outputRetries: 1 });
    const { result } = await runOn(surface, agent, "weather?");
    expect(result.outcome).toBe("error");
    expect(result.output).toBeUndefined();
    expect(result.error?.name).toBe("OutputValidationError");
    expect(result.reason).toMatch(/does not match the output schema after 2 answers: .*city/);
    expect(model.calls).toHaveLength(2);
  });

  test("a plain JSON Schema's required names hold even where properties does not declare them", async () => {
    const model = scriptedModel([{ text: '{"verdict": {}}' }, { text: "never asked" }]);
    const agent = createAgent({
      model,
      output: {
        type: "object",
        properties: { verdict: { type: "object", required: ["approved"] } },
        required: ["verdict", "reason"],
      },
      outputRetries: 0,
    });
    const { result } = await runOn(surface, agent, "verdict?");
    expect(result.outcome).toBe("error");
    expect(result.output).toBeUndefined();
    expect(result.reason).toMatch(/does not match the output schema/);
  });

  test("tool calls come first; the answer after them is validated", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: "lookup", args: { city: "Oslo" }, id: "c1" }] },
      { text: '{"city": "Oslo", "celsius": -3}' },
    ]);
    const agent = createAgent({
      model,
      output: Weather,
      tools: {
        lookup: {
          inputSchema: z.object({ city: z.string() }),
          execute: ({ city }: { city: string }) => ({ city, celsius: -3 }),
        },
      },
    });
    const { result } = await runOn(surface, agent, "weather in Oslo?");
    expect(result.output).toEqual({ city: "Oslo", celsius: -3 });
    expect(result.steps).toHaveLength(2);
  });
});

test("a bad outputRetries is refused when the agent is created", () => {
  expect(() => createAgent({ model: scriptedModel([]), output: Weather, outputRetries: -1 })).toThrow(
    /outputRetries must be an integer ≥ 0 \(got -1\)/,
  );
});
