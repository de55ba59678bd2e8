import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore, resolveStateConfig } from "./create-store.js";
import { MemoryStore } from "./memory-store.js";
import { RedisStore } from "./redis-store.js";
import type { SqliteStore } from "./sqlite-store.js";

describe("createStore", () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-create-"));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("opens a MemoryStore for kind memory, with its session bounds", async () => {
    const store = createStore({ kind: "memory", max_sessions: 1 });
    expect(store).toBeInstanceOf(MemoryStore);
    await store.saveSession({ id: "a", messages: [], createdAt: 0, updatedAt: 0, version: 0 });
    await store.saveSession({ id: "b", messages: [], createdAt: 0, updatedAt: 0, version: 0 });
    expect(await store.loadSession("a")).toBeUndefined();
    await store.close();
  });

  it("keep_one_shot: true keeps the sessions of runs given no session id", async () => {
    const oneShot = { id: "a", messages: [], createdAt: 0, updatedAt: 0, version: 0 };
    const keeping = createStore({ kind: "memory", keep_one_shot: true });
    await keeping.saveSession(oneShot, { oneShot: true });
    expect(await keeping.loadSession("a")).toMatchObject({ id: "a", version: 1 });
    const dropping = createStore({ kind: "memory" });
    await dropping.saveSession(oneShot, { oneShot: true });
    await expect(dropping.loadSession("a")).rejects.toThrow('session "a" was not kept');
  });

  it("resolves a relative sqlite path against baseDir and keeps absolute paths", async () => {
    const relative = createStore({ kind: "sqlite", path: ".hookwise/state.db" }, dir);
    expect(relative.kind).toBe("sqlite");
    expect((relative as SqliteStore).path).toBe(join(dir, ".hookwise", "state.db"));
    expect(relative.location).toBe(join(dir, ".hookwise", "state.db"));
    expect(existsSync(join(dir, ".hookwise", "state.db"))).toBe(true);
    await relative.close();

    const absolutePath = join(dir, "elsewhere", "state.db");
    const absolute = createStore({ kind: "sqlite", path: absolutePath }, "/nowhere");
    expect((absolute as SqliteStore).path).toBe(absolutePath);
    await absolute.close();

    const memory = createStore({ kind: "sqlite", path: ":memory:" }, dir);
    expect((memory as SqliteStore).path).toBe(":memory:");
    await memory.close();
  });

  it("opens a RedisStore (connecting on first use) with its url and prefix", async () => {
    const store = createStore({ kind: "redis", url: "redis://127.0.0.1:6390/2", prefix: "app:" });
    expect(store).toBeInstanceOf(RedisStore);
    expect(store.location).toBe("redis://127.0.0.1:6390/2");
    expect((store as RedisStore).prefix).toBe("app:");
    await store.close();
  });

  it("kind redis without a url takes HOOKWISE_STATE_URL, and says so when it is not set", async () => {
    const saved = process.env.HOOKWISE_STATE_URL;
    try {
      delete process.env.HOOKWISE_STATE_URL;
      expect(() => createStore({ kind: "redis" })).toThrow(
        "runtime.state: kind redis needs a server: set HOOKWISE_STATE_URL=redis://host:6379 (or url: in the config)",
      );
      process.env.HOOKWISE_STATE_URL = "redis://127.0.0.1:6391";
      const store = createStore({ kind: "redis" });
      expect(store.location).toBe("redis://127.0.0.1:6391");
      await store.close();
    } finally {
      if (saved === undefined) delete process.env.HOOKWISE_STATE_URL;
      else process.env.HOOKWISE_STATE_URL = saved;
    }
  });

  it("rejects an unknown kind, listing the known ones", () => {
    expect(() => createStore({ kind: "postgres" } as never)).toThrow(
      'Unknown state store kind "postgres"; expected one of: memory, sqlite, file, redis.',
    );
  });
});

describe("resolveStateConfig", () => {
  const sqlite = { kind: "sqlite", path: ".hookwise/state.db" } as const;

  it("without HOOKWISE_STATE_URL: the config's state, else the fallback", () => {
    expect(resolveStateConfig(undefined, sqlite, {})).toEqual(sqlite);
    expect(resolveStateConfig({ kind: "memory" }, sqlite, {})).toEqual({ kind: "memory" });
    expect(resolveStateConfig(undefined, sqlite, { HOOKWISE_STATE_URL: "  " })).toEqual(sqlite);
  });

  it("HOOKWISE_STATE_URL wins over the config and the default, keeping a redis prefix and session_ttl", () => {
    const env = { HOOKWISE_STATE_URL: "redis://cache:6379/1" };
    expect(resolveStateConfig(undefined, sqlite, env)).toEqual({
      kind: "redis",
      url: "redis://cache:6379/1",
    });
    expect(resolveStateConfig({ kind: "sqlite", path: "x.db", session_ttl: 60 }, sqlite, env)).toEqual({
      kind: "redis",
      url: "redis://cache:6379/1",
      session_ttl: 60,
    });
    expect(
      resolveStateConfig({ kind: "redis", url: "redis://other:6379", prefix: "app:" }, sqlite, env),
    ).toEqual({ kind: "redis", url: "redis://cache:6379/1", prefix: "app:" });
  });

  it("refuses a HOOKWISE_STATE_URL that is not a Redis URL, without printing its password", () => {
    expect(() =>
      resolveStateConfig(undefined, sqlite, { HOOKWISE_STATE_URL: "http://user:hunter2@cache:6379" }),
    ).toThrow("HOOKWISE_STATE_URL must be a redis:// or rediss:// URL (got http://cache:6379/)");
  });
});
