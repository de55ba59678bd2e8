import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";

describe("activeTools is an allow-list, not only a view", () => {
  for (const surface of SURFACES) {
    it(`${surface}: a call to a tool the step did not offer never runs`, async () => {
      const ran: string[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "dangerous", args: {} }] }, { text: "ok" }]);
      const make = (name: string) => tool({ inputSchema: z.object({}), execute: () => void ran.push(name) });
      const agent = createAgent({
        model,
        tools: { safe: make("safe"), dangerous: make("dangerous") },
        hooks: [
          defineHook({
            name: "only-safe",
            on: "model_request",
            kind: "transform",
            handler: () => flow.patch({ activeTools: ["safe"] }),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result.outcome).toBe("completed");
      expect(ran).toEqual([]);
      expect(result.requests[0]!.tools.map((spec) => spec.name)).toEqual(["safe"]);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ executed: false, isError: true });
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain(
        'unknown tool "dangerous"; available tools: safe',
      );
    });
  }
});
