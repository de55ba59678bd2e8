import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
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
    expect(readdirSync(path).sort()).toEqual(["sessions", "swept", "values", "windows"]);
    for (const folder of ["sessions", "values", "windows"])
      expect(readdirSync(join(path, folder)).filter((name) => name.startsWith(".tmp-"))).toEqual([]);
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

  it("a write replaces its own key's file and touches no other", async () => {
    let now = start;
    const store = new FileStore({ path: dir, now: () => now });
    for (let index = 0; index < 50; index++)
      await store.set(`hookwise:runs:s:${index}`, { index, pad: "x".repeat(1_200) }, { ttlMs: 60_000 });
    await store.increment("fires");
    await store.hit("rate", { max: 5, windowMs: 60_000, now });
    const snapshot = () =>
      ["values", "windows"].flatMap((folder) =>
        readdirSync(join(dir, folder)).map((name) => {
          const stat = statSync(join(dir, folder, name));
          return [`${folder}/${name}`, `${stat.ino}:${stat.mtimeMs}:${stat.size}`] as const;
        }),
      );
    const before = new Map(snapshot());
    expect(before.size).toBe(52);
    now += 1_000;
    await store.set("hookwise:runs:s:new", { pad: "y".repeat(1_200) });
    await store.increment("fires");
    await store.hit("rate", { max: 5, windowMs: 60_000, now });
    await store.setIfAbsent("approval", true);
    await store.delete("hookwise:runs:s:7");
    const after = new Map(snapshot());
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (name) => before.get(name) !== after.get(name),
    );
    const file = (key: string, folder = "values") => `${folder}/k${Buffer.from(key).toString("hex")}`;
    expect(changed.sort()).toEqual(
      [
        file("hookwise:runs:s:new"),
        file("fires"),
        file("rate", "windows"),
        file("approval"),
        file("hookwise:runs:s:7"),
      ].sort(),
    );
    expect(existsSync(join(dir, "state.json"))).toBe(false);
    expect(await store.get("hookwise:runs:s:3")).toEqual({ index: 3, pad: "x".repeat(1_200) });
  });

  it("keeps keys apart that differ only by case, by their end past 255 bytes, or by a lone surrogate", async () => {
    const store = new FileStore({ path: dir });
    const long = `hookwise:runs:${"session-".repeat(40)}`;
    const keys = [
      "Key",
      "key",
      "KEY",
      `${long}:a`,
      `${long}:b`,
      `${"é".repeat(200)}`,
      "lone:\uD800",
      "lone:\uFFFD",
      "",
    ];
    for (const [index, key] of keys.entries()) await store.set(key, index);
    for (const [index, key] of keys.entries()) expect(await store.get(key)).toBe(index);
    const names = readdirSync(join(dir, "values"));
    expect(names).toHaveLength(keys.length);
    // Apart on a case-insensitive file system too, and each a valid file name.
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(keys.length);
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect((await store.keys("K")).sort()).toEqual(["KEY", "Key"]);
    expect((await store.keys(long)).sort()).toEqual([`${long}:a`, `${long}:b`]);
    expect(await store.keys(`${long}:b`)).toEqual([`${long}:b`]);
    expect(await store.keys("lone:\uD800")).toEqual(["lone:\uD800"]);
    expect(await store.increment(`${long}:a`)).toBe(4);
    await store.delete(`${long}:b`);
    expect(await store.get(`${long}:b`)).toBeUndefined();
    expect(await store.get(`${long}:a`)).toBe(4);
    // Sessions are named the same way.
    const ids = ["Session-A", "session-a", "SESSION-A", long];
    for (const id of ids)
      await store.saveSession({
        id,
        messages: [{ role: "user", content: id }],
        createdAt: start,
        updatedAt: start,
        version: 0,
      });
    for (const id of ids)
      expect((await store.loadSession(id))?.messages).toEqual([{ role: "user", content: id }]);
    const sessions = readdirSync(join(dir, "sessions"));
    expect(new Set(sessions.map((name) => name.toLowerCase())).size).toBe(ids.length);
  });

  it("moves a state.json of an earlier version into files once, under the lock, removes it, and renames its sessions", async () => {
    let now = start;
    const day = 86_400_000;
    writeFileSync(
      join(dir, "state.json"),
      JSON.stringify({
        version: 1,
        kv: {
          "hookwise:runs:s:1": [JSON.stringify({ kept: true }), start + 30 * day],
          fires: ["5", null],
          gone: ['"expired"', start - 1],
          nothing: [null, null],
        },
        hits: { rate: [start - 10, start - 5], empty: [] },
      }),
    );
    mkdirSync(join(dir, "sessions"));
    // Its sessions were named in base64 (which a case-insensitive file system may confuse).
    const earlier = {
      id: "Chat-1",
      messages: JSON.stringify(transcript()),
      archived: null,
      createdAt: start,
      updatedAt: start,
      version: 3,
      expiresAt: null,
      runs: 2,
    };
    writeFileSync(
      join(dir, "sessions", `${Buffer.from("Chat-1").toString("base64url")}.json`),
      JSON.stringify(earlier),
    );
    // Two stores (as two processes) open the old folder at once: one moves it, both count on.
    const first = new FileStore({ path: dir, now: () => now });
    const second = new FileStore({ path: dir, now: () => now });
    const counted = await Promise.all([first.increment("fires"), second.increment("fires")]);
    expect(counted.sort()).toEqual([6, 7]);
    expect(existsSync(join(dir, "state.json"))).toBe(false);
    expect(readdirSync(join(dir, "sessions"))).toEqual([`k${Buffer.from("Chat-1").toString("hex")}.json`]);
    expect(await second.loadSession("Chat-1")).toMatchObject({ version: 3, runs: 2, messages: transcript() });
    expect(await second.get("hookwise:runs:s:1")).toEqual({ kept: true });
    expect(await second.get("gone")).toBeUndefined();
    expect((await second.keys("")).sort()).toEqual(["fires", "hookwise:runs:s:1", "nothing"]);
    // The rate window came along: two events in it, a third one fills it.
    const limit = { max: 3, windowMs: 60_000, now: start };
    expect(await first.hit("rate", limit)).toBe(true);
    expect(await first.hit("rate", limit)).toBe(false);
    expect(readdirSync(join(dir, "values"))).toHaveLength(3);
    // TTLs hold as they did.
    now += 30 * day;
    expect(await first.get("hookwise:runs:s:1")).toBeUndefined();
  });

  it("three processes opening an earlier version's folder at once move it once and count on exactly", async () => {
    writeFileSync(
      join(dir, "state.json"),
      JSON.stringify({ version: 1, kv: { counter: ["100", null] }, hits: { limited: [start - 1] } }),
    );
    const worker = fileURLToPath(new URL("../../test/fixtures/store-worker.ts", import.meta.url));
    const children = [0, 1, 2].map(() =>
      spawn(
        process.execPath,
        ["--import", "tsx", worker, JSON.stringify({ kind: "file", path: dir }), "50"],
        {
          cwd: fileURLToPath(new URL("../..", import.meta.url)),
          stdio: ["pipe", "pipe", "inherit"],
        },
      ),
    );
    try {
      // Each prints "ready" once it has opened the folder (a first read), then waits for "go".
      await Promise.all(children.map((child) => once(child.stdout!, "data")));
      for (const child of children) child.stdin!.end("go\n");
      const codes = await Promise.all(children.map((child) => once(child, "close")));
      expect(codes.map(([code]) => code)).toEqual([0, 0, 0]);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill();
    }
    const store = new FileStore({ path: dir });
    expect(await store.get("counter")).toBe(250);
    expect(existsSync(join(dir, "state.json"))).toBe(false);
    // The window holds the event moved from state.json and the workers' 150.
    expect(await store.hit("limited", { max: 151, windowMs: 60_000, now: start })).toBe(false);
    expect(await store.hit("limited", { max: 152, windowMs: 60_000, now: start })).toBe(true);
  });

  it("renames the sessions of an earlier version's folder that holds no state.json", async () => {
    mkdirSync(join(dir, "sessions"));
    const row = {
      id: "s-1",
      messages: "[]",
      archived: null,
      createdAt: start,
      updatedAt: start,
      version: 1,
      expiresAt: null,
      runs: null,
    };
    writeFileSync(
      join(dir, "sessions", `${Buffer.from("s-1").toString("base64url")}.json`),
      JSON.stringify(row),
    );
    const store = new FileStore({ path: dir });
    expect((await store.loadSession("s-1"))?.version).toBe(1);
    expect(readdirSync(join(dir, "sessions"))).toEqual([`k${Buffer.from("s-1").toString("hex")}.json`]);
    expect(existsSync(join(dir, "swept"))).toBe(true);
  });

  it("sweeps the files of expired values at most once per interval, and temporary files a crash left", async () => {
    let now = start;
    const store = new FileStore({ path: dir, now: () => now, sweepIntervalMs: 60_000 });
    const values = join(dir, "values");
    await store.set("short", 1, { ttlMs: 1_000 });
    await store.set("forever", 2);
    await store.setIfAbsent("cooldown", 3, { ttlMs: 30_000 });
    await store.hit("rate", { max: 5, windowMs: 10_000, now });
    const crashed = join(values, ".tmp-2147483646-0");
    const writing = join(values, ".tmp-2147483646-1");
    writeFileSync(crashed, "half");
    writeFileSync(writing, "half");
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1_000;
    utimesSync(crashed, hourAgo, hourAgo);
    // An earlier version's, left in sessions/ by a crash.
    const earlier = join(dir, "sessions", "czE.json.2147483646.0.tmp");
    writeFileSync(earlier, "half");
    utimesSync(earlier, hourAgo, hourAgo);
    expect(readdirSync(values)).toHaveLength(5);

    now += 5_000;
    await store.set("other", 4);
    // Expired at once, but its file waits for the next sweep: no write scans the folder.
    expect(await store.get("short")).toBeUndefined();
    expect(existsSync(join(values, `k${Buffer.from("short").toString("hex")}`))).toBe(true);

    now += 60_000;
    await store.set("other", 5);
    const left = readdirSync(values).sort();
    expect(left).toEqual(
      ["forever", "other"]
        .map((key) => `k${Buffer.from(key).toString("hex")}`)
        .concat(basename(writing))
        .sort(),
    );
    expect(readdirSync(join(dir, "windows"))).toEqual([]);
    expect(readdirSync(join(dir, "sessions"))).toEqual([]);
    expect(await store.get("forever")).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, "swept"), "utf8"))).toEqual([now, null]);
    // Another process opening the folder goes by the same record of the last sweep.
    await store.set("short", 1, { ttlMs: 1_000 });
    now += 2_000;
    await new FileStore({ path: dir, now: () => now, sweepIntervalMs: 60_000 }).set("x", 1);
    expect(existsSync(join(values, `k${Buffer.from("short").toString("hex")}`))).toBe(true);
  });

  it("sweeps a large folder a batch per write, each batch once, then waits for the next interval", async () => {
    let now = start;
    const store = new FileStore({ path: dir, now: () => now, sweepIntervalMs: 60_000, sweepBatch: 4 });
    const keys = Array.from({ length: 10 }, (_, index) => `run:${index}`);
    for (const key of keys) await store.set(key, key, { ttlMs: 1_000 });
    await store.set("kept", 1);
    const left = () => readdirSync(join(dir, "values")).length;
    expect(left()).toBe(11);
    now += 60_000;
    // 11 files, 4 a write: the pass takes three writes; each removes what it looked at.
    const counts: number[] = [];
    for (let write = 0; write < 4; write++) {
      await store.increment("kept");
      counts.push(left());
    }
    expect(counts[0]).toBeGreaterThan(counts[2]!);
    expect(counts.slice(2)).toEqual([1, 1]);
    expect(await store.get("kept")).toBe(5);
    expect(JSON.parse(readFileSync(join(dir, "swept"), "utf8"))).toEqual([now, null]);
    // Through: values that expire now wait for the next interval.
    await store.set("late", 1, { ttlMs: 10 });
    now += 1_000;
    await store.set("other", 1);
    expect(left()).toBe(3);
    now += 60_000;
    for (let write = 0; write < 2; write++) await store.set("other", 2);
    expect(left()).toBe(2);
  });

  it("names the file and what to do when a value's file is not one it wrote", async () => {
    const store = new FileStore({ path: dir });
    await store.set("k", 1);
    const file = join(dir, "values", `k${Buffer.from("k").toString("hex")}`);
    writeFileSync(file, "{ not json");
    await expect(store.get("k")).rejects.toThrow(
      `malformed (not a hookwise state file): delete it: rm ${file}`,
    );
    await expect(store.keys("")).rejects.toThrow(StateStoreError);
    // A set replaces it without reading it.
    await store.set("k", 2);
    expect(await store.get("k")).toBe(2);
  });

  it("a folder it cannot write is one error naming the folder and what to do, and the lock is freed", async () => {
    const store = new FileStore({ path: dir });
    await store.set("before", 1);
    // A file where its values folder was (the same answer as a folder without write access, for root too).
    rmSync(join(dir, "values"), { recursive: true });
    writeFileSync(join(dir, "values"), "");
    const refused = await store.set("k", 1).catch((error: unknown) => error);
    expect(StateStoreError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^Cannot write the state folder ${dir} \\(.*\\): check that it is a writable folder, or point runtime.state at another path$`,
      ),
    );
    expect(existsSync(join(dir, "lock"))).toBe(false);
  });

  it("names the file and what to do when state.json is not one it wrote", async () => {
    writeFileSync(join(dir, "state.json"), "not json");
    const store = new FileStore({ path: dir });
    await expect(store.get("k")).rejects.toThrow(/state\.json is not a hookwise state file: move .* aside/);
  });
});
