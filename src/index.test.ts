import { describe, expect, it } from "vitest";
import * as hookwise from "./index.js";

describe("public surface", () => {
  it("exports the fixed names", () => {
    for (const name of [
      "createAgent",
      "defineHook",
      "flow",
      "policy",
      "tool",
      "scriptedModel",
      "loadConfig",
      "claudeHooks",
    ]) {
      expect(hookwise, name).toHaveProperty(name);
    }
    for (const name of [
      "patch",
      "rewriteArgs",
      "rewriteResult",
      "skip",
      "allow",
      "deny",
      "ask",
      "terminate",
      "retry",
      "repair",
      "rewriteInput",
      "rewriteOutput",
      "inject",
    ]) {
      expect(typeof hookwise.flow[name as keyof typeof hookwise.flow], `flow.${name}`).toBe("function");
    }
  });

  it("loadConfig from the package root loads and runs a config", async () => {
    const loaded = await hookwise.loadConfig("examples/quickstart/hookwise.yaml");
    try {
      const agent = await loaded.createAgent(undefined, { model: hookwise.scriptedModel([{ text: "hi" }]) });
      expect((await agent.run("hello")).text).toBe("hi");
    } finally {
      await loaded.close();
    }
  });
});
