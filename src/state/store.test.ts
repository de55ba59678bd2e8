import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelMessage } from "../events/payloads.js";
import { createStore } from "./create-store.js";
import { MemoryStore } from "./memory-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { SessionRecord, StateStore } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

const start = 1_700_000_000_000;

const implementations = [
  { name: "MemoryStore", open: (_dir: string, now: () => number) => new MemoryStore({ now }) },
  {
    name: "SqliteStore",
    open: (dir: string, now: () => number) => new SqliteStore({ path: join(dir, "state.db"), now }),
  },
];

function transcript(): ModelMessage[] {
  return [
    { role: "system", content: "You are a bank assistant." },
    {
      role: "user",
      content: [
        { type: "text", text: "Pay invoice 7, see the scan." },
        { type: "image", image: new Uint8Array([0, 1, 2, 250, 255]), mediaType: "image/png" },
        { type: "file", data: new URL("https://example.com/invoice-7.pdf"), mediaType: "application/pdf" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Paying it." },
        {
          type: "tool-call",
          toolCallId: "call_1",
          toolName: "bank.pay",
          input: { amount: 5, to: "ACME", memo: null, tags: ["invoice", 7] },
        },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "bank.pay",
          output: { type: "json", value: { ok: true, receipt: { id: "r-1", cents: 500 } } },
        },
      ],
    },
    { role: "assistant", content: "Done: receipt r-1." },
  ];
}

describe.each(implementations)("$name (shared StateStore suite)", ({ open }) => {
  let dir: string;
  let now: number;
  let store: StateStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-store-"));
    now = start;
    store = open(dir, () => now);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gets what was set, overwrites, deletes, and returns undefined for absent keys", async () => {
    expect(await store.get("missing")).toBeUndefined();
    await store.set("config", { retries: 3, names: ["a", "b"], nested: { on: true, off: null } });
    expect(await store.get("config")).toEqual({
      retries: 3,
      names: ["a", "b"],
      nested: { on: true, off: null },
    });
    await store.set("config", "replaced");
    expect(await store.get("config")).toBe("replaced");
    await store.delete("config");
    expect(await store.get("config")).toBeUndefined();
    await store.delete("never-set");
  });

  it("hands out copies: mutating a value read does not change the stored one", async () => {
    await store.set("list", [1, 2]);
    const read = await store.get<number[]>("list");
    read!.push(3);
    expect(await store.get("list")).toEqual([1, 2]);
  });

  it("treats an expired key as absent, to get, setIfAbsent and increment alike", async () => {
    await store.set("cached", "v", { ttlMs: 100 });
    now += 99;
    expect(await store.get("cached")).toBe("v");
    now += 1;
    expect(await store.get("cached")).toBeUndefined();

    await store.set("approval", "first", { ttlMs: 50 });
    expect(await store.setIfAbsent("approval", "second")).toBe(false);
    now += 50;
    expect(await store.setIfAbsent("approval", "second")).toBe(true);
    expect(await store.get("approval")).toBe("second");

    await store.set("fires", 41, { ttlMs: 10 });
    expect(await store.increment("fires")).toBe(42);
    now += 10;
    expect(await store.increment("fires")).toBe(1);
    now += 1_000_000;
    expect(await store.get("fires")).toBe(1);
  });

  it("lists the live keys under a prefix, literally (no wildcards), without expired ones", async () => {
    await store.set("run:a:suspended", 1);
    await store.set("run:b:suspended", 2, { ttlMs: 10 });
    await store.set("run%x", 3);
    await store.set("runner", 4);
    await store.set("session:a", 5);
    expect((await store.keys("run:")).sort()).toEqual(["run:a:suspended", "run:b:suspended"]);
    expect(await store.keys("run%")).toEqual(["run%x"]);
    expect(await store.keys("ru_")).toEqual([]);
    now += 10;
    expect(await store.keys("run:")).toEqual(["run:a:suspended"]);
    await store.delete("run:a:suspended");
    expect(await store.keys("run:")).toEqual([]);
    expect((await store.keys("")).sort()).toEqual(["run%x", "runner", "session:a"]);
  });

  it("keeps a key without ttl forever", async () => {
    await store.set("forever", 1);
    now += 10 * 365 * 24 * 3_600_000;
    expect(await store.get("forever")).toBe(1);
  });

  it("increments from absent, by any step, and keeps the result readable with get", async () => {
    expect(await store.increment("n")).toBe(1);
    expect(await store.increment("n", 5)).toBe(6);
    expect(await store.increment("n", -2)).toBe(4);
    expect(await store.increment("n", 0.5)).toBe(4.5);
    expect(await store.get("n")).toBe(4.5);
    await store.set("text", "not a number");
    expect(await store.increment("text", 3)).toBe(3);
  });

  it("counts 1,000 concurrent increments exactly, each caller seeing a distinct value", async () => {
    const results = await Promise.all(Array.from({ length: 1_000 }, () => store.increment("count")));
    expect(await store.get("count")).toBe(1_000);
    expect(new Set(results).size).toBe(1_000);
    expect(Math.max(...results)).toBe(1_000);
  });

  it("hit() allows max events per sliding window and refuses the rest without recording them", async () => {
    const limit = { max: 3, windowMs: 1_000 };
    expect(await store.hit("tool", { ...limit, now: start })).toBe(true);
    expect(await store.hit("tool", { ...limit, now: start + 10 })).toBe(true);
    expect(await store.hit("tool", { ...limit, now: start + 20 })).toBe(true);
    expect(await store.hit("tool", { ...limit, now: start + 30 })).toBe(false);
    expect(await store.hit("tool", { ...limit, now: start + 999 })).toBe(false);
    expect(await store.hit("other", { ...limit, now: start + 999 })).toBe(true);
    // The first event leaves the window; the refused ones never entered it.
    expect(await store.hit("tool", { ...limit, now: start + 1_000 })).toBe(true);
    expect(await store.hit("tool", { ...limit, now: start + 1_005 })).toBe(false);
    expect(await store.hit("tool", { ...limit, now: start + 1_010 })).toBe(true);
  });

  it("hit() admits exactly max of many concurrent callers", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, () => store.hit("burst", { max: 7, windowMs: 60_000, now: start })),
    );
    expect(results.filter(Boolean)).toHaveLength(7);
  });

  it("delete() also clears a key's rate window", async () => {
    const limit = { max: 1, windowMs: 60_000, now: start };
    expect(await store.hit("k", limit)).toBe(true);
    expect(await store.hit("k", limit)).toBe(false);
    await store.delete("k");
    expect(await store.hit("k", limit)).toBe(true);
  });

  it("setIfAbsent() has exactly one winner among concurrent callers, and the winner's value stays", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) => store.setIfAbsent("approval:call_1", { by: index })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.get("approval:call_1")).toEqual({ by: results.indexOf(true) });
    expect(await store.setIfAbsent("approval:call_1", { by: -1 })).toBe(false);
  });

  it("round-trips a session with tool-call, tool-result, image and file parts", async () => {
    expect(await store.loadSession("s1")).toBeUndefined();
    const record: SessionRecord = {
      id: "s1",
      messages: transcript(),
      createdAt: start,
      updatedAt: start + 5,
    };
    await store.saveSession(record);
    const loaded = await store.loadSession("s1");
    expect(loaded).toEqual(record);
    const image = (loaded!.messages[1]!.content as { image?: unknown }[])[1]!.image;
    expect(image).toBeInstanceOf(Uint8Array);
    const file = (loaded!.messages[1]!.content as { data?: unknown }[])[2]!.data;
    expect(file).toBeInstanceOf(URL);

    loaded!.messages.push({ role: "user", content: "not saved" });
    expect((await store.loadSession("s1"))!.messages).toHaveLength(5);

    const compacted: SessionRecord = {
      ...record,
      messages: [{ role: "user", content: "Summary: paid invoice 7." }],
      archived: transcript(),
      updatedAt: start + 60,
    };
    await store.saveSession(compacted);
    expect(await store.loadSession("s1")).toEqual(compacted);

    await store.deleteSession("s1");
    expect(await store.loadSession("s1")).toBeUndefined();
  });
});

const workerPath = fileURLToPath(new URL("./fixtures/store-worker.ts", import.meta.url));
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

describe("SqliteStore", () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-sqlite-"));
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await once(child, "exit");
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates parent directories and keeps everything across close and reopen", async () => {
    const path = join(dir, "nested", "deeper", "state.db");
    let now = start;
    const first = new SqliteStore({ path, now: () => now });
    expect(existsSync(path)).toBe(true);
    await first.set("plain", { a: 1 });
    await first.set("short", "lived", { ttlMs: 100 });
    await first.increment("fires", 3);
    await first.hit("limit", { max: 2, windowMs: 1_000, now: start });
    await first.hit("limit", { max: 2, windowMs: 1_000, now: start });
    await first.setIfAbsent("once", true);
    await first.saveSession({ id: "s1", messages: transcript(), createdAt: start, updatedAt: start });
    await first.close();
    await first.close();

    const second = new SqliteStore({ path, now: () => now });
    expect(await second.get("plain")).toEqual({ a: 1 });
    expect(await second.get("short")).toBe("lived");
    expect(await second.increment("fires")).toBe(4);
    expect(await second.hit("limit", { max: 2, windowMs: 1_000, now: start + 1 })).toBe(false);
    expect(await second.setIfAbsent("once", false)).toBe(false);
    expect((await second.loadSession("s1"))?.messages).toEqual(transcript());
    now += 100;
    expect(await second.get("short")).toBeUndefined();
    await second.close();
  });

  it("uses WAL mode", async () => {
    const path = join(dir, "state.db");
    const store = new SqliteStore({ path });
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("accepts ':memory:' and keeps nothing after close", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    await store.set("k", 1);
    expect(await store.get("k")).toBe(1);
    await store.close();
    const fresh = new SqliteStore({ path: ":memory:" });
    expect(await fresh.get("k")).toBeUndefined();
    await fresh.close();
  });

  it("refuses a database written by a newer schema, naming the file", async () => {
    const path = join(dir, "state.db");
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    expect(() => new SqliteStore({ path })).toThrow(StateStoreError);
    expect(() => new SqliteStore({ path })).toThrow(`${path} has schema version 99`);
  });

  it("counts exactly across two processes sharing the file", async () => {
    const path = join(dir, "shared", "state.db");
    const setup = new SqliteStore({ path });
    await setup.close();

    const workers = [startWorker(path), startWorker(path)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const results = await Promise.all(workers.map((worker) => worker.result));

    const store = new SqliteStore({ path });
    expect(await store.get("counter")).toBe(1_000);
    expect(results.reduce((sum, result) => sum + result.allowed, 0)).toBe(300);
    expect(results.filter((result) => result.won)).toHaveLength(1);
    expect(await store.get("winner")).toBe(workers.find((_, index) => results[index]!.won)!.pid);
    await store.close();
  });

  function startWorker(path: string) {
    const child = spawn(process.execPath, ["--import", "tsx", workerPath, path, "500", String(start)], {
      cwd: projectRoot,
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const exited = once(child, "close");
    const ready = lines.next().then((line) => {
      if (line.value !== "ready") throw new Error(`worker did not start: ${stderr}`);
    });
    const result = (async () => {
      const line = await lines.next();
      const [code] = await exited;
      if (code !== 0) throw new Error(`worker exited with ${code}: ${stderr}`);
      return JSON.parse(line.value as string) as { allowed: number; won: boolean };
    })();
    // A failed `ready` is reported by the test; `result` must not also go unhandled.
    result.catch(() => {});
    return { pid: child.pid, ready, result, go: () => child.stdin!.end("go\n") };
  }
});

describe("createStore", () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-create-"));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("opens a MemoryStore for kind memory", async () => {
    const store = createStore({ kind: "memory" });
    expect(store).toBeInstanceOf(MemoryStore);
    await store.close();
  });

  it("resolves a relative sqlite path against baseDir and keeps absolute paths", async () => {
    const relative = createStore({ kind: "sqlite", path: ".hookwise/state.db" }, dir);
    expect(relative.kind).toBe("sqlite");
    expect((relative as SqliteStore).path).toBe(join(dir, ".hookwise", "state.db"));
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

  it("rejects an unknown kind, listing the known ones", () => {
    expect(() => createStore({ kind: "redis", url: "redis://localhost" } as never)).toThrow(
      'Unknown state store kind "redis"; expected one of: memory, sqlite.',
    );
  });
});
