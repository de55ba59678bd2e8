/**
 * The floor under a store's row: the in-memory `run()`, then the one write any store must
 * make for it — the run's session (its messages as JSON) committed by the store's own
 * driver, with nothing of hookwise's in between. On SQLite: one IMMEDIATE transaction of
 * one INSERT into a table shaped like SqliteStore's (WAL, synchronous NORMAL, a new file
 * each round); on Redis: one SET with an expiry. What a store's row costs over this floor
 * is hookwise's own; what the floor costs over the in-memory run is the store's.
 *
 * The recorded floors commit the run's record with its session, in the same transaction (a
 * second INSERT) or the same round trip (MULTI of two SETs): the record is the text of the
 * one a recorded hookwise run of the same workload stores, taken once before timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRedis } from "../../../test/support/redis-server.js";
import { hookwise } from "../../shared/hookwise.js";
import type { Contender, ContenderOptions, CreateContender } from "../contender.js";
import { BenchCheckError, INPUT } from "../script.js";
import { benchAgent, hookwiseAgent } from "./hookwise-agent.js";

const require = createRequire(import.meta.url);
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const RECORD_TTL_MS = 30 * 24 * 60 * 60 * 1000;

interface Driver {
  /** Commits one session: its id and its messages as JSON, with a record's text when given. */
  commit(id: string, messages: string, record: string | undefined): Promise<void> | void;
  next(): void;
  close(): Promise<void>;
}

function sqliteDriver(): Driver {
  type Database = import("better-sqlite3").Database;
  const Sqlite = require("better-sqlite3") as typeof import("better-sqlite3");
  const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-floor-"));
  let round = 0;
  const open = () => {
    const db: Database = new Sqlite(join(dir, `floor-${round++}.db`));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec(`CREATE TABLE sessions (
      id TEXT PRIMARY KEY, messages TEXT NOT NULL, archived TEXT, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, version INTEGER NOT NULL, expires_at INTEGER, runs INTEGER);
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT, expires_at INTEGER)`);
    const insert = db.prepare(
      "INSERT INTO sessions (id, messages, created_at, updated_at, version, expires_at, runs) VALUES (?, ?, ?, ?, 1, ?, 1)",
    );
    const insertRecord = db.prepare("INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)");
    const commit = db.transaction((id: string, messages: string, record: string | undefined) => {
      const now = Date.now();
      insert.run(id, messages, now, now, now + SESSION_TTL_MS);
      if (record !== undefined) insertRecord.run(`hookwise:runs:${id}`, record, now + RECORD_TTL_MS);
    });
    return {
      db,
      commit: (id: string, messages: string, record: string | undefined) =>
        commit.immediate(id, messages, record),
    };
  };
  let current = open();
  return {
    commit: (id, messages, record) => current.commit(id, messages, record),
    next() {
      current.db.close();
      current = open();
    },
    async close() {
      current.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function redisDriver(): Promise<Driver> {
  const server = await startRedis();
  const { Redis } = await import("ioredis");
  const client = new Redis(server.url);
  const stop = () => server.stop();
  process.once("exit", () => void stop());
  return {
    async commit(id, messages, record) {
      if (record === undefined) {
        await client.set(`hookwise:session:${id}`, messages, "PX", SESSION_TTL_MS);
        return;
      }
      await client
        .multi()
        .set(`hookwise:session:${id}`, messages, "PX", SESSION_TTL_MS)
        .set(`hookwise:runs:${id}`, record, "PX", RECORD_TTL_MS)
        .exec();
    },
    next() {
      void client.call("FLUSHDB");
    },
    async close() {
      client.disconnect();
      await stop();
    },
  };
}

const DRIVERS = { sqlite: sqliteDriver, redis: redisDriver };

/** The text of the record a recorded hookwise run of the workload stores. */
async function recordText(options: ContenderOptions): Promise<string> {
  const store = new hookwise.MemoryStore({ keepOneShot: true });
  const agent = benchAgent(options, "record for the floor", { store, recordRuns: true });
  const result = await agent.run(INPUT);
  if (result.outcome !== "completed") throw new BenchCheckError(`store floor: outcome ${result.outcome}`);
  // Its calls were counted like every run's: it is one of the script's finished runs.
  options.script.finished++;
  const [key] = await store.keys("hookwise:runs:");
  if (key === undefined) throw new BenchCheckError("store floor: the recorded run left no record");
  return JSON.stringify(await store.get(key));
}

/** The in-memory run plus the store's one commit of its session (and its record, `recorded`). */
export function floorContender(kind: keyof typeof DRIVERS, recorded = false): CreateContender {
  return async (options): Promise<Contender> => {
    const driver = await DRIVERS[kind]();
    const record = recorded ? await recordText(options) : undefined;
    const { agent, store } = hookwiseAgent(options, `${kind} floor`);
    return {
      setup() {
        store.reset();
        driver.next();
      },
      async run() {
        const result = await agent.run(INPUT);
        if (result.outcome !== "completed")
          throw new BenchCheckError(`${kind} floor: outcome ${result.outcome}`);
        await driver.commit(result.sessionId, JSON.stringify(result.messages), record);
        return result.text;
      },
      close: () => driver.close(),
    };
  };
}
