/**
 * Prompt caching on the wire, Anthropic Messages shape: the real `@ai-sdk/anthropic`
 * provider against a local server. The breakpoint (`cache_control`) lands on the last block
 * of the stable history and the attempt's changing context comes after it, unmarked; the
 * cache figures the server reports reach `result.usage`. On both surfaces.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, defineHook, flow } from "../../src/index.js";
import { runOn, SURFACES } from "../support/surfaces.js";
import { addTool, wireModel } from "./wire-fixtures.js";
import { startWireServer, type WireServer } from "./wire-server.js";

let server: WireServer;

beforeAll(async () => {
  server = await startWireServer("anthropic");
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

type Block = { type: string; text?: string; cache_control?: unknown; tool_use_id?: string };
type Message = { role: string; content: string | Block[] };

const EPHEMERAL = { type: "ephemeral" };

function blocks(messages: Message[]): Block[] {
  return messages.flatMap((message) =>
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content,
  );
}

describe("anthropic prompt caching over the wire", () => {
  for (const surface of SURFACES) {
    it(`${surface}: cache_control ends the stable history; the changing context follows it unmarked`, async () => {
      server.reply(
        {
          kind: "answer",
          toolCalls: [{ id: "toolu_01", name: "add", args: { a: 17, b: 25 } }],
          usage: { input: 1_200, output: 20, cacheWrite: 1_100 },
        },
        { kind: "answer", text: "The sum is 42.", usage: { input: 1_300, output: 8, cacheRead: 1_100 } },
      );
      const agent = createAgent({
        model: wireModel("anthropic", server),
        instructions: "You add numbers.",
        tools: addTool(),
        hooks: [
          defineHook({
            name: "clock",
            on: "model_request",
            kind: "transform",
            handler: (event) =>
              flow.patch({ extraContext: [{ id: "clock", text: `attempt at step ${event.request.step}` }] }),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "What is 17 + 25?");
      expect(result.outcome).toBe("completed");

      const [first, second] = server.requests.map((request) => blocks(request.body.messages as Message[]));
      // Step 1: the user's text is marked; the context appended after it is not.
      expect(first!.map((block) => [block.type, block.cache_control])).toEqual([
        ["text", EPHEMERAL],
        ["text", undefined],
      ]);
      expect(first![1]!.text).toContain("attempt at step 0");
      // Step 2: the tool result (the end of the transcript) is marked, the context after it is not.
      const marked = second!.findIndex((block) => block.cache_control !== undefined);
      expect(second![marked]).toMatchObject({
        type: "tool_result",
        tool_use_id: "toolu_01",
        cache_control: EPHEMERAL,
      });
      expect(second!.slice(marked + 1)).toEqual([
        { type: "text", text: '<context id="clock">\nattempt at step 1\n</context>' },
      ]);
      expect(second!.filter((block) => block.cache_control !== undefined)).toHaveLength(1);
      // Everything before the context is the first request's history, unchanged.
      expect(second![0]).toMatchObject({ type: "text", text: "What is 17 + 25?" });

      // The server's cache figures, in the run's usage and each step's.
      expect(result.usage).toMatchObject({ cacheReadTokens: 1_100, cacheWriteTokens: 1_100 });
      expect(result.steps.map((step) => step.usage.cacheReadTokens ?? 0)).toEqual([0, 1_100]);
    });
  }
});
