import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import {
  createAgent,
  defineHook,
  flow,
  MemoryStore,
  policy,
  scriptedModel,
  subAgentTool,
  tool,
} from "../index.js";
import { filesystemToolset } from "../tools/builtin/filesystem-toolset.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "hookwise-subagent-"));
  writeFileSync(join(root, "keep.txt"), "precious");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A cleaner sub-agent with filesystem tools that tries to delete keep.txt, then reports. */
async function cleaner(hooks: Parameters<typeof createAgent>[0]["hooks"] = []) {
  const fs = await filesystemToolset("fs", { root });
  const model = scriptedModel([
    { toolCalls: [{ id: "d1", name: "fs_delete_file", args: { path: "keep.txt" } }] },
    { text: "could not delete keep.txt" },
  ]);
  return { model, agent: createAgent({ name: "cleaner", model, tools: fs.tools, hooks }) };
}

function parentModel(task = "delete keep.txt") {
  return scriptedModel([
    { toolCalls: [{ id: "s1", name: "agents_cleaner", args: { task } }] },
    { text: "the cleaner reported back" },
  ]);
}

describe("sub-agents: a parent's policy governs the sub-agent's tool calls", () => {
  it.each(SURFACES)("%s: deny fs.delete_file at the top denies it inside the sub-agent", async (surface) => {
    const child = await cleaner();
    const store = new MemoryStore();
    const main = createAgent({
      name: "main",
      model: parentModel(),
      agents: { cleaner: child.agent },
      policies: [policy.deny("fs.delete_file", { reason: "deletion is off" })],
      store,
    });
    const { result } = await runOn(surface, main, "tidy up");
    expect(result.outcome).toBe("completed");
    expect(existsSync(join(root, "keep.txt"))).toBe(true); // the side effect is absent
    // The sub-agent's model saw the denial; the parent's model got the sub-agent's final text.
    expect(JSON.stringify(child.model.calls[1]!.prompt)).toContain("deletion is off");
    expect(result.steps[0]!.toolResults[0]).toMatchObject({
      qualifiedName: "agents.cleaner",
      toolName: "agents_cleaner",
      result: "could not delete keep.txt",
      isError: false,
    });
    expect(result.requests[0]!.tools.map((tool) => tool.name)).toEqual(["agents_cleaner"]);
    expect(result.requests[0]!.tools[0]!.inputSchema).toMatchObject({ required: ["task"] });
  });

  it.each(SURFACES)(
    "%s: without the parent's policy, the same sub-agent deletes (control)",
    async (surface) => {
      const child = await cleaner();
      const main = createAgent({ name: "main", model: parentModel(), agents: { cleaner: child.agent } });
      await runOn(surface, main, "tidy up");
      expect(existsSync(join(root, "keep.txt"))).toBe(false);
    },
  );
});

describe("sub-agents: lineage and hook scope", () => {
  it.each(SURFACES)("%s: scope all | self | children against agentPath", async (surface) => {
    const seen: Record<string, string[]> = { all: [], self: [], children: [], childOwn: [] };
    const watch = (name: string, scope: "all" | "self" | "children") =>
      defineHook({
        name,
        on: "tool_call",
        kind: "inspect",
        scope,
        handler: (event) => {
          seen[scope]!.push(`${event.agentPath.join("/")}:${event.qualifiedName}`);
        },
      });
    const child = await cleaner([
      defineHook({
        name: "cleaner-own",
        on: "tool_call",
        kind: "inspect",
        handler: (event) => {
          seen.childOwn!.push(`${event.agentPath.join("/")}:${event.qualifiedName}`);
        },
      }),
    ]);
    const main = createAgent({
      name: "main",
      model: parentModel(),
      agents: { cleaner: child.agent },
      hooks: [watch("w-all", "all"), watch("w-self", "self"), watch("w-children", "children")],
    });
    const { result } = await runOn(surface, main, "tidy up");
    expect(result.outcome).toBe("completed");
    expect(seen).toEqual({
      all: ["main/cleaner:fs.delete_file", "main:agents.cleaner"],
      self: ["main:agents.cleaner"],
      children: ["main/cleaner:fs.delete_file"],
      // The sub-agent's own hooks fire for its runs only, never for the parent's calls.
      childOwn: ["main/cleaner:fs.delete_file"],
    });
  });

  it.each(SURFACES)(
    "%s: a parent's decide hook with scope self does not govern the sub-agent",
    async (surface) => {
      const child = await cleaner();
      const main = createAgent({
        name: "main",
        model: parentModel(),
        agents: { cleaner: child.agent },
        hooks: [
          defineHook({
            name: "no-deletes-here",
            on: "tool_call",
            kind: "decide",
            scope: "self",
            match: "fs.delete_file",
            handler: () => flow.deny("not in main"),
          }),
        ],
      });
      await runOn(surface, main, "tidy up");
      expect(existsSync(join(root, "keep.txt"))).toBe(false);
    },
  );
});

describe("sub-agents: agent_spawn and agent_complete", () => {
  it.each(SURFACES)(
    "%s: a decide hook on agent_spawn refuses; the sub-agent never starts",
    async (surface) => {
      const child = await cleaner();
      const main = createAgent({
        name: "main",
        model: parentModel("delete everything"),
        agents: { cleaner: child.agent },
        hooks: [
          defineHook({
            name: "no-destructive-tasks",
            on: "agent_spawn",
            kind: "decide",
            handler: (event) => (event.task.includes("everything") ? flow.deny("too broad") : undefined),
          }),
        ],
      });
      const { result } = await runOn(surface, main, "go");
      expect(child.model.calls).toHaveLength(0);
      expect(existsSync(join(root, "keep.txt"))).toBe(true);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({
        isError: true,
        qualifiedName: "agents.cleaner",
      });
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain(
        'sub-agent "cleaner" was refused by hook "no-destructive-tasks": too broad',
      );
      expect(result.events).toContainEqual({
        event: "agent_spawn",
        hook: "no-destructive-tasks",
        kind: "decide",
        effect: "deny",
        detail: "too broad",
      });
    },
  );

  it.each(SURFACES)(
    "%s: spawn and complete carry the task, output and outcome; the transcript is stored",
    async (surface) => {
      const child = await cleaner();
      const store = new MemoryStore();
      const lifecycle: unknown[] = [];
      const main = createAgent({
        name: "main",
        model: parentModel(),
        agents: { cleaner: child.agent },
        store,
        hooks: [
          defineHook({
            name: "spawned",
            on: "agent_spawn",
            kind: "inspect",
            handler: ({ agentId, task, agentPath }) => {
              lifecycle.push({ spawn: agentId, task, agentPath });
            },
          }),
          defineHook({
            name: "completed",
            on: "agent_complete",
            kind: "inspect",
            handler: ({ agentId, output, outcome, agentPath }) => {
              lifecycle.push({ complete: agentId, output, outcome, agentPath });
            },
          }),
        ],
      });
      const { result } = await runOn(surface, main, "tidy up", { sessionId: "s-1" });
      expect(lifecycle).toEqual([
        { spawn: "cleaner", task: "delete keep.txt", agentPath: ["main"] },
        {
          complete: "cleaner",
          output: "could not delete keep.txt",
          outcome: "completed",
          agentPath: ["main"],
        },
      ]);
      // The child ran with the parent's store? No: with its own (the default memory store).
      expect(await store.loadSession("s-1/agents.cleaner/s1")).toBeUndefined();
      const own = await child.agent.runtime.store.loadSession("s-1/agents.cleaner/s1");
      expect(own?.messages[0]).toEqual({ role: "user", content: "delete keep.txt" });
      expect(own?.messages.at(-1)).toMatchObject({ role: "assistant" });
      expect(result.sessionId).toBe("s-1");
    },
  );

  it.each(SURFACES)(
    "%s: a sub-agent that does not complete is a tool error the parent's model sees",
    async (surface) => {
      const childModel = scriptedModel([{ text: "partial" }]);
      const child = createAgent({
        name: "quitter",
        model: childModel,
        hooks: [
          defineHook({
            name: "stop-it",
            on: "run_end",
            kind: "decide",
            handler: () => flow.deny("output rejected"),
          }),
        ],
      });
      const model = scriptedModel([
        { toolCalls: [{ id: "q1", name: "agents_quitter", args: { task: "try" } }] },
        { text: "it failed" },
      ]);
      const main = createAgent({ name: "main", model, tools: [subAgentTool(child)] });
      const { result } = await runOn(surface, main, "go");
      expect(result.outcome).toBe("completed");
      const record = result.steps[0]!.toolResults[0]!;
      expect(record.isError).toBe(true);
      expect(String(record.result)).toContain('sub-agent "quitter" ended terminated: output rejected');
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain("output rejected");
    },
  );
});

describe("a sub-agent that suspends on an approval", () => {
  it.each(SURFACES)(
    "%s: its caller goes on; its run is not listed, and a resume of it is refused (the caller's deny would be lost)",
    async (surface) => {
      const store = new MemoryStore();
      const ran: string[] = [];
      const helper = (script: Parameters<typeof scriptedModel>[0]) =>
        createAgent({
          name: "helper",
          model: scriptedModel(script),
          store,
          tools: {
            pay: tool({
              inputSchema: z.object({ amount: z.number() }),
              execute: ({ amount }) => {
                ran.push(`pay ${amount}`);
                return "paid";
              },
            }),
            wipe: tool({
              inputSchema: z.object({}),
              execute: () => {
                ran.push("wipe");
                return "wiped";
              },
            }),
          },
          policies: [policy.askUser("pay")],
        });
      const boss = createAgent({
        name: "boss",
        store,
        model: scriptedModel([
          { toolCalls: [{ name: "agents_helper", args: { task: "pay 5" }, id: "s1" }] },
          { text: "the helper could not pay" },
        ]),
        agents: { helper: helper([{ toolCalls: [{ name: "pay", args: { amount: 5 }, id: "p1" }] }]) },
        policies: [policy.deny("wipe", { reason: "the boss forbids wiping" })],
      });
      const { result } = await runOn(surface, boss, "pay 5");
      expect(result.outcome).toBe("completed");
      expect(JSON.stringify(result.steps[0]!.toolResults[0]!.result)).toMatch(/ended suspended/);

      const later = helper([{ toolCalls: [{ name: "wipe", args: {}, id: "w1" }] }, { text: "done" }]);
      expect(await later.suspendedRuns()).toEqual([]);
      const saved = (await store.keys("run:")).filter((key) => key.endsWith(":suspended"));
      expect(saved).toHaveLength(1);
      const runId = saved[0]!.slice("run:".length, -":suspended".length);
      const [approval] = await later.pendingApprovals(runId);
      await expect(later.resume(runId, [{ id: approval!.id, approved: true }])).rejects.toMatchObject({
        name: "ApprovalError",
        reason: "not_suspended",
        message: expect.stringContaining('sub-agent "helper" under "boss"'),
      });
      expect(ran).toEqual([]);
    },
  );
});
