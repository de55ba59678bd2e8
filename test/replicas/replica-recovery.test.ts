/**
 * A replica killed mid-run (SIGKILL: no shutdown, its leases left in Redis): while its run
 * was live, another replica showed the run's timeline; once it is dead, the session goes on
 * on another replica at once — the dead holder is on this machine, its pid is gone — well
 * within the documented lease time (`runtime.session_lease`, default 30 s).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";
import { readSse } from "../support/server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CONFIG = `
models:
  default: scripted:./script.yaml
toolsets:
  bank: { kind: module, path: ./tools.mjs }
agents:
  - id: teller
    instructions: "You are a bank teller."
    tools: [bank.*]
`;

interface Replica {
  dir: string;
  url: string;
  child: ChildProcess;
}

async function startReplica(name: string, redisUrl: string, script: unknown[]): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), `hookwise-recovery-${name}-`));
  copyFileSync(join(ROOT, "test/fixtures/server/tools.mjs"), join(dir, "tools.mjs"));
  writeFileSync(join(dir, "script.yaml"), stringify(script));
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "serve", join(dir, "hookwise.yaml"), "--port", "0"],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HOOKWISE_STATE_URL: `${redisUrl}/0`, HOOKWISE_SERVER_TOKEN: "", NO_COLOR: "1" },
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
  return { dir, url, child };
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica) return;
  if (replica.child.exitCode === null && replica.child.signalCode === null) {
    const exited = once(replica.child, "exit");
    replica.child.kill("SIGKILL");
    await exited;
  }
  rmSync(replica.dir, { recursive: true, force: true });
}

const post = (url: string, body: unknown, accept = "application/json") =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify(body),
  });

describe.skipIf(!redisAvailable)("a replica killed mid-run", () => {
  let redis: RedisServer;
  let a: Replica | undefined;
  let b: Replica | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    // The session's first model call (on A) takes a minute; B answers the calls after it.
    [a, b] = await Promise.all([
      startReplica("a", redis.url, [{ text: "too slow", delay_ms: 60_000 }]),
      startReplica("b", redis.url, [{ text: "B here." }, { text: "B here." }, { text: "B here." }]),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopReplica(a), stopReplica(b)]);
    await redis?.stop();
  }, 60_000);

  it("its live run is readable on another replica; after SIGKILL the session continues there at once", async () => {
    const { id } = (await (await post(`${a!.url}/sessions`, {})).json()) as { id: string };
    const controller = new AbortController();
    const streaming = await fetch(`${a!.url}/sessions/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ text: "hello" }),
      signal: controller.signal,
    });
    const events = readSse(streaming);
    const first = await events.next();
    expect(first.value?.event).toBe("run-start");
    const runId = first.value!.data.runId as string;

    // B shows A's run while it is live.
    await expect
      .poll(async () => (await fetch(`${b!.url}/runs/${runId}`)).status, { timeout: 10_000, interval: 50 })
      .toBe(200);
    const timeline = (await (await fetch(`${b!.url}/runs/${runId}`)).json()) as {
      live: boolean;
      input: string;
      events: { type: string }[];
    };
    expect(timeline).toMatchObject({ live: true, input: "hello" });
    expect(timeline.events[0]).toMatchObject({ type: "run-start" });

    // A dies holding the session's leases.
    const exited = once(a!.child, "exit");
    a!.child.kill("SIGKILL");
    await exited;
    controller.abort();

    const started = Date.now();
    const answer = await post(`${b!.url}/sessions/${id}/messages`, { text: "are you there?" });
    const waited = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { text: string }).text).toBe("B here.");
    // Not the lease time (30 s): a dead holder on this machine is taken over at once.
    expect(waited).toBeLessThan(5_000);
  }, 120_000);
});
