import { describe, expect, it } from "vitest";
import { runBoth, runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, type ScriptStep, scriptedModel } from "../index.js";

function fixture(script: ScriptStep[], maxRetries?: number) {
  const model = scriptedModel(script);
  const agent = createAgent({
    model,
    retry: { initialDelayMs: 0 },
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  return { agent, model };
}

describe("retries of a failed provider request", () => {
  it.each(SURFACES)("%s: a 429 on attempt 1 calls the model again and records attempt 2", async (surface) => {
    const { agent, model } = fixture([{ error: { status: 429, message: "rate limited" } }, { text: "done" }]);
    const { result } = await runOn(surface, agent, "hi");

    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("done");
    expect(model.calls).toHaveLength(2);
    expect(result.requests.map((request) => [request.step, request.attempt])).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]!.attempts).toBe(2);
    // The retry is the same request again: same transcript, nothing of the failure in it.
    expect(model.calls[1]!.prompt).toEqual(model.calls[0]!.prompt);
    expect(result.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ]);
  });

  it.each(SURFACES)("%s: a 5xx is retried too", async (surface) => {
    const { agent, model } = fixture([
      { error: { status: 503 } },
      { error: { status: 500 } },
      { text: "ok" },
    ]);
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(3);
    expect(result.steps[0]!.attempts).toBe(3);
  });

  it.each(SURFACES)("%s: a retry on a later step is recorded on that step", async (surface) => {
    const model = scriptedModel([
      { toolCalls: [{ name: "ping" }] },
      { error: { status: 429 } },
      { text: "pong received" },
    ]);
    const agent = createAgent({
      model,
      retry: { initialDelayMs: 0 },
      tools: { ping: { inputSchema: { type: "object" }, execute: () => "pong" } },
    });
    const { result } = await runOn(surface, agent, "ping please");
    expect(result.outcome).toBe("completed");
    expect(result.requests.map((request) => [request.step, request.attempt])).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
    ]);
    expect(result.steps.map((step) => step.attempts)).toEqual([1, 2]);
  });

  it.each(SURFACES)("%s: a 409 conflict is retried (the AI SDK marks it retryable)", async (surface) => {
    const { agent, model } = fixture([{ error: { status: 409 } }, { text: "ok" }]);
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(2);
  });

  it.each(SURFACES)("%s: a 4xx the provider marks retryable is retried", async (surface) => {
    const { agent, model } = fixture([{ error: { status: 400, retryable: true } }, { text: "ok" }]);
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(2);
  });

  it.each([400, 401, 403])(
    "a non-retryable %i is not retried and ends the run with outcome error",
    async (status) => {
      const { run, stream } = await runBoth(
        () => fixture([{ error: { status, message: `refused ${status}` } }, { text: "never" }]),
        "hi",
      );
      for (const { result, model } of [run, stream]) {
        expect(model.calls).toHaveLength(1);
        expect(result.outcome).toBe("error");
        expect(result.reason).toContain(`refused ${status}`);
        expect(result.error?.message).toContain(`refused ${status}`);
        expect(result.requests).toHaveLength(1);
        expect(result.text).toBe("");
      }
    },
  );

  it.each(SURFACES)("%s: maxRetries bounds the attempts (maxRetries + 1 calls)", async (surface) => {
    const { agent, model } = fixture(
      [
        { error: { status: 429, message: "still limited" } },
        { error: { status: 429 } },
        { text: "too late" },
      ],
      1,
    );
    const { result } = await runOn(surface, agent, "hi");
    expect(model.calls).toHaveLength(2);
    expect(result.outcome).toBe("error");
    expect(result.requests.map((request) => request.attempt)).toEqual([1, 2]);
  });

  it.each(SURFACES)("%s: maxRetries 0 never retries", async (surface) => {
    const { agent, model } = fixture([{ error: { status: 429 } }, { text: "too late" }], 0);
    const { result } = await runOn(surface, agent, "hi");
    expect(model.calls).toHaveLength(1);
    expect(result.outcome).toBe("error");
  });

  it.each(SURFACES)("%s: the default maxRetries is 2 (three attempts)", async (surface) => {
    const { agent, model } = fixture([
      { error: { status: 429 } },
      { error: { status: 429 } },
      { error: { status: 429 } },
      { text: "too late" },
    ]);
    const { result } = await runOn(surface, agent, "hi");
    expect(model.calls).toHaveLength(3);
    expect(result.outcome).toBe("error");
  });

  it("a Retry-After header sets the wait (coarse bound)", async () => {
    const { agent, model } = fixture([
      { error: { status: 429, headers: { "retry-after-ms": "50" } } },
      { text: "ok" },
    ]);
    const started = Date.now();
    const result = await agent.run("hi");
    expect(result.outcome).toBe("completed");
    expect(model.calls).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });
});
