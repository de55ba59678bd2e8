import { spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { storeContract, transcript } from "../../test/support/store-contract.js";
import { SqliteStore } from "./sqlite-store.js";
import { StateStoreError } from "./state-store-error.js";

const start = 1_700_000_000_000;

{
  let now = start;
  const contractDir = mkdtempSync(join(tmpdir(), "hookwise-sqlite-contract-"));
  afterAll(() => rmSync(contractDir, { recursive: true, force: true }));
  let last = "";
  let files = 0;
  storeContract("SqliteStore", () => ({
    open: (options) => {
      last = join(contractDir, `state-${files++}.db`);
      return new SqliteStore({ path: last, now: () => now, ...options });
    },
    advance: async (ms) => {
      now += ms;
    },
    far: 10 * 365 * 24 * 3_600_000,
    shared: () => ({ kind: "sqlite", path: last }),
    broadcasts: false,
  }));
}

describe("SqliteStore", () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-sqlite-"));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("commits a session and its writes in one transaction: all of them, or none on a stale version", async () => {
    let now = start;
    const store = new SqliteStore({ path: join(dir, "state.db"), now: () => now });
    const session = { id: "s1", messages: transcript(), createdAt: start, updatedAt: start, version: 0 };
    const version = await store.saveSessionWith(session, [
      { key: "record:1", value: { steps: [1, 2] }, ttlMs: 1_000 },
      { key: "record:2", value: "kept" },
    ]);
    expect(version).toBe(1);
    expect(await store.get("record:1")).toEqual({ steps: [1, 2] });
    expect(await store.get("record:2")).toBe("kept");
    now += 1_001;
    expect(await store.get("record:1")).toBeUndefined();
    expect(await store.get("record:2")).toBe("kept");

    // Written on top of version 0 again: refused, and none of its writes is made.
    await expect(store.saveSessionWith(session, [{ key: "record:3", value: 3 }])).rejects.toThrow(
      /changed|busy/i,
    );
    expect(await store.get("record:3")).toBeUndefined();
    expect((await store.loadSession("s1"))!.version).toBe(1);
    await store.close();
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
    await first.lease("lease", "me", 60_000);
    await first.saveSession({
      id: "s1",
      messages: transcript(),
      createdAt: start,
      updatedAt: start,
      version: 0,
    });
    await first.close();
    await first.close();

    const second = new SqliteStore({ path, now: () => now });
    expect(await second.get("plain")).toEqual({ a: 1 });
    expect(await second.get("short")).toBe("lived");
    expect(await second.increment("fires")).toBe(4);
    expect(await second.hit("limit", { max: 2, windowMs: 1_000, now: start + 1 })).toBe(false);
    expect(await second.setIfAbsent("once", false)).toBe(false);
    expect(await second.lease("lease", "other", 60_000)).toBe(false);
    expect(await second.loadSession("s1")).toMatchObject({ messages: transcript(), version: 1 });
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

  for (const synchronous of ["normal", "full"] as const)
    it(`keeps what a process committed when it is killed right after (synchronous: ${synchronous})`, async () => {
      const path = join(dir, "state.db");
      const code = `
        const { SqliteStore } = await import(${JSON.stringify(join(import.meta.dirname, "sqlite-store.ts"))});
        const store = new SqliteStore({ path: ${JSON.stringify(path)}, synchronous: "${synchronous}" });
        const session = { id: "s1", messages: [{ role: "user", content: "hi" }], createdAt: 1, updatedAt: 1, version: 0 };
        await store.saveSessionWith(session, [{ key: "record", value: { kept: true } }]);
        process.stdout.write("committed\\n");
        setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const exited = once(child, "exit");
      expect((await lines.next()).value).toBe("committed");
      child.kill("SIGKILL");
      expect((await exited)[1]).toBe("SIGKILL");
      const store = new SqliteStore({ path });
      expect((await store.loadSession("s1"))?.messages).toEqual([{ role: "user", content: "hi" }]);
      expect(await store.get("record")).toEqual({ kept: true });
      await store.close();
    }, 20_000);

  it("refuses a synchronous level it does not know, naming it", () => {
    expect(() => new SqliteStore({ path: join(dir, "state.db"), synchronous: "off" as "normal" })).toThrow(
      'new SqliteStore: synchronous must be "normal" or "full" (got "off")',
    );
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

  it("drops expired values and sessions when it opens, finding them by their expiry's index, not by reading every row", async () => {
    const path = join(dir, "state.db");
    // A file of the schema before the index, holding live and expired rows.
    const db = new Database(path);
    db.exec(`
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT, expires_at INTEGER);
      CREATE TABLE rate_hits (key TEXT NOT NULL, ts INTEGER NOT NULL);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, messages TEXT NOT NULL, archived TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, version INTEGER NOT NULL,
        expires_at INTEGER, runs INTEGER);
      INSERT INTO kv VALUES ('gone', '1', ${start - 1}), ('kept', '2', ${start + 1_000}), ('forever', '3', NULL);
      INSERT INTO sessions VALUES ('old', '[]', NULL, 1, 2, 1, ${start - 1}, 1), ('live', '[]', NULL, 1, 2, 1, NULL, 1);
    `);
    db.pragma("user_version = 2");
    db.close();
    const store = new SqliteStore({ path, now: () => start });
    await store.close();

    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare("SELECT key FROM kv ORDER BY key").pluck().all()).toEqual(["forever", "kept"]);
      expect(after.prepare("SELECT id FROM sessions").pluck().all()).toEqual(["live"]);
      for (const table of ["kv", "sessions"]) {
        const plan = after
          .prepare(
            `EXPLAIN QUERY PLAN SELECT 1 FROM ${table} WHERE expires_at IS NOT NULL AND expires_at <= 0 LIMIT 1`,
          )
          .all() as { detail: string }[];
        expect(plan.map((step) => step.detail).join("; ")).toContain(
          `USING COVERING INDEX ${table}_expires_at`,
        );
      }
    } finally {
      after.close();
    }
  });

  it("upgrades a schema-1 file: its sessions count as committed once (version 1)", async () => {
    const path = join(dir, "state.db");
    const db = new Database(path);
    db.exec(`
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT, expires_at INTEGER);
      CREATE TABLE rate_hits (key TEXT NOT NULL, ts INTEGER NOT NULL);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, messages TEXT NOT NULL, archived TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      INSERT INTO sessions VALUES ('old', '[{"role":"user","content":"hi"}]', NULL, 1, 2);
    `);
    db.pragma("user_version = 1");
    db.close();
    const store = new SqliteStore({ path });
    const old = await store.loadSession("old");
    expect(old).toEqual({
      id: "old",
      messages: [{ role: "user", content: "hi" }],
      createdAt: 1,
      updatedAt: 2,
      version: 1,
    });
    await expect(store.saveSession({ ...old!, version: 0 })).rejects.toThrow(/busy/);
    expect(await store.saveSession(old!)).toBe(2);
    await store.close();
  });

  it("opening an existing database prepares only the statements that write its tables", async () => {
    const path = join(dir, "state.db");
    const first = new SqliteStore({ path });
    await first.set("k", 1);
    await first.close();
    const prepared: string[] = [];
    const prepare = Database.prototype.prepare;
    const spy = vi.spyOn(Database.prototype, "prepare").mockImplementation(function (
      this: Database.Database,
      sql,
    ) {
      prepared.push(sql.trim().split(/\s+/).slice(0, 3).join(" "));
      return prepare.call(this, sql);
    });
    try {
      const store = new SqliteStore({ path });
      // The writes (which check the tables are whole) and the prune's look for expired rows.
      expect(prepared.filter((sql) => !sql.startsWith("INSERT"))).toEqual(["SELECT 1 AS", "SELECT 1 AS"]);
      expect(prepared.filter((sql) => sql.startsWith("INSERT"))).toHaveLength(3);
      prepared.length = 0;
      expect(await store.get("k")).toBe(1);
      expect(await store.get("k")).toBe(1);
      expect(prepared).toEqual(["SELECT value FROM"]);
      await store.close();
    } finally {
      spy.mockRestore();
    }
  });

  it("a rate-limit table altered by hand is an error at the open, naming the file", () => {
    const path = join(dir, "state.db");
    new SqliteStore({ path }).close();
    const sqlite = new Database(path);
    sqlite.exec("DROP TABLE rate_hits");
    sqlite.close();
    expect(() => new SqliteStore({ path })).toThrow(
      `The state database ${path} does not hold the tables hookwise writes (`,
    );
  });

  describe("a file it cannot read is an error naming the file and what to do", () => {
    const expectUnreadable = (action: () => unknown, path: string) => {
      let caught: unknown;
      try {
        action();
      } catch (error) {
        caught = error;
      }
      expect(StateStoreError.isInstance(caught)).toBe(true);
      const message = (caught as Error).message;
      expect(message).toContain(`The state database ${path} is not a readable SQLite database`);
      expect(message).toContain(`move it aside (mv ${path} ${path}.broken)`);
      expect(message).not.toContain("\n");
    };

    it("garbage bytes", () => {
      const path = join(dir, "state.db");
      writeFileSync(path, Buffer.from("this is not a database, it is a note ".repeat(200)));
      expectUnreadable(() => new SqliteStore({ path }), path);
    });

    it("a truncated database", async () => {
      const path = join(dir, "full.db");
      const store = new SqliteStore({ path });
      for (let index = 0; index < 300; index++) await store.set(`key-${index}`, "x".repeat(500));
      await store.close();
      const cut = join(dir, "cut.db");
      copyFileSync(path, cut);
      truncateSync(cut, 8192);
      expectUnreadable(() => new SqliteStore({ path: cut }), cut);
    });
  });

  it("a malformed stored session or value is an error naming the file, the entry and the fix", async () => {
    const path = join(dir, "state.db");
    const store = new SqliteStore({ path });
    await store.saveSession({ id: "s'1", messages: [], createdAt: 1, updatedAt: 1, version: 0 });
    await store.set("run:r1:suspended", { ok: true });
    const db = new Database(path);
    db.prepare("UPDATE sessions SET messages = ? WHERE id = ?").run(
      '[{"role":"user","content":"cut sho',
      "s'1",
    );
    db.prepare("UPDATE kv SET value = ? WHERE key = ?").run("{not json", "run:r1:suspended");
    db.close();

    const session = store.loadSession("s'1");
    await expect(session).rejects.toThrow(StateStoreError);
    await expect(session).rejects.toThrow(
      `The stored session "s'1" in ${path} is malformed (messages: not JSON: `,
    );
    await expect(session).rejects.toThrow(
      `continue with another session id, or delete this one: sqlite3 ${path} "DELETE FROM sessions WHERE id = 's''1'"`,
    );
    // Read with its lease: the same error, and the lease given back.
    await expect(store.beginSession("s'1", { key: "s'1:lease", holder: "run" }, 60_000)).rejects.toThrow(
      `The stored session "s'1" in ${path} is malformed (messages: not JSON: `,
    );
    expect(await store.get("s'1:lease")).toBeUndefined();
    await expect(store.get("run:r1:suspended")).rejects.toThrow(
      `The stored key "run:r1:suspended" in ${path} is malformed (not JSON: `,
    );
    // A counter over a value that is not JSON starts again (as over any non-number).
    expect(await store.increment("run:r1:suspended")).toBe(1);

    const db2 = new Database(path);
    db2
      .prepare("UPDATE sessions SET messages = ? WHERE id = ?")
      .run('[{"role":"robot","content":"x"}]', "s'1");
    db2.close();
    await expect(store.loadSession("s'1")).rejects.toThrow(
      "malformed (messages[0].role: expected system, user, assistant or tool)",
    );
    await store.close();
  });
});
