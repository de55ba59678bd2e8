import { describe, expect, it } from "vitest";
import { storeContract } from "../../test/support/store-contract.js";
import { MemoryStore } from "./memory-store.js";

{
  let now = 1_700_000_000_000;
  storeContract("MemoryStore", () => ({
    open: (options) => new MemoryStore({ now: () => now, ...options }),
    advance: async (ms) => {
      now += ms;
    },
    far: 10 * 365 * 24 * 3_600_000,
  }));
}

describe("MemoryStore stays bounded", () => {
  const session = (id: string, version = 0) => ({ id, messages: [], createdAt: 0, updatedAt: 0, version });

  it("keeps at most maxSessions, dropping the least recently used first", async () => {
    const store = new MemoryStore({ maxSessions: 3 });
    for (const id of ["a", "b", "c"]) await store.saveSession(session(id));
    // Reading "a" makes "b" the least recently used.
    await store.loadSession("a");
    await store.saveSession(session("d"));
    expect(await store.loadSession("b")).toBeUndefined();
    for (const id of ["a", "c", "d"]) expect(await store.loadSession(id)).toBeDefined();
    // A commit is a use too: "c" survives the next one, "a" (read before it) goes.
    await store.saveSession(session("c", 1));
    await store.saveSession(session("e"));
    expect(await store.loadSession("a")).toBeUndefined();
    expect((await store.loadSession("c"))?.version).toBe(2);
  });

  it("keeps no one-shot session; remembers the latest maxSessions ids not kept, to refuse them", async () => {
    const store = new MemoryStore({ maxSessions: 2 });
    for (const id of ["a", "b", "c"]) await store.saveSession(session(id), { oneShot: true });
    expect(store.size.sessions).toBe(0);
    for (const id of ["b", "c"])
      await expect(store.loadSession(id)).rejects.toThrow(`session "${id}" was not kept`);
    // "a" is beyond the bound: an id it no longer remembers is a new session's.
    expect(await store.loadSession("a")).toBeUndefined();
    // A one-shot save on top of a kept session (a resumed run) drops it.
    await store.saveSession(session("d"));
    await store.saveSession(session("d", 1), { oneShot: true });
    await expect(store.loadSession("d")).rejects.toThrow('session "d" was not kept');
  });

  it("10,000 one-run sessions with a ttl leave nothing behind once expired", async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now, maxSessions: 1_000_000 });
    for (let index = 0; index < 10_000; index++) {
      await store.saveSession(session(`one-shot-${index}`), { ttlMs: 1_000 });
      await store.set(`cooldown-${index}`, 1, { ttlMs: 1_000 });
      await store.hit(`rate-${index}`, { max: 1, windowMs: 1_000, now });
    }
    now += 1_000;
    // Writes after the expiry sweep what expired, without anyone reading it back.
    for (let index = 0; index < 20_000; index++) await store.set("busy", index);
    expect(await store.loadSession("one-shot-0")).toBeUndefined();
    expect(store.size).toEqual({ values: 1, windows: 0, sessions: 0 });
  });

  it("rejects a maxSessions below 1", () => {
    expect(() => new MemoryStore({ maxSessions: 0 })).toThrow("maxSessions must be an integer ≥ 1 (got 0)");
  });
});

describe("MemoryStore lendTranscripts", () => {
  const session = (messages: { role: "user"; content: string }[], version = 0) => ({
    id: "s",
    messages,
    createdAt: 0,
    updatedAt: 0,
    version,
  });

  it("hands a run the stored transcript itself and keeps the saved one as given; by default each way is a copy", async () => {
    const lending = new MemoryStore({ lendTranscripts: true });
    const saved = [{ role: "user" as const, content: "one" }];
    await lending.saveSession(session(saved));
    const lent = (await lending.loadSession("s"))!.messages;
    expect(lent).toBe(saved);
    const copying = new MemoryStore();
    await copying.saveSession(session(saved));
    const copy = (await copying.loadSession("s"))!.messages;
    expect(copy).not.toBe(saved);
    copy.push({ role: "user", content: "two" });
    expect((await copying.loadSession("s"))!.messages).toHaveLength(1);
  });
});
