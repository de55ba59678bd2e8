/**
 * A tool name is one string to a glob: a "/" in it (an MCP server's `repos/delete`, a module
 * toolset's `admin/delete` key) does not let it escape a toolset-wide pattern, in a policy,
 * a decide hook's `match`, a config's `tool_name` condition or an agent's `tools`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { loadConfig } from "../config/load-config.js";
import { createAgent, defineHook, flow, policy, resolveTool, scriptedModel, tool } from "../index.js";
import { MemoryStore } from "../state/memory-store.js";
import { toolGlob } from "./tool-glob.js";

describe("toolGlob", () => {
  test('"/" is an ordinary character on both sides', () => {
    expect(toolGlob("fs.*")("fs.admin/delete")).toBe(true);
    expect(toolGlob("*")("gh.repos/delete")).toBe(true);
    expect(toolGlob("*/delete")("gh.repos/delete")).toBe(true);
    expect(toolGlob("gh.repos/*")("gh.repos/delete")).toBe(true);
    expect(toolGlob(["x.*", "gh.*/delete"])("gh.repos/delete")).toBe(true);
    expect(toolGlob("gh.*")("ghx.repos/delete")).toBe(false);
    expect(toolGlob("gh.repos/*")("gh.repos.delete")).toBe(false);
    expect(toolGlob("fs.*")("fs.back\\slash")).toBe(true);
  });
});

describe("a deny or a decide hook for a whole toolset covers its tools named with a slash", () => {
  const setup = (extra: Parameters<typeof createAgent>[0] extends infer O ? Partial<O> : never) => {
    const ran: string[] = [];
    const remove = resolveTool(
      "admin/delete",
      tool({
        inputSchema: z.object({}),
        execute: () => {
          ran.push("admin/delete");
          return "deleted";
        },
      }),
      { toolset: "fs", prefix: true },
    );
    const model = scriptedModel([
      { toolCalls: [{ name: remove.functionName, args: {}, id: "c1" }] },
      { text: "done" },
    ]);
    return { agent: createAgent({ model, tools: [remove], ...extra }), ran };
  };

  for (const surface of SURFACES) {
    test(`${surface}: policy.deny("fs.*")`, async () => {
      const { agent, ran } = setup({ policies: [policy.deny("fs.*", { reason: "no fs" })] });
      const { result } = await runOn(surface, agent, "go");
      expect(ran).toEqual([]);
      expect(result.steps[0]!.toolResults[0]!.isError).toBe(true);
    });

    test(`${surface}: a decide hook matching "fs.*"`, async () => {
      const { agent, ran } = setup({
        hooks: [
          defineHook({
            name: "no-fs",
            on: "tool_call",
            kind: "decide",
            match: "fs.*",
            handler: () => flow.deny("no fs"),
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "go");
      expect(ran).toEqual([]);
      expect(JSON.stringify(result.steps[0]!.toolResults[0]!.result)).toContain("no-fs");
    });
  }
});

describe("YAML: a module toolset's tool keyed with a slash", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-tool-glob-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const guards = {
    policy: `  policies:
    - { decision: deny, tool: "fs.*", reason: "no fs at all" }
`,
    gate: `  hooks:
    - id: no-fs
      on: tool_call
      condition: { type: tool_name, match: "fs.*" }
      action: { type: gate, reason: "no fs at all" }
`,
  };
  for (const [guard, runtime] of Object.entries(guards))
    for (const surface of SURFACES)
      test(`${surface}: a ${guard} on fs.* stops it`, async () => {
        const marker = join(dir, "deleted.txt");
        writeFileSync(
          join(dir, "fs-tools.mjs"),
          `import { writeFileSync } from "node:fs";
const schema = { type: "object", properties: {} };
export default {
  read: { description: "read", inputSchema: schema, execute: () => "content" },
  "admin/delete": { description: "delete", inputSchema: schema,
    execute: () => { writeFileSync(${JSON.stringify(marker)}, "gone"); return "deleted"; } },
};
`,
        );
        writeFileSync(
          join(dir, "hookwise.yaml"),
          `models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: module, path: ./fs-tools.mjs }
runtime:
${runtime}agents:
  - id: main
    tools: ["fs.*"]
`,
        );
        writeFileSync(
          join(dir, "script.yaml"),
          "- tool_calls:\n    - { name: fs_admin_delete, args: {} }\n- text: done\n",
        );
        const loaded = await loadConfig(join(dir, "hookwise.yaml"), { store: new MemoryStore() });
        try {
          const agent = await loaded.createAgent();
          // Both tools are the agent's (tools: fs.*); denied outright by the policy, neither is offered.
          expect(agent.runtime.tools.map((item) => item.qualifiedName).sort()).toEqual([
            "fs.admin/delete",
            "fs.read",
          ]);
          expect(agent.runtime.toolSpecs.length).toBe(guard === "policy" ? 0 : 2);
          const { result } = await runOn(surface, agent, "go");
          expect(existsSync(marker)).toBe(false);
          expect(JSON.stringify(result.steps[0]!.toolResults[0]!.result)).toContain("no fs at all");
        } finally {
          await loaded.close();
        }
      });
});
