import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeContract, transcript } from "../../test/support/store-contract.js";
import { createStore } from "./create-store.js";
import { FileStore } from "./file-store.js";
import { StateStoreError } from "./state-store-error.js";

const start = 1_700_000_000_000;

{
  let now = start;
  const contractDir = mkdtempSync(join(tmpdir(), "hookwise-file-contract-"));
  afterAll(() => rmSync(contractDir, { recursive: true, force: true }));
  let last = "";
  let folders = 0;
  storeContract("FileStore", () => ({
    open: (options) => {
      last = join(contractDir, `state-${folders++}`);
      return new FileStore({ path: last, now: () => now, ...options });
    },
    advance: async (ms) => {
      now += ms;
    },
    far: 10 * 365 * 24 * 3_600_000,
    shared: () => ({ kind: "file", path: last }),
    broadcasts: false,
  }));
}

describe("FileStore", () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-file-"));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps values, counters and sessions across close and reopen, and leaves no lock or temporary file", async () => {
    const path = join(dir, "nested", "state");
    const first = createStore({ kind: "file", path: "nested/state" }, dir);
    await first.set("plain", { a: 1 });
    await first.increment("fires", 3);
    await first.saveSession({
      id: "s/1",
      messages: transcript(),
      createdAt: start,
      updatedAt: start,
      version: 0,
    });
    await first.close();

    const second = new FileStore({ path });
    expect(await second.get("plain")).toEqual({ a: 1 });
    expect(await second.increment("fires")).toBe(4);
    expect((await second.loadSession("s/1"))?.messages).toEqual(transcript());
    expect(readdirSync(path).sort()).toEqual(["sessions", "state.json"]);
  });

  it("takes over a lock whose process is gone, and waits out one a live process holds", async () => {
    const store = new FileStore({ path: dir, lockTimeoutMs: 200 });
    writeFileSync(join(dir, "lock"), "2147483646");
    await store.set("after-crash", true);
    expect(await store.get("after-crash")).toBe(true);
    expect(existsSync(join(dir, "lock"))).toBe(false);

    writeFileSync(join(dir, "lock"), String(process.ppid));
    const refused = await store.set("blocked", true).catch((error: unknown) => error);
    expect(StateStoreError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain("stayed locked by another process");
    expect(await store.get("blocked")).toBeUndefined();
  });

  it("names the file and what to do when state.json is not one it wrote", async () => {
    writeFileSync(join(dir, "state.json"), "not json");
    const store = new FileStore({ path: dir });
    await expect(store.get("k")).rejects.toThrow(/state\.json is not a hookwise state file: move .* aside/);
  });
});
