import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, MemoryStore, scriptedModel } from "../index.js";

describe("run_end rewrites and denials reach the transcript", () => {
  for (const surface of SURFACES) {
    it(`${surface}: a redacted output is what the session keeps and sends next time`, async () => {
      const model = scriptedModel([{ text: "the key is SK-123" }, { text: "ok" }]);
      const agent = createAgent({
        model,
        store: new MemoryStore(),
        hooks: [
          defineHook({
            name: "redact",
            on: "run_end",
            kind: "transform",
            handler: (event) => flow.rewriteOutput(event.output.replace(/SK-\d+/g, "[redacted]")),
          }),
        ],
      });
      const first = await runOn(surface, agent, "key?", { sessionId: "s" });
      expect(first.result.text).toBe("the key is [redacted]");
      expect(JSON.stringify(first.result.messages)).not.toContain("SK-123");
      await runOn(surface, agent, "again", { sessionId: "s" });
      expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain("SK-123");
    });

    it(`${surface}: an output guardrail's deny keeps the refused answer out of the session`, async () => {
      const agent = createAgent({
        model: scriptedModel([{ text: "bad output" }]),
        hooks: [
          defineHook({
            name: "guard",
            on: "run_end",
            kind: "decide",
            handler: (event) => (event.output.includes("bad") ? flow.deny("unsafe answer") : undefined),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result).toMatchObject({ outcome: "terminated", reason: "unsafe answer", hook: "guard" });
      expect(JSON.stringify(result.messages)).not.toContain("bad output");
      expect(result.messages).toEqual([{ role: "user", content: "go" }]);
    });
  }
});
