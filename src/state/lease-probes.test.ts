/**
 * Leases across a lapse, on every store kind with a clock a test can move: once a lease
 * lapsed and another holder took it, the first holder's release does not delete it, its
 * renewal does not take it back, and the second holder's release does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore } from "./memory-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./state-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, (now: () => number) => StateStore][] = [
  ["memory", (now) => new MemoryStore({ now })],
  [
    "sqlite",
    (now) => {
      const dir = mkdtempSync(join(tmpdir(), "hookwise-lease-"));
      dirs.push(dir);
      return new SqliteStore({ path: join(dir, "state.db"), now });
    },
  ],
];

describe.each(kinds)("%s: a lease that lapsed and was taken", (_, open) => {
  it("the first holder's release and renewal leave the new holder's lease alone", async () => {
    let clock = 1_000;
    const store = open(() => clock);
    try {
      expect(await store.lease("session:s", "first", 100)).toBe(true);
      expect(await store.lease("session:s", "second", 100)).toBe(false);
      clock += 150; // the first lease lapsed
      expect(await store.lease("session:s", "second", 100)).toBe(true);
      expect(await store.releaseLease("session:s", "first")).toBe(false);
      expect(await store.lease("session:s", "first", 100)).toBe(false);
      // Still the second holder's: a third cannot take it, and only its holder releases it.
      expect(await store.lease("session:s", "third", 100)).toBe(false);
      expect(await store.releaseLease("session:s", "second")).toBe(true);
      expect(await store.lease("session:s", "third", 100)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
