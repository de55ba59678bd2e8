/**
 * Two `hookwise serve` processes (replicas) on one real Redis: a session created on one is
 * continued on the other with one transcript; a run suspended on one is approved on the
 * other and resumes there (its tool runs once, in that process); the events of either
 * (sessions created and ended, the inbox, `notify`) reach the `/events` clients of both.
 *
 * Each replica has its own folder (its own scripted model and tool ledger) and one shared
 * Redis key prefix, as two machines behind a load balancer would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";
import { readSse, type SseEvent } from "../support/server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const TOOLS = join(ROOT, "test/fixtures/server/tools.mjs");

const CONFIG = `
models:
  default: scripted:./script.yaml
toolsets:
  bank: { kind: module, path: ./tools.mjs }
runtime:
  policies:
    - { decision: ask_user, tool: bank.pay, reason: "payments need a human" }
  hooks:
    - id: goodbye
      on: session_end
      action: { type: notify, title: "session ended", message: "session {{session.id}} ended" }
agents:
  - id: teller
    instructions: "You are a bank teller."
    tools: [bank.*]
`;

interface Replica {
  name: string;
  dir: string;
  url: string;
  child: ChildProcess;
  ledger(): string[];
  post(path: string, body?: unknown): Promise<Response>;
}

async function startReplica(name: string, redisUrl: string, script: unknown[]): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), `hookwise-replica-${name}-`));
  copyFileSync(TOOLS, join(dir, "tools.mjs"));
  writeFileSync(join(dir, "script.yaml"), stringify(script));
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "serve", join(dir, "hookwise.yaml"), "--port", "0"],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        HOOKWISE_STATE_URL: `${redisUrl}/0`,
        HOOKWISE_SERVER_TOKEN: "",
        NO_COLOR: "1",
      },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`replica ${name}: no URL after 60 s: ${stderr}`)),
      60_000,
    );
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`replica ${name} exited (${code}): ${stderr}`));
    });
  });
  const ledgerFile = join(dir, "ledger.log");
  return {
    name,
    dir,
    url,
    child,
    ledger: () => (existsSync(ledgerFile) ? readFileSync(ledgerFile, "utf8").trim().split("\n") : []),
    post: (path, body) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body ?? {}),
      }),
  };
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica) return;
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    const exited = once(replica.child, "exit");
    replica.child.kill("SIGTERM");
    const timer = setTimeout(() => replica.child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(replica.dir, { recursive: true, force: true });
}

/** Follows a replica's `/events` and keeps what it heard. */
async function listen(replica: Replica) {
  const controller = new AbortController();
  const response = await fetch(`${replica.url}/events`, { signal: controller.signal });
  expect(response.status).toBe(200);
  const heard: SseEvent[] = [];
  const reading = (async () => {
    try {
      for await (const event of readSse(response)) heard.push(event);
    } catch {
      // Aborted by stop().
    }
  })();
  return {
    heard,
    /** Waits until an event matching `match` has arrived. */
    until: (match: (event: SseEvent) => boolean) =>
      expect.poll(() => heard.some(match), { timeout: 20_000, interval: 25 }).toBe(true),
    stop: async () => {
      controller.abort();
      await reading;
    },
  };
}

describe.skipIf(!redisAvailable)("two hookwise serve replicas on one Redis", () => {
  let redis: RedisServer;
  let a: Replica | undefined;
  let b: Replica | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    // What each replica's model answers. A session keeps its place in the script across
    // replicas (the place is kept in Redis), so entry n answers a session's n-th model call
    // on whichever replica makes it: the chat's calls are A's 0 and B's 1, the payment's
    // B's 0, A's 1 (the payment asked) and B's 2 (after the approval).
    [a, b] = await Promise.all([
      startReplica("a", redis.url, [
        { text: "Hello from replica A." },
        { tool_calls: [{ name: "bank_pay", args: { amount: 9 } }] },
      ]),
      startReplica("b", redis.url, [
        { text: "Ready when you are." },
        { text: "Hello again, from replica B." },
        { text: "Paid 9." },
      ]),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopReplica(a), stopReplica(b)]);
    await redis?.stop();
  }, 60_000);

  it("continue each other's sessions, share the inbox, and relay every event to both", async () => {
    const onA = await listen(a!);
    const onB = await listen(b!);
    try {
      // A session created on A is known to B (and B's clients hear it was created).
      const { id: chat } = (await (await a!.post("/sessions")).json()) as { id: string };
      await onB.until((event) => event.event === "session" && event.data.sessionId === chat);
      const first = (await (await a!.post(`/sessions/${chat}/messages`, { text: "Hi" })).json()) as {
        text: string;
      };
      expect(first.text).toBe("Hello from replica A.");
      const second = (await (
        await b!.post(`/sessions/${chat}/messages`, { text: "Still there?" })
      ).json()) as {
        text: string;
        outcome: string;
      };
      expect(second).toMatchObject({ outcome: "completed", text: "Hello again, from replica B." });
      // One transcript, both turns, read from either replica.
      for (const replica of [a!, b!]) {
        const session = (await (await fetch(`${replica.url}/sessions/${chat}`)).json()) as {
          messages: { role: string; content: unknown }[];
        };
        expect(session.messages.filter((message) => message.role === "user").map((m) => m.content)).toEqual([
          "Hi",
          "Still there?",
        ]);
        expect(session.messages.filter((message) => message.role === "assistant")).toHaveLength(2);
      }

      // A payment asked on A waits in the inbox of both; B approves, and the run resumes on B.
      const { id: payment } = (await (await a!.post("/sessions")).json()) as { id: string };
      const ready = (await (await b!.post(`/sessions/${payment}/messages`, { text: "Hello" })).json()) as {
        text: string;
      };
      expect(ready.text).toBe("Ready when you are.");
      const asked = (await (await a!.post(`/sessions/${payment}/messages`, { text: "Pay 9" })).json()) as {
        outcome: string;
      };
      expect(asked.outcome).toBe("suspended");
      await onB.until((event) => event.event === "inbox" && event.data.reason === "suspended");
      const inbox = (await (await fetch(`${b!.url}/approvals`)).json()) as {
        approvals: { id: string; sessionId: string; reason?: string }[];
      };
      expect(inbox.approvals).toHaveLength(1);
      expect(inbox.approvals[0]).toMatchObject({ sessionId: payment, reason: "payments need a human" });
      const resumed = (await (
        await b!.post(`/approvals/${inbox.approvals[0]!.id}`, { decision: "approve" })
      ).json()) as {
        outcome: string;
        text: string;
      };
      expect(resumed).toMatchObject({ outcome: "completed", text: "Paid 9." });
      // The tool ran once, in the replica that resumed the run.
      expect(b!.ledger()).toEqual(["pay 9"]);
      expect(a!.ledger()).toEqual([]);
      await onA.until((event) => event.event === "inbox" && event.data.reason === "resumed");
      expect((await (await fetch(`${a!.url}/approvals`)).json()) as unknown).toEqual({ approvals: [] });

      // Ending the chat on B: its session_end's notify reaches the clients of A as well.
      const ended = await fetch(`${b!.url}/sessions/${chat}`, { method: "DELETE" });
      expect(ended.status).toBeLessThan(300);
      const notified = (event: SseEvent) =>
        event.event === "notification" && String(event.data.message).includes(`session ${chat} ended`);
      await onA.until(notified);
      await onB.until(notified);
      // Each replica delivers an event once, never its own a second time.
      for (const feed of [onA, onB]) expect(feed.heard.filter(notified)).toHaveLength(1);
    } finally {
      await Promise.all([onA.stop(), onB.stop()]);
    }
  }, 120_000);
});
