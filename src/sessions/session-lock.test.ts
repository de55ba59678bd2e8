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
