/**
 * Wire tests, OpenAI Chat Completions shape: the real `@ai-sdk/openai` (`.chat`) and
 * `@ai-sdk/openai-compatible` providers against a local HTTP server, on both surfaces.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, defineHook, flow, ModelError } from "../../src/index.js";
import { runOn, SURFACES } from "../support/surfaces.js";
import { addTool, textOf, WIRE_KEY, wireModel } from "./wire-fixtures.js";
import { startWireServer, type WireServer } from "./wire-server.js";

let server: WireServer;

beforeAll(async () => {
  server = await startWireServer("openai-chat");
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const PROVIDERS = ["openai-chat", "openai-compatible"] as const;
const CASES = PROVIDERS.flatMap((provider) => SURFACES.map((surface) => [provider, surface] as const));

function agentOn(provider: string, options: { maxRetries?: number } = {}) {
  const calls: Array<{ a: number; b: number }> = [];
  const agent = createAgent({
    model: wireModel(provider, server),
    instructions: "You add numbers.",
    tools: addTool(calls),
    retry: { initialDelayMs: 5 },
    ...options,
  });
  return { agent, calls };
}

const toolTurn = {
  kind: "answer" as const,
  text: "Let me add those.",
  toolCalls: [{ id: "call_add_1", name: "add", args: { a: 17, b: 25 } }],
  usage: { input: 20, output: 9 },
};
const finalTurn = { kind: "answer" as const, text: "17 + 25 = 42.", usage: { input: 40, output: 6 } };

describe.each(PROVIDERS)("%s over the wire", (provider) => {
  it("streamed and non-streamed runs give the same text, tool calls, transcript and usage", async () => {
    const outcomes = [];
    for (const surface of SURFACES) {
      server.reset();
      server.reply(toolTurn, finalTurn);
      const { agent, calls } = agentOn(provider);
      const { result, events } = await runOn(surface, agent, "What is 17 + 25?");
      expect(result.outcome).toBe("completed");
      expect(calls).toEqual([{ a: 17, b: 25 }]);
      expect(server.requests.map((request) => request.stream)).toEqual([
        surface === "stream",
        surface === "stream",
      ]);
      // The key came from the environment into the Authorization header.
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${WIRE_KEY}`);
      // The second request carries the tool result back to the model.
      const sent = server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
      expect(sent.find((message) => message.role === "tool")).toMatchObject({ content: "42" });
      if (surface === "stream") {
        // Text arrived as several deltas; the tool call's arguments were cut in pieces on the wire.
        expect(events.filter((event) => event.type === "text-delta").length).toBeGreaterThan(2);
        expect(textOf(events)).toBe("Let me add those.17 + 25 = 42.");
      }
      outcomes.push(result);
    }
    const [run, stream] = outcomes;
    expect(stream!.text).toBe("17 + 25 = 42.");
    expect(stream!.text).toBe(run!.text);
    expect(stream!.messages).toEqual(run!.messages);
    expect(stream!.steps.map((step) => step.toolCalls)).toEqual(run!.steps.map((step) => step.toolCalls));
    expect(run!.messages[1]).toMatchObject({
      role: "assistant",
      content: [
        { type: "text", text: "Let me add those." },
        { type: "tool-call", toolCallId: "call_add_1", toolName: "add", input: { a: 17, b: 25 } },
      ],
    });
    // Usage: the JSON body's, or the stream's last chunk.
    expect(run!.usage).toMatchObject({ inputTokens: 60, outputTokens: 15, totalTokens: 75 });
    expect(stream!.usage).toEqual(run!.usage);
  });

  it.each(SURFACES)(
    "%s: a 429 with Retry-After: 1 is waited about a second, then succeeds",
    async (surface) => {
      server.reply(
        {
          kind: "error",
          status: 429,
          headers: { "retry-after": "1" },
          body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
        },
        finalTurn,
      );
      const { agent } = agentOn(provider);
      const { result } = await runOn(surface, agent, "hi");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("17 + 25 = 42.");
      expect(server.requests).toHaveLength(2);
      const waited = server.requests[1]!.at - server.requests[0]!.at;
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(5000);
      expect(result.requests.map((request) => request.attempt)).toEqual([1, 2]);
    },
  );

  it.each(SURFACES)("%s: a 500 is retried with backoff and the next attempt answers", async (surface) => {
    server.reply(
      {
        kind: "error",
        status: 500,
        body: { error: { message: "The server had an error", type: "server_error" } },
      },
      finalTurn,
    );
    const errors: string[] = [];
    const agent = createAgent({
      model: wireModel(provider, server),
      retry: { initialDelayMs: 5 },
      hooks: [
        defineHook({
          name: "seen",
          on: "model_error",
          kind: "inspect",
          handler: (event) => void errors.push(`${event.error.type}/${event.error.status}`),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(server.requests).toHaveLength(2);
    expect(errors).toEqual(["internal/500"]);
  });

  it.each(SURFACES)(
    "%s: a 401 is tried once; the error names the provider and the cause",
    async (surface) => {
      server.reply({
        kind: "error",
        status: 401,
        body: {
          error: {
            message: "Incorrect API key provided",
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        },
      });
      const { agent } = agentOn(provider);
      const { result } = await runOn(surface, agent, "hi");
      expect(server.requests).toHaveLength(1);
      expect(result.outcome).toBe("error");
      const providerId = provider === "openai-chat" ? "openai.chat" : "openai-compatible.chat";
      expect(result.reason).toBe(
        `model ${providerId}:wire-model failed: auth (HTTP 401, invalid_api_key): Incorrect API key provided`,
      );
      expect(result.error?.name).toBe("ModelError");
      expect(result.requests[0]!.model).toBe(`${providerId}:wire-model`);
    },
  );

  it.each(SURFACES)("%s: a malformed answer fails the attempt, which is retried", async (surface) => {
    // Non-streaming: a body that is not JSON. Streaming: a chunk cut in the middle, after text.
    server.reply({ kind: "malformed" }, finalTurn);
    const types: string[] = [];
    const agent = createAgent({
      model: wireModel(provider, server),
      retry: { initialDelayMs: 5 },
      hooks: [
        defineHook({
          name: "seen",
          on: "model_error",
          kind: "inspect",
          handler: (event) => void types.push(`${event.error.type}:${event.error.retryable}`),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "hi");
    expect(types).toEqual(["internal:true"]);
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("17 + 25 = 42.");
    expect(server.requests).toHaveLength(2);
  });

  it("stream: an error event mid-stream is an attempt failure, retried like any other", async () => {
    server.reply(
      {
        kind: "answer",
        text: "This answer breaks off",
        breakAfter: 2,
        breakWith: { error: { message: "The server had an error while processing", type: "server_error" } },
      },
      finalTurn,
    );
    const { agent } = agentOn(provider);
    const { result, events } = await runOn("stream", agent, "hi");
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("17 + 25 = 42.");
    expect(server.requests).toHaveLength(2);
    // The failed attempt's deltas were surfaced live; only the accepted attempt is committed.
    expect(textOf(events)).toContain("This answer");
    expect(result.messages.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "17 + 25 = 42." }],
    });
  });

  it.each(SURFACES)(
    "%s: insufficient_quota (sent as a 429) is billing and is not retried",
    async (surface) => {
      server.reply({
        kind: "error",
        status: 429,
        body: {
          error: {
            message: "You exceeded your current quota, please check your plan and billing details.",
            type: "insufficient_quota",
            code: "insufficient_quota",
          },
        },
      });
      const { agent } = agentOn(provider);
      const { result } = await runOn(surface, agent, "hi");
      expect(server.requests).toHaveLength(1);
      expect(result.outcome).toBe("error");
      expect(result.reason).toContain("billing (HTTP 429, insufficient_quota)");
    },
  );
});

describe("reasoning and fallback over the wire", () => {
  it("openai-compatible streams reasoning_content as reasoning deltas, same content as JSON", async () => {
    const answer = { kind: "answer" as const, reasoning: "Seventeen plus twenty-five.", text: "42." };
    server.reply(answer, answer);
    const run = await runOn("run", agentOn("openai-compatible").agent, "hi");
    const stream = await runOn("stream", agentOn("openai-compatible").agent, "hi");
    const reasoning = stream.events
      .map((event) => (event.type === "reasoning-delta" ? event.delta : ""))
      .join("");
    expect(reasoning).toBe("Seventeen plus twenty-five.");
    expect(stream.result.messages).toEqual(run.result.messages);
    expect(run.result.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "Seventeen plus twenty-five." },
        { type: "text", text: "42." },
      ],
    });
  });

  it.each(CASES)(
    "%s/%s: a hook's flow.fallback continues the step on another model",
    async (provider, surface) => {
      server.reply(
        { kind: "error", status: 503, body: { error: { message: "overloaded", type: "server_error" } } },
        finalTurn,
      );
      const backup = wireModel("openai-compatible", server);
      const agent = createAgent({
        model: wireModel(provider, server),
        maxRetries: 0,
        hooks: [
          defineHook({
            name: "to-backup",
            on: "model_error",
            kind: "transform",
            handler: (event) => (event.error.type === "internal" ? flow.fallback(backup) : undefined),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "hi");
      expect(result.outcome).toBe("completed");
      expect(result.requests.map((request) => [request.attempt, request.model])).toEqual([
        [1, `${provider === "openai-chat" ? "openai.chat" : "openai-compatible.chat"}:wire-model`],
        [2, "openai-compatible.chat:wire-model"],
      ]);
    },
  );

  it("a ModelError is a HookwiseError carrying status, code and attempts", async () => {
    server.reply(
      { kind: "error", status: 500, body: { error: { message: "boom", type: "server_error" } } },
      { kind: "error", status: 500, body: { error: { message: "boom again", type: "server_error" } } },
    );
    const agent = createAgent({
      model: wireModel("openai-chat", server),
      maxRetries: 1,
      retry: { initialDelayMs: 1 },
    });
    const result = await agent.run("hi");
    expect(result.reason).toBe(
      "model openai.chat:wire-model failed: internal (HTTP 500, server_error, 2 attempts): boom again",
    );
    expect(
      ModelError.isInstance(
        new ModelError({ provider: "p", modelId: "m", errorType: "auth", message: "x", attempts: 1 }),
      ),
    ).toBe(true);
  });
});
