/**
 * `hookwise mcp` over stdio with the official SDK client, as any MCP client spawns it: the
 * list as the model sees it, calls allowed, denied, rewritten and counted through the
 * config, elicitation approvals, cancellation, the evidence in the store, and the upstream
 * MCP server gone once the gateway exits.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import {
  alive,
  eventually,
  type GatewayDir,
  gatewayDir,
  type StdioGatewayClient,
  stdioGateway,
  textOf,
} from "./gateway-fixture.js";

describe("hookwise mcp over stdio", () => {
  let where: GatewayDir;
  let gateway: StdioGatewayClient;

  beforeAll(async () => {
    where = gatewayDir();
    gateway = await stdioGateway(where);
  }, 60_000);

  afterAll(async () => {
    await gateway?.client.close();
    where?.cleanup();
  });

  it("lists the agent's tools by their function names, without the tool a policy denies outright", async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      "files_count",
      "files_lookup",
      "files_slow",
      "files_wipe",
      "files_write",
      "up_add",
      "up_echo",
      "up_pid",
    ]);
    expect(names).not.toContain("files_danger");
    const write = tools.find((tool) => tool.name === "files_write")!;
    expect(write.description).toBe("Writes text to a file in the output folder");
    expect(write.inputSchema).toMatchObject({ type: "object", required: ["path", "text"] });
    expect(tools.find((tool) => tool.name === "files_lookup")!.outputSchema).toMatchObject({
      type: "object",
      required: ["key", "value"],
    });
  });

  it("runs an allowed call: the side effect happened", async () => {
    const result = await gateway.client.callTool({
      name: "files_write",
      arguments: { path: "note.txt", text: "hello" },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("wrote note.txt");
    expect(readFileSync(join(where.out, "note.txt"), "utf8")).toBe("hello");
  });

  it("denies a call by policy: an error result with the reason, and nothing written", async () => {
    const result = await gateway.client.callTool({
      name: "files_write",
      arguments: { path: "../escape.txt", text: "nope" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("writes stay inside the output folder");
    expect(existsSync(join(where.out, ".._escape.txt"))).toBe(false);
  });

  it("denies a tool that is not listed when it is called anyway, and it never runs", async () => {
    const result = await gateway.client.callTool({ name: "files_danger", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("danger is never run");
    expect(existsSync(join(where.out, "danger.txt"))).toBe(false);
  });

  it("checks the input against the tool's schema before any hook: an error result naming the problem", async () => {
    const result = await gateway.client.callTool({ name: "files_write", arguments: { path: 3 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid arguments for "files_write": path: .*expected string/);
  });

  it("rewrites arguments before the upstream MCP server sees them", async () => {
    const result = await gateway.client.callTool({ name: "up_echo", arguments: { text: "hi" } });
    expect(textOf(result)).toBe("echo: rewritten: hi");
  });

  it("sends structured content for a tool with an output schema", async () => {
    const result = await gateway.client.callTool({ name: "files_lookup", arguments: { key: "abcd" } });
    expect(result.structuredContent).toEqual({ key: "abcd", value: 4 });
  });

  it("denies an ask_user call when the client cannot be asked, saying how to approve; it never runs", async () => {
    const result = await gateway.client.callTool({ name: "files_wipe", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("wiping needs a human");
    expect(textOf(result)).toContain("elicitation");
    expect(existsSync(join(where.out, "wiped.txt"))).toBe(false);
  });

  it("keeps max_fires exact over 100 concurrent calls of one session", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        gateway.client.callTool({ name: "files_count", arguments: { n } }),
      ),
    );
    const answers = results.map((result) => JSON.parse(textOf(result)) as { n: number; stamped?: boolean });
    expect(answers.map((answer) => answer.n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, n) => n),
    );
    expect(answers.filter((answer) => answer.stamped === true)).toHaveLength(50);
    // The hook's budget is spent for this session: a later call is not stamped.
    const later = await gateway.client.callTool({ name: "files_count", arguments: { n: 100 } });
    expect(JSON.parse(textOf(later))).toEqual({ n: 100 });
  }, 30_000);

  it("aborts a cancelled call: the tool's signal fires", async () => {
    const controller = new AbortController();
    const calling = gateway.client.callTool({ name: "files_slow", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort("enough"), 300);
    await expect(calling).rejects.toThrow();
    await eventually(() => existsSync(join(where.out, "slow-aborted.txt")), 10_000, "the tool's abort");
  });

  it("records every call in the config's store: trace and history show what the client did", async () => {
    const sessionId = gateway.sessionId();
    expect(sessionId).toBeDefined();
    // The store is written as calls end; the next call's answer comes after the earlier saves began.
    await eventually(() => true);
    let trace = { code: 1, stdout: "", stderr: "" };
    for (let tries = 0; tries < 20; tries++) {
      trace = await cli(["trace", where.config, "--session", sessionId!, "--json"]);
      if (trace.code === 0 && trace.stdout.includes("files_wipe")) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    expect(trace.code).toBe(0);
    const runs = JSON.parse(trace.stdout) as {
      steps: {
        calls: {
          toolName: string;
          executed: boolean;
          isError?: boolean;
          hooks: { hook: string; effect: string }[];
        }[];
      }[];
    }[];
    const calls = runs.flatMap((run) => run.steps.flatMap((step) => step.calls));
    const denied = calls.find((call) => call.toolName === "files_danger")!;
    expect(denied.executed).toBe(false);
    expect(denied.hooks).toContainEqual(expect.objectContaining({ hook: "policy", effect: "deny" }));
    const written = calls.find((call) => call.toolName === "files_write" && !call.isError)!;
    expect(written.executed).toBe(true);
    const history = await cli(["history", where.config, "--session", sessionId!]);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain("files_write");
  }, 30_000);
});

describe("hookwise mcp approvals through MCP elicitation", () => {
  let where: GatewayDir;
  let gateway: StdioGatewayClient;
  let answer: "accept" | "decline" | "cancel" = "accept";
  const asked: string[] = [];

  beforeAll(async () => {
    where = gatewayDir();
    gateway = await stdioGateway(where, { capabilities: { elicitation: {} } });
    gateway.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.client.close();
    where?.cleanup();
  });

  it("runs the call exactly once when the client's user accepts", async () => {
    answer = "accept";
    const result = await gateway.client.callTool({ name: "files_wipe", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("wiped");
    expect(asked.at(-1)).toContain("files.wipe");
    expect(asked.at(-1)).toContain("wiping needs a human");
    expect(readFileSync(join(where.out, "wiped.txt"), "utf8")).toBe("wiped\n");
  });

  it.each(["decline", "cancel"] as const)(
    "denies the call with the reason when the user answers %s",
    async (given) => {
      answer = given;
      const before = readFileSync(join(where.out, "wiped.txt"), "utf8");
      const result = await gateway.client.callTool({ name: "files_wipe", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(given === "decline" ? "declined" : "cancelled");
      expect(readFileSync(join(where.out, "wiped.txt"), "utf8")).toBe(before);
    },
  );
});

describe("hookwise mcp's exit", () => {
  it("ends the session (session_end) and closes the upstream MCP server when the client closes stdin", async () => {
    const where = gatewayDir();
    try {
      const gateway = await stdioGateway(where);
      const pid = Number(textOf(await gateway.client.callTool({ name: "up_pid", arguments: {} })));
      expect(alive(pid)).toBe(true);
      const gatewayPid = gateway.transport.pid!;
      const sessionId = gateway.sessionId();
      await gateway.client.close();
      await eventually(() => !alive(gatewayPid), 15_000, "the gateway's exit");
      await eventually(() => !alive(pid), 10_000, "the upstream server's exit");
      expect(gateway.stderr()).toContain(`session ${sessionId} ended`);
    } finally {
      where.cleanup();
    }
  }, 40_000);

  it("closes the upstream MCP server on SIGTERM", async () => {
    const where = gatewayDir();
    try {
      const gateway = await stdioGateway(where);
      const pid = Number(textOf(await gateway.client.callTool({ name: "up_pid", arguments: {} })));
      const gatewayPid = gateway.transport.pid!;
      process.kill(gatewayPid, "SIGTERM");
      await eventually(() => !alive(gatewayPid), 15_000, "the gateway's exit");
      await eventually(() => !alive(pid), 10_000, "the upstream server's exit");
      await gateway.client.close();
    } finally {
      where.cleanup();
    }
  }, 40_000);
});
