import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, redisAvailable, startRedis } from "../../test/support/redis-server.js";
import { storeContract } from "../../test/support/store-contract.js";
import { createAgent } from "../agent/create-agent.js";
import { scriptedModel } from "../models/scripted-model.js";
import { RedisStore } from "./redis-store.js";
import { StateStoreError } from "./state-store-error.js";

describe.skipIf(!redisAvailable)("RedisStore on a real redis-server", () => {
  let server: RedisServer;
  let raw: Redis;

  beforeAll(async () => {
    server = await startRedis();
    raw = new Redis(server.url);
  });

  afterAll(async () => {
    await raw?.quit();
    await server?.stop();
  });

  {
    let prefix = "";
    storeContract("RedisStore", () => ({
      open: (options) => {
        // A prefix per case: cases share the server, never each other's keys.
        prefix = `contract-${randomUUID()}:`;
        return new RedisStore({ url: server.url, prefix, ...options });
      },
      // Redis expires keys on its own clock: the suite waits the time out (with a margin).
      advance: (ms) => sleep(ms + 15),
      far: 500,
      shared: () => ({ kind: "redis", url: server.url, prefix }),
    }));
  }

  it("commits a session and its values in one script; on a Cluster client, the session first, then each value", async () => {
    for (const isCluster of [false, true]) {
      const sent: string[] = [];
      const client = {
        isCluster,
        call: (command: string, ...args: (string | number)[]) => {
          sent.push(`${command} ${command.startsWith("EVAL") ? args[1] : ""}`.trim());
          return raw.call(command, ...args);
        },
      };
      const prefix = `with-${randomUUID()}:`;
      const store = new RedisStore({ client, prefix });
      const session = {
        id: "s",
        messages: [{ role: "user" as const, content: "hi" }],
        createdAt: 1,
        updatedAt: 1,
        version: 0,
      };
      expect(await store.saveSessionWith(session, [{ key: "record", value: { a: 1 }, ttlMs: 60_000 }])).toBe(
        1,
      );
      expect(await store.get("record")).toEqual({ a: 1 });
      expect(await raw.pttl(`${prefix}kv:record`)).toBeGreaterThan(50_000);
      expect((await store.loadSession("s"))?.version).toBe(1);
      // Each EVALSHA (or EVAL, the first time the server sees the script) names its number of
      // keys: two in one script, or the session's alone.
      const commits = sent.filter((line) => line.startsWith("EVAL"));
      expect(commits.length).toBeGreaterThan(0);
      for (const line of commits) expect(line).toMatch(isCluster ? / 1$/ : / 2$/);
      expect(sent.filter((line) => line === "SET")).toHaveLength(isCluster ? 1 : 0);
      await store.close();
    }
  });

  it("a run of a session it names begins it in one round trip and commits it (its record in it, its lease freed) in one; on a Cluster client, in steps", async () => {
    for (const isCluster of [false, true]) {
      const sent: string[] = [];
      const client = {
        isCluster,
        call: (command: string, ...args: (string | number)[]) => {
          sent.push(`${command}${command.startsWith("EVAL") ? ` ${args[1]}` : ""}`);
          return raw.call(command, ...args);
        },
      };
      const prefix = `named-${randomUUID()}:`;
      const store = new RedisStore({ client, prefix });
      const agent = createAgent({ model: scriptedModel([{ text: "one" }, { text: "two" }]), store });
      await agent.run("first", { sessionId: "s" });
      sent.length = 0;
      const second = await agent.run("second", { sessionId: "s" });
      expect(second.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      // The first time a server sees a script it is sent with EVAL: count the script's keys.
      const scripts = (lines: string[]) => lines.map((line) => line.replace(/^EVAL(SHA)? /, "script "));
      // (GET: whether the session waits on a suspended run.)
      expect(scripts(sent)).toEqual(
        isCluster
          ? // the lease, the read; the commit, the record, the release
            ["script 1", "HMGET", "GET", "script 1", "SET", "script 1"]
          : // the lease and the session; the session, its record and the lease
            ["script 2", "GET", "script 3"],
      );
      expect(await raw.exists(`${prefix}kv:session:s:lease`)).toBe(0);
      expect((await store.loadSession("s"))?.version).toBe(2);
      expect(await store.keys("hookwise:runs:s:")).toHaveLength(2);
      await store.close();
    }
  });

  it("writes to the database the URL names after the host (or with ?db=), not to database 0", async () => {
    const base = server.url.replace(/\/\d*$/, "");
    for (const [url, db] of [
      [`${base}/3`, 3],
      [`${base}?db=4`, 4],
    ] as const) {
      const store = new RedisStore({ url, prefix: "db-probe:" });
      await store.set("k", db);
      await store.close();
      const check = new Redis(`${base}/${db}`);
      expect(await check.get("db-probe:kv:k"), url).toBe(String(db));
      await check.del("db-probe:kv:k");
      await check.quit();
      expect(await raw.get("db-probe:kv:k"), url).toBeNull();
    }
    // A database the server does not have is refused, not replaced by database 0.
    const missing = new RedisStore({ url: `${base}/99999`, prefix: "db-probe:" });
    await expect(missing.set("k", 1)).rejects.toThrow(/has no database 99999/);
    await missing.close();
    expect(await raw.get("db-probe:kv:k")).toBeNull();
  });

  it("keeps every key under its prefix, and two prefixes apart", async () => {
    const one = new RedisStore({ url: server.url, prefix: "app-one:" });
    const two = new RedisStore({ url: server.url, prefix: "app-two:" });
    await one.set("k", 1);
    await one.hit("k", { max: 5, windowMs: 60_000, now: 1 });
    await one.saveSession({ id: "s", messages: [], createdAt: 1, updatedAt: 1, version: 0 });
    expect(await two.get("k")).toBeUndefined();
    expect(await two.loadSession("s")).toBeUndefined();
    expect((await raw.keys("app-one:*")).sort()).toEqual([
      "app-one:hits:k",
      "app-one:kv:k",
      "app-one:session:s",
    ]);
    expect(await raw.keys("app-two:*")).toEqual([]);
    await one.close();
    await two.close();
  });

  it("maps TTLs to Redis expiry, and a session's TTL to its key", async () => {
    const store = new RedisStore({ url: server.url, prefix: "ttl:" });
    await store.set("short", 1, { ttlMs: 60_000 });
    await store.saveSession(
      { id: "s", messages: [], createdAt: 1, updatedAt: 1, version: 0 },
      { ttlMs: 120_000 },
    );
    expect(await raw.pttl("ttl:kv:short")).toBeGreaterThan(59_000);
    expect(await raw.pttl("ttl:session:s")).toBeGreaterThan(119_000);
    // A rate window outlives its last event by its width (plus a minute), not forever.
    await store.hit("limited", { max: 5, windowMs: 30_000, now: Date.now() });
    expect(await raw.pttl("ttl:hits:limited")).toBeGreaterThan(89_000);
    expect(await raw.pttl("ttl:hits:limited")).toBeLessThanOrEqual(90_000);
    // A commit without a ttl (and no store default) keeps the session for good.
    await store.saveSession({ id: "s", messages: [], createdAt: 1, updatedAt: 2, version: 1 });
    expect(await raw.pttl("ttl:session:s")).toBe(-1);
    await store.close();
  });

  it("a rate window holds against a caller whose clock runs an hour ahead: it neither ages the window out nor fills the others' future", async () => {
    const store = new RedisStore({ url: server.url, prefix: `skew-${randomUUID()}:` });
    const limit = { max: 2, windowMs: 60_000 };
    const hour = 3_600_000;
    expect(await store.hit("team", { ...limit, now: Date.now() })).toBe(true);
    expect(await store.hit("team", { ...limit, now: Date.now() })).toBe(true);
    // The machine an hour ahead: the window is full for it too.
    expect(await store.hit("team", { ...limit, now: Date.now() + hour })).toBe(false);
    // Its fires are recorded at the server's time, not an hour into everyone else's future
    // (where they would keep the window full for the others for that hour).
    const prefix = store.prefix;
    expect(await store.hit("ahead", { ...limit, now: Date.now() + hour })).toBe(true);
    const scores = (await raw.zrangebyscore(`${prefix}hits:ahead`, "-inf", "+inf", "WITHSCORES")).filter(
      (_, index) => index % 2,
    );
    expect(scores).toHaveLength(1);
    expect(Number(scores[0])).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(Number(scores[0])).toBeGreaterThan(Date.now() - 60_000);
    await store.close();
  });

  it("uses a client it is given and leaves it open", async () => {
    const client = new Redis(server.url);
    const store = new RedisStore({ client, prefix: "given:" });
    await store.set("k", "v");
    expect(await client.get("given:kv:k")).toBe('"v"');
    await store.close();
    expect(await client.ping()).toBe("PONG");
    await expect(store.get("k")).rejects.toThrow("is closed");
    await client.quit();
  });

  it("reloads its scripts when the server forgot them", async () => {
    const store = new RedisStore({ url: server.url, prefix: "flush:" });
    expect(await store.increment("n")).toBe(1);
    await raw.script("FLUSH");
    expect(await store.increment("n")).toBe(2);
    expect(await store.lease("l", "me", 1_000)).toBe(true);
    await store.close();
  });

  it("a malformed stored session is an error naming the server, the key and the fix", async () => {
    const store = new RedisStore({ url: server.url, prefix: "broken:" });
    await raw.hset("broken:session:s1", { messages: "[{oops", createdAt: "1", updatedAt: "1", version: "1" });
    await expect(store.loadSession("s1")).rejects.toThrow(
      `The stored session "s1" in ${server.url} is malformed (messages: not JSON: `,
    );
    await expect(store.loadSession("s1")).rejects.toThrow("delete it: redis-cli DEL 'broken:session:s1'");
    // Read with its lease: the same error, and the lease given back.
    await expect(store.beginSession("s1", { key: "s1:lease", holder: "run" }, 60_000)).rejects.toThrow(
      `The stored session "s1" in ${server.url} is malformed (messages: not JSON: `,
    );
    expect(await raw.exists("broken:kv:s1:lease")).toBe(0);
    await raw.hset("broken:session:s2", { messages: "[]", createdAt: "1", updatedAt: "1", version: "x" });
    await expect(store.loadSession("s2")).rejects.toThrow(
      "malformed (version: expected a whole number, got NaN)",
    );
    await expect(
      store.saveSession({ id: "s2", messages: [], createdAt: 1, updatedAt: 1, version: 1 }),
    ).rejects.toThrow("malformed (version: expected a whole number, got x)");
    await raw.set("broken:kv:run:r1:suspended", "{not json");
    await expect(store.get("run:r1:suspended")).rejects.toThrow(
      `The stored key "run:r1:suspended" in ${server.url} is malformed (not JSON: `,
    );
    await store.close();
  });

  it("a rediss:// URL to a server that does not take TLS: an error naming it and asking about TLS", async () => {
    const store = new RedisStore({ url: `rediss://127.0.0.1:${server.port}`, prefix: "tls:" });
    await expect(store.get("k")).rejects.toThrow(
      `Cannot reach Redis at rediss://127.0.0.1:${server.port} (connect ETIMEDOUT) (a rediss:// URL: does the server take TLS on this port?)`,
    );
    await store.close();
  });

  it("never shows the URL's password: not in its location, not in its errors", async () => {
    const store = new RedisStore({
      url: `redis://someone:hunter2@127.0.0.1:${server.port}`,
      prefix: "auth:",
    });
    expect(store.location).toBe(`redis://127.0.0.1:${server.port}`);
    const failure = await store.get("k").catch((error: unknown) => error);
    expect(StateStoreError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toContain(
      `Redis at redis://127.0.0.1:${server.port} refused the user and password`,
    );
    expect((failure as Error).message).not.toContain("hunter2");
    await store.close();
  });
});

describe.skipIf(!redisAvailable)("RedisStore on a server that stops answering", () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedis();
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** How long `work` took to settle, and how. */
  async function timed(work: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
    const started = Date.now();
    const error = await work.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    return { ms: Date.now() - started, error };
  }

  it("a command fails within commandTimeoutMs naming the server, and close() does not wait for it", async () => {
    const store = new RedisStore({ url: server.url, prefix: "frozen:", commandTimeoutMs: 400 });
    expect(await store.increment("n")).toBe(1);
    server.freeze();
    try {
      const failed = await timed(store.increment("n"));
      expect(StateStoreError.isInstance(failed.error)).toBe(true);
      expect((failed.error as Error).message).toBe(
        `Redis at ${server.url} did not answer within 0.4 s: check that the server is running and not overloaded`,
      );
      expect(failed.ms).toBeLessThan(3_000);
      const closed = await timed(store.close());
      expect(closed.error).toBeUndefined();
      expect(closed.ms).toBeLessThan(2_500);
    } finally {
      server.thaw();
    }
  });

  it("a connection the server accepts but never answers fails within commandTimeoutMs, and close() drops it", async () => {
    server.freeze();
    try {
      const store = new RedisStore({ url: server.url, prefix: "frozen:", commandTimeoutMs: 400 });
      const failed = await timed(store.get("k"));
      expect((failed.error as Error).message).toMatch(
        /^Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+: it accepted the connection but did not answer within 0\.4 s; check that it is running/,
      );
      expect(failed.ms).toBeLessThan(6_000);
      // A close while a connection is still opening does not wait on the server either.
      const again = store.get("k").catch(() => undefined);
      const closed = await timed(store.close());
      expect(closed.ms).toBeLessThan(2_500);
      await again;
    } finally {
      server.thaw();
    }
  });
});

describe("RedisStore without a server", () => {
  it("a server that does not answer is a clear error, and the next operation tries again", async () => {
    const store = new RedisStore({ url: "redis://127.0.0.1:1", prefix: "none:" });
    const started = Date.now();
    await expect(store.get("k")).rejects.toThrow(
      /^Cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\): start it, or point HOOKWISE_STATE_URL/,
    );
    await expect(store.increment("k")).rejects.toThrow(StateStoreError);
    expect(Date.now() - started).toBeLessThan(5_000);
    await store.close();
  });

  it("checks its options", () => {
    expect(() => new RedisStore({})).toThrow("give either url (redis://host:port) or client");
    expect(() => new RedisStore({ url: "http://example.com" })).toThrow(
      "url must start with redis:// or rediss:// (got http://example.com/)",
    );
  });
});
