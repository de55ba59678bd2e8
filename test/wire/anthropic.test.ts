/**
 * Wire tests, Anthropic Messages shape: the real `@ai-sdk/anthropic` provider against a
 * local HTTP server (JSON and SSE), on both surfaces.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, defineHook } from "../../src/index.js";
import { runOn, SURFACES } from "../support/surfaces.js";
import { addTool, textOf, WIRE_KEY, wireModel } from "./wire-fixtures.js";
import { startWireServer, type WireServer } from "./wire-server.js";

let server: WireServer;

beforeAll(async () => {
  server = await startWireServer("anthropic");
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function fixture() {
  const calls: Array<{ a: number; b: number }> = [];
  const errors: Array<{ type: string; code?: string; retryable: boolean }> = [];
  const agent = createAgent({
    model: wireModel("anthropic", server),
    instructions: "You add numbers.",
    tools: addTool(calls),
    retry: { initialDelayMs: 5 },
    hooks: [
      defineHook({
        name: "errors",
        on: "model_error",
        kind: "inspect",
        handler: (event) =>
          void errors.push({
            type: event.error.type,
            code: event.error.code,
            retryable: event.error.retryable,
          }),
      }),
    ],
  });
  return { agent, calls, errors };
}

const toolTurn = {
  kind: "answer" as const,
  reasoning: "I should call the add tool.",
  text: "Adding.",
  toolCalls: [{ id: "toolu_01", name: "add", args: { a: 17, b: 25 } }],
  usage: { input: 30, output: 12 },
};
const finalTurn = { kind: "answer" as const, text: "The sum is 42.", usage: { input: 50, output: 5 } };

function anthropicError(status: number, type: string, message: string, headers?: Record<string, string>) {
  return { kind: "error" as const, status, headers, body: { type: "error", error: { type, message } } };
}

describe("anthropic over the wire", () => {
  it("JSON and SSE give the same text, thinking, tool calls and usage", async () => {
    const outcomes = [];
    for (const surface of SURFACES) {
      server.reset();
      server.reply(toolTurn, finalTurn);
      const { agent, calls } = fixture();
      const { result, events } = await runOn(surface, agent, "What is 17 + 25?");
      expect(result.outcome).toBe("completed");
      expect(calls).toEqual([{ a: 17, b: 25 }]);
      expect(server.requests[0]!.path).toBe("/v1/messages");
      expect(server.requests[0]!.headers["x-api-key"]).toBe(WIRE_KEY);
      expect(server.requests.map((request) => request.stream)).toEqual([
        surface === "stream",
        surface === "stream",
      ]);
      const second = server.requests[1]!.body.messages as Array<{ role: string; content: any[] }>;
      expect(second.at(-1)!.content).toContainEqual(
        expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_01" }),
      );
      if (surface === "stream") {
        const reasoning = events
          .map((event) => (event.type === "reasoning-delta" ? event.delta : ""))
          .join("");
        expect(reasoning).toBe("I should call the add tool.");
        expect(textOf(events)).toBe("Adding.The sum is 42.");
        expect(events.filter((event) => event.type === "text-delta").length).toBeGreaterThan(2);
      }
      outcomes.push(result);
    }
    const [run, stream] = outcomes;
    expect(run!.text).toBe("The sum is 42.");
    expect(stream!.text).toBe(run!.text);
    expect(stream!.steps.map((step) => step.toolCalls)).toEqual(run!.steps.map((step) => step.toolCalls));
    expect(run!.steps[0]!.toolCalls).toMatchObject([
      { toolCallId: "toolu_01", toolName: "add", args: { a: 17, b: 25 } },
    ]);
    expect(run!.usage).toMatchObject({ inputTokens: 80, outputTokens: 17 });
    expect(stream!.usage).toEqual(run!.usage);
  });

  it.each(SURFACES)("%s: a 429 rate_limit_error honours retry-after-ms, then succeeds", async (surface) => {
    server.reply(
      anthropicError(429, "rate_limit_error", "Number of requests has exceeded your rate limit", {
        "retry-after-ms": "300",
      }),
      finalTurn,
    );
    const { agent, errors } = fixture();
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(errors).toEqual([{ type: "rate_limit", code: "rate_limit_error", retryable: true }]);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(270);
  });

  it.each(SURFACES)("%s: a 529 overloaded_error is retried", async (surface) => {
    server.reply(anthropicError(529, "overloaded_error", "Overloaded"), finalTurn);
    const { agent, errors } = fixture();
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(server.requests).toHaveLength(2);
    expect(errors).toEqual([{ type: "rate_limit", code: "overloaded_error", retryable: true }]);
  });

  it.each(SURFACES)("%s: a 401 authentication_error is tried once", async (surface) => {
    server.reply(anthropicError(401, "authentication_error", "invalid x-api-key"));
    const { agent, errors } = fixture();
    const { result } = await runOn(surface, agent, "hi");
    expect(server.requests).toHaveLength(1);
    expect(errors).toEqual([{ type: "auth", code: "authentication_error", retryable: false }]);
    expect(result.outcome).toBe("error");
    expect(result.reason).toBe(
      "model anthropic.messages:wire-model failed: auth (HTTP 401, authentication_error): invalid x-api-key",
    );
  });

  it.each(SURFACES)("%s: a prompt that is too long is context_overflow, not retried", async (surface) => {
    server.reply(
      anthropicError(400, "invalid_request_error", "prompt is too long: 208315 tokens > 200000 maximum"),
    );
    const { agent, errors } = fixture();
    const { result } = await runOn(surface, agent, "hi");
    expect(server.requests).toHaveLength(1);
    expect(errors).toEqual([{ type: "context_overflow", code: "invalid_request_error", retryable: false }]);
    expect(result.outcome).toBe("error");
  });

  it("stream: an overloaded error event mid-stream is retried; the retry's answer is committed", async () => {
    server.reply(
      {
        kind: "answer",
        text: "A first answer that breaks",
        breakAfter: 1,
        breakWith: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      },
      finalTurn,
    );
    const { agent, errors } = fixture();
    const { result } = await runOn("stream", agent, "hi");
    expect(errors).toEqual([{ type: "rate_limit", code: "overloaded_error", retryable: true }]);
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("The sum is 42.");
    expect(server.requests).toHaveLength(2);
  });
});
