/**
 * `hookwise mcp --http` with the SDK's Streamable HTTP client: the bearer token is
 * required when set, each MCP session is the hookwise session of the same id (its calls
 * recorded under it), and the upstream MCP server is gone once the gateway stops.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import { alive, eventually, type GatewayDir, gatewayDir, httpGateway, textOf } from "./gateway-fixture.js";

const TOKEN = "gateway-test-token-0123456789";

async function connect(
  url: string,
  token?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
  const client = new Client({ name: "http-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

describe("hookwise mcp --http", () => {
  let where: GatewayDir;
  let gateway: Awaited<ReturnType<typeof httpGateway>>;

  beforeAll(async () => {
    where = gatewayDir();
    gateway = await httpGateway(where, { HOOKWISE_SERVER_TOKEN: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    where?.cleanup();
  });

  it("refuses a client without the bearer token", async () => {
    const response = await fetch(gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    expect(response.status).toBe(401);
    await expect(connect(gateway.url, "wrong-token-0123456789")).rejects.toThrow();
  });

  it("lists, allows and denies through the config; the MCP session is the hookwise session", async () => {
    const { client, transport } = await connect(gateway.url, TOKEN);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain("files_danger");
      expect(tools.map((tool) => tool.name)).toContain("files_write");
      const allowed = await client.callTool({
        name: "files_write",
        arguments: { path: "h.txt", text: "over http" },
      });
      expect(allowed.isError).toBeFalsy();
      expect(readFileSync(join(where.out, "h.txt"), "utf8")).toBe("over http");
      const denied = await client.callTool({
        name: "files_write",
        arguments: { path: "/etc/h.txt", text: "no" },
      });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain("writes stay inside the output folder");
      expect(existsSync(join(where.out, "_etc_h.txt"))).toBe(false);
      const rewritten = await client.callTool({ name: "up_echo", arguments: { text: "x" } });
      expect(textOf(rewritten)).toBe("echo: rewritten: x");

      const sessionId = transport.sessionId!;
      expect(sessionId).toBeTruthy();
      let trace = { code: 1, stdout: "", stderr: "" };
      for (let tries = 0; tries < 20; tries++) {
        trace = await cli(["trace", where.config, "--session", sessionId, "--json"]);
        if (trace.code === 0 && trace.stdout.includes("up_echo")) break;
        await new Promise((done) => setTimeout(done, 200));
      }
      expect(trace.code).toBe(0);
      expect(trace.stdout).toContain("writes stay inside the output folder");
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  }, 30_000);

  it("keeps counters per session: a new MCP session has its own max_fires budget", async () => {
    const first = await connect(gateway.url, TOKEN);
    const second = await connect(gateway.url, TOKEN);
    try {
      const stamped = async (client: Client, count: number) => {
        const results = await Promise.all(
          Array.from({ length: count }, (_, n) => client.callTool({ name: "files_count", arguments: { n } })),
        );
        return results.filter((result) => (JSON.parse(textOf(result)) as { stamped?: boolean }).stamped)
          .length;
      };
      expect(await stamped(first.client, 60)).toBe(50);
      expect(await stamped(second.client, 10)).toBe(10);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  }, 30_000);

  it("closes the upstream MCP server when it stops", async () => {
    const { client } = await connect(gateway.url, TOKEN);
    const pid = Number(textOf(await client.callTool({ name: "up_pid", arguments: {} })));
    expect(alive(pid)).toBe(true);
    await client.close();
    const code = await gateway.stop();
    expect(code).toBe(0);
    await eventually(() => !alive(pid), 10_000, "the upstream server's exit");
  }, 30_000);
});

describe("hookwise mcp --http on a port in use", () => {
  it("says which port and what to do, in one line, exit 1", async () => {
    const where = gatewayDir();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const result = await cli(["mcp", where.config, "--http", "--port", String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `cannot listen on 127.0.0.1:${port}: port ${port} is in use (choose another with --port, or --port 0 for any free one)`,
      );
      expect(result.stderr).not.toContain("internal error");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      where.cleanup();
    }
  });
});

describe("hookwise mcp --http without a token", () => {
  it("refuses to bind beyond loopback (a usage error, exit 2)", async () => {
    const where = gatewayDir();
    try {
      const result = await cli(["mcp", where.config, "--http", "--host", "0.0.0.0", "--port", "0"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("HOOKWISE_SERVER_TOKEN");
    } finally {
      where.cleanup();
    }
  });
});
