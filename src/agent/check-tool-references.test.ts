import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHook } from "../hooks/define-hook.js";
import { scriptedModel } from "../models/scripted-model.js";
import { policy } from "../policy/policy.js";
import { mcpToolset } from "../tools/mcp/mcp-toolset.js";
import { tool } from "../tools/tool.js";
import { createAgent } from "./create-agent.js";

let reads = 0;
const tools = {
  read_file: tool({
    description: "Read a file",
    inputSchema: z.object({ path: z.string() }),
    execute: async () => {
      reads++;
      return "secret";
    },
  }),
};
const model = () =>
  scriptedModel([{ toolCalls: [{ name: "read_file", args: { path: ".env" } }] }, { text: "done" }]);

describe("createAgent checks tool references as a config's validate does", () => {
  it("refuses a policy naming no tool, with the nearest one, before anything runs", () => {
    expect(() => createAgent({ model: model(), tools, policies: [policy.deny("read_files")] })).toThrow(
      'createAgent: policies[0] (deny) "read_files" matches no tool of the agent; did you mean "read_file"? (its tools: read_file)',
    );
    expect(reads).toBe(0);
  });

  it("refuses a hook whose match names no tool", () => {
    const hook = defineHook({
      name: "no-secrets",
      on: "tool_call",
      kind: "decide",
      match: ["read_file", "read_fil"],
      handler: () => undefined,
    });
    expect(() => createAgent({ model: model(), tools, hooks: [hook] })).toThrow(
      /hook "no-secrets": match "read_fil" matches no tool of the agent; did you mean "read_file"\?/,
    );
  });

  it("accepts patterns that match, '*', and tools only a sub-agent has", async () => {
    const child = createAgent({ name: "reader", model: model(), tools });
    const parent = createAgent({
      model: scriptedModel([{ text: "ok" }]),
      agents: { reader: child },
      policies: [policy.deny("*"), policy.allow("agents.reader"), policy.deny("read_*")],
      hooks: [
        defineHook({
          name: "h",
          on: "tool_call",
          kind: "inspect",
          match: "read_file",
          handler: () => undefined,
        }),
      ],
    });
    expect((await parent.run("hi")).outcome).toBe("completed");
  });

  it("says the agent has no tools when it has none", () => {
    expect(() => createAgent({ model: model(), policies: [policy.deny("shell")] })).toThrow(
      'createAgent: policies[0] (deny) "shell" matches no tool of the agent (it has no tools)',
    );
  });
});

describe("tools known only once listed (an MCP server's)", () => {
  it("are checked when the toolset is passed to createAgent, once its server listed them", async () => {
    const server = fileURLToPath(new URL("../../test/fixtures/mcp/stdio-server.mjs", import.meta.url));
    const memory = await mcpToolset("memory", { command: process.execPath, args: [server] });
    try {
      const calls = scriptedModel([
        { toolCalls: [{ name: "memory_echo", args: { text: "x" } }] },
        { text: "done" },
      ]);
      expect(() =>
        createAgent({ model: calls, tools: memory.tools, policies: [policy.deny("memory.ecko")] }),
      ).toThrow(
        'createAgent: policies[0] (deny) "memory.ecko" matches no tool of the agent; did you mean "memory.echo"?',
      );
      const hook = defineHook({
        name: "audit",
        on: "tool_call",
        kind: "inspect",
        match: "memory.ech",
        handler: () => undefined,
      });
      expect(() => createAgent({ model: calls, tools: memory.tools, hooks: [hook] })).toThrow(
        'createAgent: hook "audit": match "memory.ech" matches no tool of the agent; did you mean "memory.echo"?',
      );
      const agent = createAgent({
        model: calls,
        tools: memory.tools,
        policies: [policy.deny("memory.echo")],
        hooks: [{ ...hook, match: "memory_*" }],
      });
      const result = await agent.run("echo");
      expect(result.steps[0]?.toolResults[0]?.result).not.toContain("echo: x");
    } finally {
      await memory.close();
    }
  });
});
