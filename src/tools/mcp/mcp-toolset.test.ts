// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax of MCP specs is what these tests exercise
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpMcpServer } from "../../../test/fixtures/mcp/http-server.js";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, scriptedModel } from "../../index.js";
import { closeAllResources, openResourceCount } from "../open-resources.js";
import type { ToolExecutionOptions } from "../tool.js";
import type { Toolset } from "../toolset.js";
import { mcpToolset } from "./mcp-toolset.js";

const SERVER = fileURLToPath(new URL("../../../test/fixtures/mcp/stdio-server.mjs", import.meta.url));
const stdio = { command: process.execPath, args: [SERVER] };

const opened: Toolset[] = [];
async function open(...args: Parameters<typeof mcpToolset>): Promise<Toolset> {
  const toolset = await mcpToolset(...args);
  opened.push(toolset);
  return toolset;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((toolset) => toolset.close()));
  expect(openResourceCount()).toBe(0);
});

const execution = (): ToolExecutionOptions => ({
  toolCallId: "t1",
  signal: new AbortController().signal,
  get abortSignal() {
    return this.signal;
  },
  messages: [],
  context: { sessionId: "s", runId: "r", step: 0, agentName: "main" },
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function byName(toolset: Toolset, qualified: string) {
  const found = toolset.tools.find((tool) => tool.qualifiedName === qualified);
  if (!found) throw new Error(`no ${qualified}`);
  return found;
}

describe("MCP toolsets over stdio (real server, official SDK)", () => {
  it("lists the tools at start, named toolset.tool and toolset_tool (DESIGN §1)", async () => {
    const memory = await open("memory", stdio);
    expect(memory.tools.map((tool) => [tool.qualifiedName, tool.functionName])).toEqual([
      ["memory.echo", "memory_echo"],
      ["memory.add", "memory_add"],
      ["memory.fail", "memory_fail"],
      ["memory.pid", "memory_pid"],
      ["memory.crash", "memory_crash"],
      ["memory.get_memories", "memory_get_memories"],
      ["memory.search", "memory_search"],
      ["memory.env", "memory_env"],
      ["memory.weird.name", "memory_weird_name"],
    ]);
    // Hooks written for Claude Code know it as mcp__<server>__<tool>.
    expect(byName(memory, "memory.echo").alias?.name).toBe("mcp__memory__echo");
    expect(byName(memory, "memory.echo").description).toBe("Echoes its text");
    expect(byName(memory, "memory.add").input.jsonSchema).toMatchObject({
      type: "object",
      required: ["a", "b"],
    });
    expect(byName(memory, "memory.add").input.validate({ a: "x", b: 1 }).ok).toBe(false);
  });

  it("prefix: false keeps the tools' own names (sanitized)", async () => {
    const internal = await open("internal", stdio, { prefix: false });
    expect(internal.tools.map((tool) => tool.functionName)).toContain("get_memories");
    expect(byName(internal, "internal.weird.name").functionName).toBe("weird_name");
  });

  it.each(SURFACES)("%s: results, structured content and isError reach the model", async (surface) => {
    const memory = await open("memory", stdio);
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "m1", name: "memory_get_memories", args: { user_id: "u1" } },
          { id: "m2", name: "memory_add", args: { a: 2, b: 3 } },
          { id: "m3", name: "memory_fail", args: { message: "boom" } },
        ],
      },
      { text: "done" },
    ]);
    const agent = createAgent({ name: "main", model, tools: memory.tools });
    const { result } = await runOn(surface, agent, "go");
    expect(result.outcome).toBe("completed");
    const [memories, sum, failed] = result.steps[0]!.toolResults;
    expect(memories).toMatchObject({
      qualifiedName: "memory.get_memories",
      isError: false,
      result: '{"user":"u1","memories":["likes tea"]}',
    });
    expect(sum).toMatchObject({ isError: false, result: { sum: 5 } });
    expect(failed).toMatchObject({ isError: true, executed: true });
    expect(String(failed!.result)).toBe('tool "memory.fail" failed: failed: boom');
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("failed: boom");
  });

  it("starts a server once per process: two toolsets of the same spec share it", async () => {
    const one = await open("one", stdio);
    const two = await open("two", stdio);
    const pidOne = await byName(one, "one.pid").execute({}, execution());
    const pidTwo = await byName(two, "two.pid").execute({}, execution());
    expect(pidOne).toBe(pidTwo);
    expect(openResourceCount()).toBe(1);
    await one.close();
    expect(alive(Number(pidOne))).toBe(true); // the other lease still holds it
    await two.close();
    await waitFor(() => !alive(Number(pidOne)));
  });

  it("a server that dies mid-call is a tool error, then it is restarted on the next call", async () => {
    const warnings: string[] = [];
    const memory = await open("memory", stdio, { log: { debug() {}, warn: (line) => warnings.push(line) } });
    const before = Number(await byName(memory, "memory.pid").execute({}, execution()));
    await expect(byName(memory, "memory.crash").execute({}, execution())).rejects.toThrow(
      /MCP server memory: .*(closed|Connection)/i,
    );
    await waitFor(() => !alive(before));
    const after = Number(await byName(memory, "memory.pid").execute({}, execution()));
    expect(after).not.toBe(before);
    expect(alive(after)).toBe(true);
    expect(await byName(memory, "memory.echo").execute({ text: "hi" }, execution())).toBe("echo: hi");
    expect(warnings).toEqual(['MCP server "memory" went away; it restarts on the next call']);
  });

  it("arguments the server's own schema rejects are a tool error", async () => {
    const memory = await open("memory", stdio);
    const echo = byName(memory, "memory.echo");
    // (The loop validates first; a server may be stricter than the schema it lists.)
    await expect(echo.execute({ text: 42 }, execution())).rejects.toThrow(
      /MCP error -32602: Input validation error: .*expected string/,
    );
  });

  it("expands ${VAR} and ${VAR:-default} in env, and names a missing variable", async () => {
    process.env.HOOKWISE_TEST_TOKEN = "s3cret";
    try {
      const withEnv = await open("envy", { ...stdio, env: { FIXTURE_TOKEN: "${HOOKWISE_TEST_TOKEN}" } });
      expect(await byName(withEnv, "envy.env").execute({}, execution())).toBe("s3cret");
      const fallback = await open("fallback", {
        ...stdio,
        env: { FIXTURE_TOKEN: "${HOOKWISE_TEST_UNSET:-plain}" },
      });
      expect(await byName(fallback, "fallback.env").execute({}, execution())).toBe("plain");
      await expect(
        mcpToolset("missing", { ...stdio, env: { FIXTURE_TOKEN: "${HOOKWISE_TEST_UNSET}" } }),
      ).rejects.toThrow(
        "toolsets.missing.env.FIXTURE_TOKEN: environment variable HOOKWISE_TEST_UNSET is not set (write ${HOOKWISE_TEST_UNSET:-default} for a default)",
      );
    } finally {
      delete process.env.HOOKWISE_TEST_TOKEN;
    }
  });

  it("a server that cannot start is an error with its stderr; nothing stays open", async () => {
    await expect(
      mcpToolset("ghost", { command: process.execPath, args: ["/nonexistent/server.mjs"] }),
    ).rejects.toThrow(/MCP server "ghost" \(.*server\.mjs\) could not start: .*Cannot find module/s);
    expect(openResourceCount()).toBe(0);
  });

  it("a failed start prints the command as written: values from the environment are masked, even in its stderr", async () => {
    process.env.HOOKWISE_TEST_SECRET = "ghp_SECRET0123456789";
    try {
      // A server that repeats its arguments on stderr, then dies.
      const echo = "console.error('started with', process.argv.slice(1).join(' ')); process.exit(1)";
      const error = await mcpToolset("gh", {
        command: process.execPath,
        args: ["-e", echo, "--", "--token", "${HOOKWISE_TEST_SECRET}"],
      }).then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      expect(error?.message).toContain('MCP server "gh" (');
      expect(error?.message).toContain("--token ${HOOKWISE_TEST_SECRET}) could not start");
      expect(error?.message).toContain("its stderr: started with --token [redacted]");
      expect(`${error?.message}\n${error?.stack}\n${String(error?.cause)}`).not.toContain("ghp_SECRET");
    } finally {
      delete process.env.HOOKWISE_TEST_SECRET;
    }
    expect(openResourceCount()).toBe(0);
  });

  it("closeAllResources (the CLI's SIGINT path) closes the servers", async () => {
    const memory = await mcpToolset("memory", stdio);
    const pid = Number(await byName(memory, "memory.pid").execute({}, execution()));
    await closeAllResources();
    await waitFor(() => !alive(pid));
    expect(openResourceCount()).toBe(0);
    await memory.close(); // still safe
  });
});

describe("MCP toolsets over streamable HTTP (real server, official SDK)", () => {
  it.each(SURFACES)(
    "%s: lists and calls tools; headers are sent; isError is a tool error",
    async (surface) => {
      const server = await startHttpMcpServer();
      try {
        const dictionary = await open("dict", {
          url: server.url,
          headers: { Authorization: "Bearer test-token" },
        });
        expect(dictionary.tools.map((tool) => tool.functionName)).toEqual(["dict_lookup", "dict_broken"]);
        const model = scriptedModel([
          {
            toolCalls: [
              { id: "l1", name: "dict_lookup", args: { word: "hook" } },
              { id: "l2", name: "dict_broken", args: {} },
            ],
          },
          { text: "done" },
        ]);
        const agent = createAgent({ name: "main", model, tools: dictionary.tools });
        const { result } = await runOn(surface, agent, "define hook");
        const [lookup, broken] = result.steps[0]!.toolResults;
        expect(lookup).toMatchObject({ isError: false, result: { word: "hook", definition: "a word" } });
        expect(broken).toMatchObject({ isError: true });
        expect(String(broken!.result)).toContain("the dictionary is closed");
        expect(server.headers.length).toBeGreaterThan(0);
        expect(server.headers.every((headers) => headers.authorization === "Bearer test-token")).toBe(true);
        await dictionary.close();
        expect(server.terminated).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );

  it("an unreachable URL is a clear error", async () => {
    await expect(mcpToolset("down", { url: "http://127.0.0.1:1/mcp" })).rejects.toThrow(
      /MCP server "down" \(http:\/\/127\.0\.0\.1:1\/mcp\) could not start/,
    );
  });

  it("a URL's user, password and query (where tokens ride) are not printed", async () => {
    process.env.HOOKWISE_TEST_SECRET = "tok_SECRET0123456789";
    try {
      for (const url of [
        "http://127.0.0.1:1/mcp?access_token=${HOOKWISE_TEST_SECRET}",
        "http://bot:${HOOKWISE_TEST_SECRET}@127.0.0.1:1/mcp#${HOOKWISE_TEST_SECRET}",
        "http://bot:pa55word@127.0.0.1:1/mcp?key=literal-key",
      ]) {
        const error = await mcpToolset("remote", { url }).then(
          () => undefined,
          (caught: unknown) => caught as Error,
        );
        expect(error?.message).toContain('MCP server "remote" (http://127.0.0.1:1/mcp) could not start');
        for (const secret of ["tok_SECRET", "HOOKWISE_TEST_SECRET", "pa55word", "literal-key"])
          expect(error?.message).not.toContain(secret);
      }
    } finally {
      delete process.env.HOOKWISE_TEST_SECRET;
    }
  });
});
