/**
 * `hookwise mcp` against a client that tries to get around its config, with the official
 * SDK client and raw JSON-RPC, in front of an upstream MCP server that records every call
 * it receives: what the gateway refused must never reach it.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpGateway, NO_MODEL, serveHttp } from "../../src/gateway/index.js";
import { createAgent } from "../../src/index.js";
import { cli } from "../support/cli.js";
import {
  CLI,
  eventually,
  type GatewayDir,
  gatewayDir,
  httpGateway,
  type StdioGatewayClient,
  stdioGateway,
  textOf,
} from "./gateway-fixture.js";

const RECORDING_SERVER = resolve(import.meta.dirname, "fixtures/recording-server.mjs");

/** A config whose only upstream is the recording server, writing to `received.jsonl`. */
function config(agent: string, runtime = ""): (yaml: string) => string {
  return () => `
toolsets:
  up: { kind: mcp, command: node, args: [${JSON.stringify(RECORDING_SERVER)}, ./received.jsonl] }
${runtime}
agents:
${agent}
`;
}

/** What the upstream server received. */
function received(where: GatewayDir): { tool: string; args: Record<string, unknown> }[] {
  const file = join(where.dir, "received.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

let where: GatewayDir | undefined;
let gateway: StdioGatewayClient | undefined;

afterEach(async () => {
  await gateway?.client.close();
  gateway = undefined;
  where?.cleanup();
  where = undefined;
});

describe("names", () => {
  it("finds a tool by its exact names only: look-alikes, the upstream's own name and hidden tools are unknown", async () => {
    where = gatewayDir((yaml) =>
      config(`
  - id: gate
    tools: [up.write, up.wipe, twin.write]
    policies:
      - { decision: deny, tool: up.wipe, reason: "never wipe" }
      - { decision: deny, tool: twin.write, when: '!args.path.startsWith("notes/")', reason: "twin writes notes only" }
`)(yaml).replace(
        "\n\nagents:",
        `\n  twin: { kind: mcp, command: node, args: [${JSON.stringify(RECORDING_SERVER)}, ./twin.jsonl] }\n\nagents:`,
      ),
    );
    gateway = await stdioGateway(where);
    const listed = (await gateway.client.listTools()).tools.map((tool) => tool.name);
    expect(listed.sort()).toEqual(["twin_write", "up_write"]);
    const unknown = [
      "UP_WIPE",
      "up_wipe ",
      "wipe",
      "write",
      "up.wipe\u0000",
      "up\u2024wipe",
      "up_wıpe",
      "up_pick",
    ];
    for (const name of unknown) {
      const result = await gateway.client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("unknown tool");
      expect(
        textOf(result)
          .split("available tools:")[1]
          ?.split(",")
          .map((tool) => tool.trim())
          .sort(),
      ).toEqual(["twin_write", "up_write"]);
    }
    for (const name of ["up_wipe", "up.wipe"]) {
      const result = await gateway.client.callTool({ name, arguments: {} });
      expect(textOf(result)).toContain("never wipe");
    }
    // Two upstreams with the same tool: each name reaches its own server, under its own policy.
    const twin = await gateway.client.callTool({
      name: "twin_write",
      arguments: { path: "plan.md", text: "x" },
    });
    expect(textOf(twin)).toContain("twin writes notes only");
    const up = await gateway.client.callTool({ name: "up_write", arguments: { path: "plan.md", text: "x" } });
    expect(textOf(up)).toBe("wrote plan.md");
    expect(received(where)).toEqual([{ tool: "write", args: { path: "plan.md", text: "x" } }]);
    expect(existsSync(join(where.dir, "twin.jsonl"))).toBe(false);
  }, 60_000);
});

describe("arguments", () => {
  it("a condition over a string denies what is not one: lists, objects, numbers, nulls, prototype keys", async () => {
    where = gatewayDir(
      config(`
  - id: gate
    tools: [up.wipe]
    policies:
      - { decision: deny, tool: up.wipe, when: 'args.mode.contains("all")', reason: "no wiping all" }
`),
    );
    gateway = await stdioGateway(where);
    const tricks = [
      { mode: "all" },
      { mode: ["all"] },
      { mode: { all: true } },
      { mode: 1 },
      { mode: null },
      {},
      JSON.parse('{"__proto__": {"mode": "all"}}'),
      JSON.parse('{"constructor": {"prototype": {"mode": "all"}}}'),
      JSON.parse('{"mode": "some", "mode": "all"}'),
    ];
    for (const args of tricks) {
      const result = await gateway.client.callTool({ name: "up_wipe", arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
    }
    expect(received(where)).toEqual([]);
    const allowed = await gateway.client.callTool({ name: "up_wipe", arguments: { mode: "some" } });
    expect(textOf(allowed)).toBe("wiped");
    expect(received(where)).toHaveLength(1);
  }, 60_000);
});

describe("limits", () => {
  it("counts a session's calls for tool_calls: calls made at once cannot slip under the cap", async () => {
    where = gatewayDir(
      config(`
  - id: gate
    hooks:
      - id: cap
        on: tool_call
        condition: { type: tool_calls, threshold: 2 }
        action: { type: gate, reason: "at most 3 calls per session" }
`),
    );
    gateway = await stdioGateway(where);
    const client = gateway.client;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        client.callTool({ name: "up_write", arguments: { path: `p${index}`, text: "x" } }),
      ),
    );
    const denied = results.filter((result) => result.isError);
    expect(denied).toHaveLength(3);
    for (const result of denied) expect(textOf(result)).toContain("at most 3 calls per session");
    expect(received(where)).toHaveLength(3);
    // One after the others: still over the cap.
    const later = await client.callTool({ name: "up_write", arguments: { path: "later", text: "x" } });
    expect(later.isError).toBe(true);
    expect(received(where)).toHaveLength(3);
  }, 60_000);
});

describe("approvals", () => {
  it("shows the user every argument of a call too long to show whole: none hides past the cut", async () => {
    where = gatewayDir(
      config(`
  - id: gate
    policies:
      - { decision: ask_user, tool: up.write, reason: "writes need a human" }
`),
    );
    gateway = await stdioGateway(where, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    gateway.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "decline" };
    });
    const padding = "harmless ".repeat(400);
    const result = await gateway.client.callTool({
      name: "up_write",
      arguments: { text: padding, path: "/etc/passwd" },
    });
    expect(result.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"path": "/etc/passwd"');
    expect(asked[0]).toContain(`(${JSON.stringify(padding).length} characters in all)`);
    expect(asked[0]!.length).toBeLessThan(2_600);
    expect(received(where)).toEqual([]);
  }, 60_000);

  it("an approval answers its own call only: of two calls asked at once, the declined one never runs", async () => {
    where = gatewayDir(
      config(`
  - id: gate
    policies:
      - { decision: ask_user, tool: up.write, reason: "writes need a human" }
`),
    );
    gateway = await stdioGateway(where, { capabilities: { elicitation: {} } });
    gateway.client.setRequestHandler(ElicitRequestSchema, async (request) =>
      request.params.message.includes("approved.md")
        ? { action: "accept", content: {} }
        : { action: "decline" },
    );
    const [approved, declined] = await Promise.all([
      gateway.client.callTool({ name: "up_write", arguments: { path: "approved.md", text: "x" } }),
      gateway.client.callTool({ name: "up_write", arguments: { path: "declined.md", text: "x" } }),
    ]);
    expect(approved.isError).toBeFalsy();
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain("declined");
    expect(received(where)).toEqual([{ tool: "write", args: { path: "approved.md", text: "x" } }]);
  }, 60_000);

  it("with an approval inbox, a client that declares elicitation cannot approve its own call", async () => {
    where = gatewayDir(
      config(
        `
  - id: gate
    policies:
      - { decision: ask_user, tool: up.wipe, reason: "wiping needs a human" }
`,
        `runtime:
  state: { kind: sqlite, path: ./state.db }
  approvals: inbox
  approval_wait: 1`,
      ),
    );
    gateway = await stdioGateway(where, { capabilities: { elicitation: {} } });
    let asked = 0;
    gateway.client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: "accept", content: {} };
    });
    const result = await gateway.client.callTool({ name: "up_wipe", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no decision/i);
    expect(asked).toBe(0);
    expect(received(where)).toEqual([]);
  }, 60_000);
});

/** A raw POST of `body` to the gateway, with the headers given (Host and Origin too, which fetch cannot set). */
function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; session: string | undefined; text: string }> {
  return new Promise((done, fail) => {
    const sent = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        response.on("end", () =>
          done({
            status: response.statusCode ?? 0,
            session: response.headers["mcp-session-id"] as string | undefined,
            text,
          }),
        );
      },
    );
    sent.on("error", fail);
    sent.end(JSON.stringify(body));
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
};

describe("evidence", () => {
  it("a client's name cannot forge a line of the gateway's log nor act on a terminal", async () => {
    where = gatewayDir(config("  - id: gate"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI, "mcp", where.config],
      cwd: where.dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({
      name: "x\u001b[2J\rOVERWRITTEN\nhookwise mcp: every call approved by admin\u202e",
      version: "1",
    });
    await client.connect(transport);
    try {
      await client.callTool({ name: "up_write", arguments: { path: "a", text: "x" } });
    } finally {
      await client.close();
    }
    expect(stderr).toContain("(client x");
    expect(stderr).not.toMatch(/^hookwise mcp: every call/m);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(stderr).not.toMatch(/[\u001b\r\u202e]/);
  }, 60_000);
});

describe("secrets", () => {
  it("a secret an upstream server puts in its tool list, its progress or its schema's errors reaches the client masked", async () => {
    const secret = "sk-upstream-3f9a2c7e41b8d605";
    where = gatewayDir((yaml) =>
      config("  - id: gate")(yaml).replace(
        "./received.jsonl] }",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's ${VAR}, not a template
        './received.jsonl], env: { RECORDING_NOTE: "key ${GATEWAY_TEST_SECRET}" } }',
      ),
    );
    gateway = await stdioGateway(where, { env: { GATEWAY_TEST_SECRET: secret } });
    const listed = await gateway.client.listTools();
    const write = listed.tools.find((tool) => tool.name === "up_write")!;
    expect(write.description).toContain("[redacted GATEWAY_TEST_SECRET]");
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Progress an upstream server reports while it runs is masked the same way.
    const progress: string[] = [];
    const result = await gateway.client.callTool({ name: "up_report", arguments: {} }, undefined, {
      onprogress: (note) => progress.push(note.message ?? ""),
    });
    expect(textOf(result)).toBe("reported");
    expect(progress).toEqual(["half done (key [redacted GATEWAY_TEST_SECRET])"]);
    // Invalid arguments: the error names what the schema allows, masked.
    const invalid = await gateway.client.callTool({ name: "up_pick", arguments: { which: "guess" } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("invalid arguments");
    expect(textOf(invalid)).not.toContain(secret);
    expect(received(where).map((call) => call.tool)).toEqual(["report"]);
  }, 60_000);
});

describe("Streamable HTTP", () => {
  it("answers no web page of another site (Origin) and no other host name (DNS rebinding)", async () => {
    where = gatewayDir(config("  - id: gate"));
    const http = await httpGateway(where);
    try {
      const port = new URL(http.url).port;
      const evil = await post(http.url, { origin: "https://evil.example" }, INITIALIZE);
      expect(evil.status).toBe(403);
      expect(evil.session).toBeUndefined();
      expect(evil.text).toContain("another site");
      const sandboxed = await post(http.url, { origin: "null" }, INITIALIZE);
      expect(sandboxed.status).toBe(403);
      const rebound = await post(http.url, { host: `evil.example:${port}` }, INITIALIZE);
      expect(rebound.status).toBe(403);
      expect(rebound.session).toBeUndefined();
      // A page served from loopback, and a client that sends no Origin, are answered.
      const local = await post(http.url, { origin: "http://localhost:5173" }, INITIALIZE);
      expect(local.status).toBe(200);
      expect(local.session).toBeDefined();
      const plain = await post(http.url, {}, INITIALIZE);
      expect(plain.status).toBe(200);
    } finally {
      await http.stop();
    }
  }, 60_000);
});

describe("protocol", () => {
  it("over stdio, runs nothing before initialize, nor a call sent as a notification or in a batch", async () => {
    where = gatewayDir(config("  - id: gate"));
    const child = spawn(process.execPath, [...CLI, "mcp", where.config], {
      cwd: where.dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
      });
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      const write = (path: string) => ({ name: "up_write", arguments: { path, text: "x" } });
      send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: write("before-initialize") });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      send({ jsonrpc: "2.0", method: "tools/call", params: write("notification") });
      send([{ jsonrpc: "2.0", id: 3, method: "tools/call", params: write("batch") }]);
      send({ ...INITIALIZE, id: 10 });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: write("after") });
      const answers = () =>
        out
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { id: number; error?: { message: string } });
      await eventually(
        () => answers().some((answer) => answer.id === 4),
        30_000,
        "the call after initialize",
      );
      const byId = new Map(answers().map((answer) => [answer.id, answer]));
      expect(byId.get(1)?.error?.message).toContain("initialize first");
      expect(byId.get(2)?.error?.message).toContain("initialize first");
      expect(received(where).map((call) => call.args.path)).toEqual(["after"]);
    } finally {
      // A child that has already ended sends no more "exit": waiting for one would hang.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
    }
  }, 60_000);

  it("over stdio, what a tool module prints on stdout goes to stderr: every line the client reads is the protocol's", async () => {
    where = gatewayDir(
      () =>
        "toolsets:\n  chat: { kind: module, path: ./chatty.mjs }\nagents:\n  - id: gate\n    tools: [chat.*]\n",
    );
    writeFileSync(
      join(where.dir, "chatty.mjs"),
      [
        'process.stdout.write("chatty: loaded\\n");',
        "export const hello = {",
        '  description: "Says hello",',
        '  inputSchema: { type: "object", properties: {} },',
        '  execute: () => { process.stdout.write("chatty: raw\\n"); console.log("chatty: log"); return "hello"; },',
        "};",
        "",
      ].join("\n"),
    );
    const child = spawn(process.execPath, [...CLI, "mcp", where.config], {
      cwd: where.dir,
      stdio: ["pipe", "pipe", "pipe"],
    });
    try {
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString("utf8");
      });
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send(INITIALIZE);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "chat_hello", arguments: {} } });
      await eventually(() => out.includes('"id":2'), 30_000, "the call's answer");
      const lines = out.trim().split("\n");
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(out).toContain("hello");
      expect(out).not.toContain("chatty:");
      for (const printed of ["chatty: loaded", "chatty: raw", "chatty: log"]) expect(err).toContain(printed);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
    }
  }, 60_000);

  it("takes the most sessions open at once from --max-sessions, a whole number with --http only", async () => {
    where = gatewayDir(config("  - id: gate"));
    const http = await httpGateway(where, {}, ["--max-sessions", "1"]);
    try {
      expect((await post(http.url, {}, INITIALIZE)).status).toBe(200);
      const second = await post(http.url, {}, INITIALIZE);
      expect(second.status).toBe(503);
      expect(second.text).toContain("1 MCP sessions are open");
    } finally {
      await http.stop();
    }
    for (const [args, message] of [
      [
        ["--http", "--max-sessions", "0"],
        '--max-sessions must be a whole number of sessions, at least 1 (default 1000), got "0"',
      ],
      [["--http", "--max-sessions", "ten"], 'got "ten"'],
      [["--max-sessions", "5"], "--port, --host and --max-sessions go with --http"],
    ] as const) {
      const refused = await cli(["mcp", where.config, ...args]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(message);
    }
  }, 60_000);

  it("keeps at most so many sessions open: one more is refused until one ends", async () => {
    const agent = createAgent({
      name: "cap",
      model: NO_MODEL,
      tools: { noop: { description: "Does nothing", inputSchema: { type: "object" }, execute: () => "ok" } },
    });
    const gateway = new McpGateway({ agent, version: "0.0.0", record: false });
    const lines: string[] = [];
    const http = await serveHttp(gateway, {
      host: "127.0.0.1",
      port: 0,
      token: undefined,
      log: (line) => lines.push(line),
      maxSessions: 2,
    });
    try {
      const first = await post(http.url, {}, INITIALIZE);
      const second = await post(http.url, {}, INITIALIZE);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await post(http.url, {}, INITIALIZE);
      expect(third.status).toBe(503);
      expect(third.session).toBeUndefined();
      expect(third.text).toContain("2 MCP sessions are open");
      expect(lines.join("\n")).toContain("a new session was refused");
      // A session ended makes room for one more.
      const ended = await fetch(http.url, {
        method: "DELETE",
        headers: { "mcp-session-id": first.session!, "mcp-protocol-version": "2025-06-18" },
      });
      expect(ended.status).toBe(200);
      const fourth = await post(http.url, {}, INITIALIZE);
      expect(fourth.status).toBe(200);
    } finally {
      await http.close();
    }
  });
});
