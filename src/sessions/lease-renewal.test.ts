/**
 * A lease held longer than its TTL stays held: its holder renews it every third of the TTL,
 * so a second acquire keeps waiting (and fails busy at the end of its wait) until the first
 * holder releases it — then it gets it at once, and the released lease is not renewed again.
 * On every store kind the lease code runs on: memory, SQLite and Redis.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, redisAvailable, startRedis } from "../../test/support/redis-server.js";
import { MemoryStore } from "../state/memory-store.js";
import { RedisStore } from "../state/redis-store.js";
import { SqliteStore } from "../state/sqlite-store.js";
import type { StateStore } from "../state/state-store.js";
import { acquireSessionLease } from "./session-lease.js";

const LEASE_MS = 300;
const dirs: string[] = [];
let redis: RedisServer | undefined;

beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, () => StateStore][] = [
  ["memory", () => new MemoryStore()],
  [
    "sqlite",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "hookwise-renewal-"));
      dirs.push(dir);
      return new SqliteStore({ path: join(dir, "state.db") });
    },
  ],
  ["redis", () => new RedisStore({ url: redis!.url, prefix: `renewal-${Date.now()}-${Math.random()}:` })],
];

describe.each(kinds)("%s: a lease held longer than its TTL", (kind, open) => {
  it.skipIf(kind === "redis" && !redisAvailable)(
    "is renewed: a second acquire waits it out and fails busy; after release it gets it at once",
    async () => {
      const store = open();
      try {
        const first = await acquireSessionLease(store, "s", { waitMs: 0, leaseMs: LEASE_MS });
        // Waiting three TTLs: without renewal the first lease lapsed long before.
        const started = Date.now();
        const refused = await acquireSessionLease(store, "s", {
          waitMs: 3 * LEASE_MS,
          leaseMs: LEASE_MS,
        }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toMatchObject({ name: "SessionBusyError", reason: "busy" });
        // It waited as long as it was told, not longer.
        const waited = Date.now() - started;
        expect(waited).toBeGreaterThanOrEqual(3 * LEASE_MS - 20);
        expect(waited).toBeLessThan(3 * LEASE_MS + 450);
        expect(first.lost).toBe(false);
        await first.release();
        // Released for good: its renewal timer does not take it back meanwhile.
        await sleep(LEASE_MS);
        const second = await acquireSessionLease(store, "s", { waitMs: 0, leaseMs: LEASE_MS });
        await second.release();
      } finally {
        await store.close();
      }
    },
  );
});
