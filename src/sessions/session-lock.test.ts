/**
 * A run waiting for its session's earlier run, in one process: a wait above what a timer can
 * hold (2³¹−1 ms, about 24.8 days) still waits — an overflowing timer would fire at once.
 */
import { describe, expect, it } from "vitest";
import { lockSession, releaseSession } from "./session-lock.js";
import type { SessionRuntime } from "./types.js";

describe("lockSession", () => {
  it("a session_wait above 2^31-1 ms waits for the earlier run instead of failing at once", async () => {
    const runtime = { store: {} } as SessionRuntime;
    expect(lockSession(runtime, "s", 3_000_000_000)).toBeUndefined();
    let settled: "turn" | Error | undefined;
    const second = lockSession(runtime, "s", 3_000_000_000)!;
    second.then(
      () => (settled = "turn"),
      (error: Error) => (settled = error),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBeUndefined(); // still waiting, not busy
    releaseSession(runtime, "s");
    await second;
    expect(settled).toBe("turn");
    releaseSession(runtime, "s");
  });
});

describe("a run whose lease was lost", () => {
  it("is told: its refused commit says the lease lapsed and another run took the session", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { z } = await import("zod");
    const { createAgent, scriptedModel, tool } = await import("../index.js");
    const { SqliteStore } = await import("../state/sqlite-store.js");
    const { sessionLeaseKey } = await import("./session-lease.js");
    const dir = mkdtempSync(join(tmpdir(), "hookwise-lease-lost-"));
    const store = new SqliteStore({ path: join(dir, "state.db") });
    try {
      const pause = tool({
        inputSchema: z.object({}),
        execute: async () => {
          // The process is blocked past the lease; meanwhile another process takes the
          // session and commits a turn to it.
          const until = Date.now() + 200;
          while (Date.now() < until) {}
          expect(await store.lease(sessionLeaseKey("s"), "another-process", 10_000)).toBe(true);
          const record = (await store.loadSession("s"))!;
          await store.saveSession(record);
          await new Promise((resolve) => setTimeout(resolve, 60)); // a renewal finds it taken
          return "done";
        },
      });
      const agent = createAgent({
        model: scriptedModel([{ text: "first" }, { toolCalls: [{ name: "pause" }] }, { text: "second" }]),
        tools: { pause },
        store,
        sessions: { leaseMs: 90 },
      });
      expect((await agent.run("one", { sessionId: "s" })).outcome).toBe("completed");
      await expect(agent.run("two", { sessionId: "s" })).rejects.toThrow(
        /this run's lease lapsed .* and the other run committed first/,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
