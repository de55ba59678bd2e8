/**
 * A graceful stop: a run that finishes within `server.drain` completes, one that does not is
 * aborted (its AbortSignal), a suspended run stays in the store and is resumed by the next
 * server, and the config's MCP servers are closed.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { BANK_CONFIG, collectSse, readSse, startServer, type TestServer } from "../../test/support/server.js";
import { defineHook } from "../hooks/define-hook.js";
import { serve } from "./serve.js";

const MCP_SERVER = resolve(import.meta.dirname, "../../test/fixtures/mcp/stdio-server.mjs");

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("shutdown", () => {
  it("drains running runs (bounded), aborts the rest, keeps suspended runs, closes MCP servers", async () => {
    const config = BANK_CONFIG.replace("state: { kind: memory }", "state: { kind: sqlite, path: state.db }")
      .replace(
        "  bank: { kind: module, path: ./tools.mjs }",
        `  bank: { kind: module, path: ./tools.mjs }\n  mem: { kind: mcp, command: node, args: [${JSON.stringify(MCP_SERVER)}] }`,
      )
      .replace("tools: [bank.*]", "tools: [bank.*, mem.pid]")
      .replace(
        "default: scripted:./script.yaml",
        "default: scripted:./script.yaml\n  clerk: scripted:./clerk.yaml",
      );
    // Each session walks its agent's script from its own place.
    current = await startServer({
      replaceConfig: `${config}  - { id: clerk, model: clerk, tools: [] }\nserver: { drain: 1 }`,
      script: [
        { tool_calls: [{ name: "mem_pid", args: {} }] },
        { text: "ok" },
        { tool_calls: [{ name: "bank_pay", args: { amount: 9 } }] },
      ],
      files: {
        "clerk.yaml": stringify([
          { text: "quick", delay_ms: 300 },
          { text: "never", delay_ms: 30_000 },
        ]),
      },
    });
    const server = current;
    const session = async (agent?: string) =>
      ((await (await server.post("/sessions", { agent })).json()) as { id: string }).id;
    const json = { accept: "application/json" };

    const teller = await session();
    const first = (await (
      await server.post(`/sessions/${teller}/messages`, { text: "pid?" }, json)
    ).json()) as any;
    const pid = Number(first.steps[0].toolResults[0].result);
    expect(alive(pid)).toBe(true);
    const suspended = (await (
      await server.post(`/sessions/${teller}/messages`, { text: "pay 9" }, json)
    ).json()) as any;
    expect(suspended.outcome).toBe("suspended");

    // The slow session's first answer is the quick one; its second never comes in time.
    const slowSession = await session("clerk");
    const warmUp = (await (
      await server.post(`/sessions/${slowSession}/messages`, { text: "hello" }, json)
    ).json()) as any;
    expect(warmUp).toMatchObject({ outcome: "completed", text: "quick" });
    const quick = readSse(
      await server.post(`/sessions/${await session("clerk")}/messages`, { text: "quick" }),
    );
    expect((await quick.next()).value?.event).toBe("run-start");
    const slow = readSse(await server.post(`/sessions/${slowSession}/messages`, { text: "slow" }));
    expect((await slow.next()).value?.event).toBe("run-start");

    const started = Date.now();
    const closing = server.server.close();
    const rest = async (stream: typeof quick) => {
      const events = [];
      for await (const event of stream) events.push(event);
      return events.at(-1)?.data.result;
    };
    const [quickEnd, slowEnd] = await Promise.all([rest(quick), rest(slow)]);
    await closing;
    expect(quickEnd).toMatchObject({ outcome: "completed", text: "quick" });
    expect(slowEnd).toMatchObject({ outcome: "error", reason: expect.stringContaining("aborted") });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(6_000);
    for (let wait = 0; wait < 100 && alive(pid); wait++) await sleep(50);
    expect(alive(pid)).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    // The next server on the same store finds the suspended run and finishes it, the session
    // going on from its place in the script (the fourth entry) rather than from the start.
    writeFileSync(
      join(server.dir, "script.yaml"),
      stringify([
        { text: "from the start" },
        { text: "from the start" },
        { text: "from the start" },
        { text: "Paid 9." },
      ]),
    );
    const next = await serve({ config: join(server.dir, "hookwise.yaml"), port: 0, log: () => {}, env: {} });
    try {
      const { approvals } = (await (await fetch(`${next.url}/approvals`)).json()) as any;
      expect(approvals.map((approval: { runId: string }) => approval.runId)).toEqual([suspended.runId]);
      const response = await fetch(`${next.url}/approvals/${approvals[0].id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ decision: "approve" }),
      });
      const events = await collectSse(response);
      expect(events.at(-1)?.data.result).toMatchObject({ outcome: "completed", text: "Paid 9." });
      expect(server.ledger()).toEqual(["pay 9"]);
    } finally {
      await next.close();
    }
  });

  it("a shutdown with sessions in memory fires their session_end (they cannot outlive the process)", async () => {
    const ended: string[] = [];
    current = await startServer({
      serve: {
        hooks: () => [
          defineHook({
            name: "record-end",
            on: "session_end",
            kind: "inspect",
            handler: (event) => {
              ended.push(`${event.sessionId} ${event.reason}`);
            },
          }),
        ],
      },
    });
    const server = current;
    const ids: string[] = [];
    for (let index = 0; index < 2; index++)
      ids.push(((await (await server.post("/sessions", {})).json()) as any).id);
    await server.server.close();
    expect(ended.sort()).toEqual(ids.map((id) => `${id} shutdown`).sort());
  });
});
