/**
 * `runtime.approvals: inbox` for processes that have no run to suspend: a real `hookwise
 * hook` process (Claude Code's PreToolUse on stdin) and a real `hookwise mcp` gateway
 * (the SDK's client, without elicitation) post the call to the store and wait; a real
 * `hookwise serve` on the same store lists it in GET /approvals and decides it once. The
 * waiting process answers allow or deny; no decision in time is a denial. On SQLite (no
 * notifications: the waiter polls) and on a real redis-server (notified).
 */
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookCommand } from "../../src/cli/commands/hook-command.js";
import { gatewayDir, stdioGateway, textOf } from "../gateway/gateway-fixture.js";
import { claudePre, hookConfig, hookProcess } from "../support/inbox-hook.js";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";
import { BANK_CONFIG, startServer, type TestServer } from "../support/server.js";

/** Polls GET /approvals until an item of `sessionId` is listed (bounded). */
async function waitingItem(server: TestServer, sessionId: string, ms = 30_000): Promise<any> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const { approvals } = (await (await server.fetch("/approvals")).json()) as { approvals: any[] };
    const found = approvals.find((item) => item.sessionId === sessionId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no approval of session ${sessionId} listed within ${ms} ms`);
}

function decide(server: TestServer, id: string, decision: "approve" | "deny", reason?: string) {
  return server.post(`/approvals/${encodeURIComponent(id)}`, { decision, ...(reason ? { reason } : {}) });
}

function serverOn(state: string): Promise<TestServer> {
  return startServer({ replaceConfig: BANK_CONFIG.replace("state: { kind: memory }", `state: ${state}`) });
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-inbox-"));
  dirs.push(dir);
  return dir;
}

describe("hookwise hook with approvals: inbox, decided by hookwise serve on the same SQLite store", () => {
  let server: TestServer;
  let config: string;
  let state: string;

  beforeAll(async () => {
    const dir = tempDir();
    state = `{ kind: sqlite, path: ${join(dir, "state.db")} }`;
    config = join(dir, "hookwise.yaml");
    writeFileSync(config, hookConfig(state));
    server = await serverOn(state);
  }, 60_000);
  afterAll(() => server?.close());

  it("waits for the inbox: approved, Claude Code is told allow; a second decision is refused", async () => {
    const hook = hookProcess(config, claudePre("deploy --env prod", "sess-approve"));
    const item = await waitingItem(server, "sess-approve");
    expect(item).toMatchObject({
      toolName: "Bash",
      reason: "deploys need a human",
      waiter: "Claude Code (hookwise hook)",
    });
    expect(item.args).toEqual({ command: "deploy --env prod", description: "deploy it" });
    const [first, second] = await Promise.all([
      decide(server, item.id, "approve"),
      decide(server, item.id, "deny", "too late"),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const answer = await hook.done;
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout).hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: first.status === 200 ? "allow" : "deny",
    });
    // Decided: no longer listed.
    const { approvals } = (await (await server.fetch("/approvals")).json()) as { approvals: any[] };
    expect(approvals.filter((entry) => entry.sessionId === "sess-approve")).toEqual([]);
  }, 60_000);

  it("denied in the inbox: Claude Code is told deny, with the reviewer's reason", async () => {
    const hook = hookProcess(config, claudePre("deploy prod", "sess-deny"));
    const item = await waitingItem(server, "sess-deny");
    expect((await decide(server, item.id, "deny", "not on a Friday")).status).toBe(200);
    const answer = await hook.done;
    expect(answer.code).toBe(0);
    const output = JSON.parse(answer.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    expect(output.permissionDecisionReason).toContain("not on a Friday");
  }, 60_000);

  it("no decision before the deadline: denied with the reason, and a late approval is refused", async () => {
    const dir = tempDir();
    const short = join(dir, "hookwise.yaml");
    writeFileSync(short, hookConfig(state, 2));
    const hook = hookProcess(short, claudePre("deploy staging", "sess-timeout"));
    const item = await waitingItem(server, "sess-timeout");
    const answer = await hook.done;
    const output = JSON.parse(answer.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    expect(output.permissionDecisionReason).toMatch(/no decision in the approval inbox within \d+ s/);
    const late = await decide(server, item.id, "approve");
    expect([409, 410]).toContain(late.status);
  }, 60_000);

  it("Gemini CLI, which has no prompt of its own, waits in the inbox too: approved, it is told allow", async () => {
    const hook = hookProcess(
      config,
      {
        session_id: "sess-gemini",
        hook_event_name: "BeforeTool",
        tool_name: "run_shell_command",
        tool_input: { command: "deploy prod" },
        cwd: "/tmp",
        timestamp: "2026-01-01T00:00:00Z",
      },
      40,
      "gemini",
    );
    const item = await waitingItem(server, "sess-gemini");
    expect(item).toMatchObject({ toolName: "run_shell_command", waiter: "Gemini CLI (hookwise hook)" });
    expect((await decide(server, item.id, "approve")).status).toBe(200);
    const answer = await hook.done;
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "allow" });
  }, 60_000);

  it("a call the policy does not ask about is answered at once, nothing is posted", async () => {
    const answer = await hookProcess(config, claudePre("ls", "sess-none")).done;
    expect(answer.code).toBe(0);
    expect(answer.stdout.includes('"deny"')).toBe(false);
    const { approvals } = (await (await server.fetch("/approvals")).json()) as { approvals: any[] };
    expect(approvals.filter((entry) => entry.sessionId === "sess-none")).toEqual([]);
  }, 60_000);
});

describe("hookwise hook with approvals: inbox on a store nobody else sees", () => {
  it("denies at once, saying the inbox needs a shared store", async () => {
    const dir = tempDir();
    const config = join(dir, "hookwise.yaml");
    writeFileSync(config, hookConfig("{ kind: memory }"));
    let stdout = "";
    const sink = { line: () => {}, write: () => {} };
    const io = {
      stdout: {
        line: () => {},
        write: (text: string) => {
          stdout += text;
        },
      },
      stderr: sink,
      isTTY: false,
    };
    const started = Date.now();
    const code = await hookCommand(
      config,
      { harness: "claude" },
      io,
      Readable.from([Buffer.from(JSON.stringify(claudePre("deploy prod", "sess-memory")))]),
    );
    expect(code).toBe(0);
    const output = JSON.parse(stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    expect(output.permissionDecisionReason).toContain(
      "approvals: inbox needs a state store that hookwise serve can share",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("hookwise mcp with approvals: inbox, for a client without elicitation", () => {
  it("waits; approved through serve's endpoint, the tool runs exactly once; denied, it never runs", async () => {
    const dir = tempDir();
    const state = `{ kind: sqlite, path: ${join(dir, "state.db")} }`;
    const where = gatewayDir(
      (yaml) => `${yaml}\nruntime:\n  state: ${state}\n  approvals: inbox\n  approval_wait: 40\n`,
    );
    const server = await serverOn(state);
    const gateway = await stdioGateway(where);
    try {
      const calling = gateway.client.callTool({ name: "files_wipe", arguments: {} });
      const approval = await (async () => {
        const end = Date.now() + 30_000;
        while (Date.now() < end) {
          const { approvals } = (await (await server.fetch("/approvals")).json()) as { approvals: any[] };
          const found = approvals.find((item) => item.qualifiedName === "files.wipe");
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`nothing listed; gateway stderr: ${gateway.stderr()}`);
      })();
      expect(approval.waiter).toMatch(/^MCP gateway \(client gateway-test\)/);
      expect(existsSync(join(where.out, "wiped.txt"))).toBe(false);
      const results = await Promise.all([
        decide(server, approval.id, "approve"),
        decide(server, approval.id, "approve"),
      ]);
      expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
      const result = await calling;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain("wiped");
      expect(readFileSync(join(where.out, "wiped.txt"), "utf8")).toBe("wiped\n");

      // Denied in the inbox: an error result with the reviewer's reason, and it never ran.
      const second = gateway.client.callTool({ name: "files_wipe", arguments: {} });
      const waiting = await waitingItem(server, approval.sessionId);
      expect((await decide(server, waiting.id, "deny", "one wipe a day")).status).toBe(200);
      const denied = await second;
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain("one wipe a day");
      expect(readFileSync(join(where.out, "wiped.txt"), "utf8")).toBe("wiped\n");
    } finally {
      await gateway.client.close();
      await server.close();
      where.cleanup();
    }
  }, 90_000);
});

describe.skipIf(!redisAvailable)("approvals: inbox on Redis", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(() => redis?.stop());

  it("a hook waiting on Redis is approved by serve on the same Redis, and told allow", async () => {
    const dir = tempDir();
    const state = `{ kind: redis, url: "${redis.url}" }`;
    const config = join(dir, "hookwise.yaml");
    writeFileSync(config, hookConfig(state));
    const server = await serverOn(state);
    try {
      const hook = hookProcess(config, claudePre("deploy prod", "sess-redis"));
      const item = await waitingItem(server, "sess-redis");
      const decidedAt = Date.now();
      expect((await decide(server, item.id, "approve")).status).toBe(200);
      const answer = await hook.done;
      expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
      // Notified, not polled at 500 ms: the answer follows the decision closely (process exit included).
      expect(Date.now() - decidedAt).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("with the inbox's key pair: serve's signed approval allows; an approval written straight to Redis denies", async () => {
    const dir = tempDir();
    const prefix = `signed-${Date.now()}:`;
    const state = `{ kind: redis, url: "${redis.url}", prefix: "${prefix}" }`;
    const config = join(dir, "hookwise.yaml");
    writeFileSync(config, hookConfig(state));
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const env = { HOOKWISE_INBOX_PUBLIC_KEY: publicKey.export({ type: "spki", format: "pem" }).toString() };
    process.env.HOOKWISE_INBOX_PRIVATE_KEY = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    let server: TestServer;
    try {
      server = await serverOn(state);
    } finally {
      delete process.env.HOOKWISE_INBOX_PRIVATE_KEY;
    }
    const raw = new Redis(redis.url);
    try {
      // What the agent's own shell could do with HOOKWISE_STATE_URL: write "approved" itself.
      const forged = hookProcess(config, claudePre("deploy prod", "sess-forged"), 40, "claude", env);
      const waiting = await waitingItem(server, "sess-forged");
      await raw.set(
        `${prefix}kv:approval-decision:${waiting.id}`,
        JSON.stringify({ approved: true, by: "inbox", reason: "lgtm" }),
      );
      await raw.publish(`${prefix}channel:hookwise:approval-decisions`, waiting.id);
      const refused = JSON.parse((await forged.done).stdout).hookSpecificOutput;
      expect(refused.permissionDecision).toBe("deny");
      expect(refused.permissionDecisionReason).toContain("HOOKWISE_INBOX_PUBLIC_KEY does not verify");
      // Approved in serve's inbox: signed, and allowed.
      const hook = hookProcess(config, claudePre("deploy prod", "sess-signed"), 40, "claude", env);
      const item = await waitingItem(server, "sess-signed");
      expect((await decide(server, item.id, "approve")).status).toBe(200);
      expect(JSON.parse((await hook.done).stdout).hookSpecificOutput.permissionDecision).toBe("allow");
    } finally {
      raw.disconnect();
      await server.close();
    }
  }, 90_000);
});
