/**
 * Toolsets and sub-agents declared in config: MCP (stdio, real server), builtin
 * filesystem and memory, `agents.<id>` specialists under the parent's policies and hooks.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { MemoryStore } from "../../state/memory-store.js";
import { openResourceCount } from "../../tools/open-resources.js";
import { loadConfig } from "../load-config.js";
import { ConfigError } from "../source/config-error.js";
import { buildToolsets } from "./build-toolsets.js";
import { recordingLogger } from "./test-evaluation.js";

const MCP_SERVER = fileURLToPath(new URL("../../../test/fixtures/mcp/stdio-server.mjs", import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-config-"));
  mkdirSync(join(dir, "workspace"));
  writeFileSync(join(dir, "workspace", "keep.txt"), "precious");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(openResourceCount()).toBe(0);
});

function write(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, "hookwise.yaml");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("toolsets in config", () => {
  it.each(SURFACES)(
    "%s: mcp (stdio), builtin filesystem and memory; close() stops the server",
    async (surface) => {
      const config = write({
        "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  memory_server: { kind: mcp, command: "${process.execPath}", args: ["${MCP_SERVER}"] }
  fs: { kind: builtin, module: filesystem, root: ./workspace }
  notes: { kind: builtin, module: memory }
agents:
  - id: main
    tools: [memory_server.get_memories, memory_server.pid, fs.*, notes.set, notes.get]
`,
        "script.yaml": `
- tool_calls:
    - { name: memory_server_get_memories, args: { user_id: current } }
    - { name: memory_server_pid, args: {} }
    - { name: fs_read_file, args: { path: keep.txt } }
    - { name: notes_set, args: { key: k, value: 42 } }
- text: done
`,
      });
      const store = new MemoryStore();
      const loaded = await loadConfig(config, { store });
      const agent = await loaded.createAgent();
      expect(agent.runtime.tools.map((tool) => tool.functionName)).toEqual([
        "memory_server_pid",
        "memory_server_get_memories",
        "fs_read_file",
        "fs_write_file",
        "fs_edit_file",
        "fs_list_directory",
        "fs_search_files",
        "fs_delete_file",
        "notes_set",
        "notes_get",
      ]);
      const { result } = await runOn(surface, agent, "go", { sessionId: "s1" });
      expect(result.outcome).toBe("completed");
      const [memories, pid, file, set] = result.steps[0]!.toolResults;
      expect(memories!.result).toBe('{"user":"current","memories":["likes tea"]}');
      expect(file!.result).toBe("precious");
      expect(set!.result).toBe("stored k");
      expect(await store.get("memory:notes:s1")).toEqual({ values: { k: 42 }, memories: [] });
      const serverPid = Number(pid!.result);
      expect(alive(serverPid)).toBe(true);
      await loaded.close();
      for (let tries = 0; tries < 100 && alive(serverPid); tries++)
        await new Promise((r) => setTimeout(r, 20));
      expect(alive(serverPid)).toBe(false);
    },
  );

  it("an MCP toolset without command or url is a clear error; nothing is left running", async () => {
    const config = write({
      "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  ok: { kind: mcp, command: "${process.execPath}", args: ["${MCP_SERVER}"] }
  broken: { kind: mcp, args: [x] }
`,
      "script.yaml": "- text: hi\n",
    });
    const loaded = await loadConfig(config, { store: new MemoryStore() });
    await expect(loaded.createAgent()).rejects.toThrow(
      "toolsets.broken: an MCP toolset needs command (stdio, e.g. command: node, args: [./server.js]) or url (streamable HTTP)",
    );
    await loaded.close();
  });

  it("every toolset that cannot start is named at once, not one per attempt; nothing is left running", async () => {
    const config = write({
      "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  ok: { kind: mcp, command: "${process.execPath}", args: ["${MCP_SERVER}"] }
  tickets: { kind: mcp, command: "${process.execPath}", args: [-e, "process.exit(3)"] }
  billing: { kind: mcp, command: "${process.execPath}", args: [-e, "process.exit(4)"] }
`,
      "script.yaml": "- text: hi\n",
    });
    const loaded = await loadConfig(config, { store: new MemoryStore() });
    const error = await loaded.createAgent().then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/^2 toolsets could not start:\n/);
    expect(error?.message).toContain('MCP server "tickets"');
    expect(error?.message).toContain('MCP server "billing"');
    await loaded.close();
  });

  it("a config problem among them keeps them all one ConfigError, each at its toolset's line", async () => {
    const source = {
      file: "hookwise.yaml",
      positionOf: (path: readonly unknown[]) => ({ line: path.length, column: 3 }),
    };
    const error = await buildToolsets(
      {
        tickets: { kind: "mcp", command: process.execPath, args: ["-e", "process.exit(3)"] },
        billing: {
          kind: "mcp",
          command: process.execPath,
          args: [MCP_SERVER],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
          env: { TOKEN: "${HOOKWISE_TEST_UNSET}" },
        },
      } as never,
      dir,
      { source },
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    const issues = (error as ConfigError).issues;
    expect(issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["toolsets.tickets", "toolsets.billing.env.TOKEN"]),
    );
    expect(issues.find((issue) => issue.path.join(".") === "toolsets.tickets")?.message).toContain(
      'MCP server "tickets"',
    );
  });
});

describe("sub-agents in config (role: specialist, tools: [agents.<id>])", () => {
  const files = (extra = "") => ({
    "hookwise.yaml": `
models:
  main: "scripted:./main.yaml"
  cleaner: "scripted:./cleaner.yaml"
toolsets:
  fs: { kind: builtin, module: filesystem, root: ./workspace }
runtime:
  policies:
    - { decision: deny, tool: fs.delete_file, reason: "deleting files is not allowed" }
  hooks:
    - id: app-audit
      on: tool_call
      action: { type: log, message: "app {{agent.id}} {{tool.fqn}}" }
${extra}
agents:
  - id: main
    model: main
    tools: [agents.cleaner]
    hooks:
      - id: main-self
        on: tool_call
        scope: self
        action: { type: log, message: "main-self {{agent.id}} {{tool.fqn}}" }
      - id: main-children
        on: tool_call
        scope: children
        action: { type: log, message: "main-children {{agent.id}} {{tool.fqn}}" }
  - id: cleaner
    role: specialist
    description: Cleans the workspace
    model: cleaner
    tools: [fs.*]
    hooks:
      - id: cleaner-own
        on: tool_call
        action: { type: log, message: "cleaner-own {{agent.id}} {{tool.fqn}}" }
`,
    "main.yaml": `
- tool_calls: [{ name: agents_cleaner, args: { task: "delete keep.txt" } }]
- text: "the cleaner could not delete it"
`,
    "cleaner.yaml": `
- tool_calls: [{ name: fs_delete_file, args: { path: keep.txt } }]
- text: "deletion was refused"
`,
  });

  it.each(SURFACES)(
    "%s: the top-level policy denies fs.delete_file inside the sub-agent",
    async (surface) => {
      const logger = recordingLogger();
      const store = new MemoryStore();
      const loaded = await loadConfig(write(files()), { store, logger });
      try {
        const main = await loaded.createAgent("main");
        expect(main.runtime.tools.map((tool) => [tool.functionName, tool.description])).toEqual([
          ["agents_cleaner", "Cleans the workspace"],
        ]);
        const { result } = await runOn(surface, main, "tidy up", { sessionId: "s1" });
        expect(result.outcome).toBe("completed");
        expect(existsSync(join(dir, "workspace", "keep.txt"))).toBe(true); // the side effect is absent
        expect(result.steps[0]!.toolResults[0]).toMatchObject({
          qualifiedName: "agents.cleaner",
          result: "deletion was refused",
          isError: false,
        });
        // The sub-agent's transcript is in the session store, under an id derived from the parent's.
        const child = await store.loadSession("s1/agents.cleaner/call_1_0");
        expect(JSON.stringify(child?.messages)).toContain("deleting files is not allowed");
        // A `log` on tool_call runs before the tool, once every decide allowed it: the
        // parent's call to the sub-agent is logged (app-wide once, scope self); the denied
        // delete inside the sub-agent is not logged by any scope.
        expect(logger.records.filter((line) => line.level === "info").map((line) => line.message)).toEqual([
          "app main agents.cleaner",
          "main-self main agents.cleaner",
        ]);
      } finally {
        await loaded.close();
      }
    },
  );

  it.each(SURFACES)("%s: an agent_spawn gate in config refuses the sub-agent", async (surface) => {
    const extra = `    - id: no-spawn
      on: agent_spawn
      action: { type: gate, reason: "no delegation today" }`;
    const loaded = await loadConfig(write(files(extra)), {
      store: new MemoryStore(),
      logger: recordingLogger(),
    });
    try {
      const { result } = await runOn(surface, await loaded.createAgent("main"), "tidy up");
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true });
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain(
        'sub-agent "cleaner" was refused by hook "no-spawn": no delegation today',
      );
    } finally {
      await loaded.close();
    }
  });

  it.each([
    [
      "a listed agent that is not a specialist",
      "role: helper",
      'agent "main" lists agents.cleaner, but "cleaner" is not a sub-agent: give it role: specialist',
    ],
    ["a cycle", "role: specialist\n    tools: [agents.main]\n  - id: other", "sub-agents form a cycle"],
  ])("%s is an error when the agent is built", async (_name, cleanerBody, message) => {
    const config = write({
      "hookwise.yaml": `
models: { default: "scripted:./main.yaml" }
agents:
  - id: main
    role: specialist
    tools: [agents.cleaner]
  - id: cleaner
    ${cleanerBody}
`,
      "main.yaml": "- text: hi\n",
    });
    const loaded = await loadConfig(config, { store: new MemoryStore() });
    await expect(loaded.createAgent("main")).rejects.toThrow(message);
    await loaded.close();
  });
});
