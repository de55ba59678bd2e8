/**
 * `hookwise serve` lists the MCP gateway's sessions: an MCP client calls tools through
 * `hookwise mcp` (a process of its own) — one call runs, one is rewritten by a hook, one is
 * denied by a policy — and a server on the same store lists the session with its client and
 * shows each call with its decision (`GET /gateway/sessions`, `GET /gateway/sessions/:id`),
 * behind the server's token like the rest of the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookwiseServer, serve } from "../../src/server/serve.js";
import { type GatewayDir, gatewayDir, stdioGateway } from "./gateway-fixture.js";

interface ListedSession {
  id: string;
  agent: string;
  client?: string;
  calls: number;
  lastTool?: string;
  lastDecision?: string;
}

interface ShownCall {
  tool: string;
  args: Record<string, unknown>;
  ranArgs?: Record<string, unknown>;
  decision: string;
  hook?: string;
  reason?: string;
  summary: string;
  result?: unknown;
  isError: boolean;
  hooks: { hook: string; event: string; effect: string; reason?: string }[];
}

const TOKEN = "a-token-of-sixteen-characters-or-more";

describe("hookwise serve lists the MCP gateway's sessions with their decisions", () => {
  let where: GatewayDir;
  let server: HookwiseServer;
  let sessionId: string;
  const get = (path: string, token = TOKEN) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    where = gatewayDir();
    const gateway = await stdioGateway(where);
    try {
      await gateway.client.callTool({ name: "files_write", arguments: { path: "kept.txt", text: "hi" } });
      await gateway.client.callTool({ name: "files_count", arguments: { n: 2 } });
      await gateway.client.callTool({ name: "files_write", arguments: { path: "/etc/passwd", text: "x" } });
      sessionId = gateway.sessionId()!;
    } finally {
      // Closing the client ends the gateway, which writes what it still holds before it exits.
      await gateway.client.close();
    }
    expect(sessionId).toBeTruthy();
    server = await serve({
      config: where.config,
      port: 0,
      host: "127.0.0.1",
      log: () => {},
      env: { HOOKWISE_SERVER_TOKEN: TOKEN },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    where?.cleanup();
  });

  it("lists the session with its client, its calls and the last decision", async () => {
    const response = await get("/gateway/sessions");
    expect(response.status).toBe(200);
    const { sessions } = (await response.json()) as { sessions: ListedSession[] };
    expect(sessions).toEqual([
      {
        id: sessionId,
        agent: "gate",
        client: "gateway-test 1.0.0",
        calls: 3,
        lastActiveAt: expect.any(Number),
        lastTool: "files.write",
        lastDecision: "denied",
      },
    ]);
  });

  it("shows each call with its arguments, decision, hooks and result, oldest first", async () => {
    const response = await get(`/gateway/sessions/${encodeURIComponent(sessionId)}`);
    expect(response.status).toBe(200);
    const session = (await response.json()) as { id: string; client: string; calls: ShownCall[] };
    expect(session.client).toBe("gateway-test 1.0.0");
    const [written, counted, refused] = session.calls;
    expect(session.calls).toHaveLength(3);

    expect(written).toMatchObject({
      tool: "files.write",
      args: { path: "kept.txt", text: "hi" },
      decision: "ran",
      result: "wrote kept.txt",
      isError: false,
    });

    expect(counted).toMatchObject({
      tool: "files.count",
      args: { n: 2 },
      ranArgs: { n: 2, stamped: true },
      decision: "rewritten",
      hook: "stamp",
    });
    expect(counted!.hooks).toContainEqual(
      expect.objectContaining({ hook: "stamp", event: "tool_call", effect: "rewriteArgs" }),
    );

    expect(refused).toMatchObject({
      tool: "files.write",
      args: { path: "/etc/passwd", text: "x" },
      decision: "denied",
      hook: "policy",
      isError: true,
    });
    expect(refused!.reason).toContain("writes stay inside the output folder");
    expect(refused!.hooks).toContainEqual(
      expect.objectContaining({
        hook: "policy",
        effect: "deny",
        reason: "writes stay inside the output folder",
      }),
    );
  });

  it("answers 404 for a session it has no gateway record of, and 401 without the token", async () => {
    expect((await get("/gateway/sessions/nobody")).status).toBe(404);
    expect((await fetch(`${server.url}/gateway/sessions`)).status).toBe(401);
    expect(
      (await get(`/gateway/sessions/${encodeURIComponent(sessionId)}`, "wrong-token-of-many-characters"))
        .status,
    ).toBe(401);
  });

  it("lists gateway sessions apart from the harnesses' hook sessions", async () => {
    const { sessions } = (await (await get("/hooks/sessions")).json()) as { sessions: { id: string }[] };
    expect(sessions.map((session) => session.id)).not.toContain(sessionId);
  });
});
