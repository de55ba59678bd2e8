/**
 * The SQLite StateStore: one machine, persistent, shared by every process that opens the
 * same file. Every counting operation is atomic inside SQLite — a single UPSERT statement
 * or an IMMEDIATE transaction (which takes the write lock before reading, so two
 * processes never count from the same snapshot) — never read-modify-write in JS.
 *
 * Values are stored as JSON text (see json-codec.ts); SQL NULL stands for `undefined`.
 * Expired keys are treated as absent by every operation and pruned when the file opens.
 * better-sqlite3 is synchronous; the async methods only match the StateStore interface.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { decodeJson, encodeJson } from "./json-codec.js";
import type { SessionRecord, StateStore } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

export interface SqliteStoreOptions {
  /** The database file; parent directories are created. `":memory:"` for a private in-memory db. */
  path: string;
  /** The clock for TTLs (default `Date.now`); tests inject one. */
  now?: () => number;
  /** How long to wait for another process's write lock before failing (default 5,000 ms). */
  busyTimeoutMs?: number;
}

const schemaVersion = 1;

const schema = `
  CREATE TABLE IF NOT EXISTS kv (
    key TEXT PRIMARY KEY,
    value TEXT,
    expires_at INTEGER
  );
  CREATE TABLE IF NOT EXISTS rate_hits (
    key TEXT NOT NULL,
    ts INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS rate_hits_key_ts ON rate_hits (key, ts);
  CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    messages TEXT NOT NULL,
    archived TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
`;

const live = "(expires_at IS NULL OR expires_at > @now)";
const expired = "(kv.expires_at IS NOT NULL AND kv.expires_at <= @now)";

interface SessionRow {
  id: string;
  messages: string;
  archived: string | null;
  created_at: number;
  updated_at: number;
}

export class SqliteStore implements StateStore {
  readonly kind = "sqlite";
  readonly path: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #statements;

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    this.#now = options.now ?? (() => Date.now());
    if (options.path !== ":memory:" && options.path !== "") {
      mkdirSync(dirname(options.path), { recursive: true });
    }
    this.#db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5_000 });
    try {
      this.#migrate();
    } catch (error) {
      this.#db.close();
      throw error;
    }
    this.#statements = this.#prepare();
    this.#statements.pruneExpired.run({ now: this.#now() });
  }

  #migrate(): void {
    // Switching modes needs an exclusive lock; the mode persists in the file, so only a new
    // database asks for it (two processes opening an existing file do not contend here).
    if (this.#db.pragma("journal_mode", { simple: true }) !== "wal") this.#db.pragma("journal_mode = WAL");
    const version = this.#db.pragma("user_version", { simple: true }) as number;
    if (version > schemaVersion) {
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `The state database ${this.path} has schema version ${version}, written by a newer hookwise; this version reads up to ${schemaVersion}. Upgrade hookwise or point runtime.state at another file.`,
      });
    }
    this.#db
      .transaction(() => {
        this.#db.exec(schema);
        this.#db.pragma(`user_version = ${schemaVersion}`);
      })
      .immediate();
  }

  #prepare() {
    const db = this.#db;
    return {
      get: db.prepare<{ key: string; now: number }, { value: string | null }>(
        `SELECT value FROM kv WHERE key = @key AND ${live}`,
      ),
      set: db.prepare<{ key: string; value: string | null; expiresAt: number | null }>(
        "INSERT OR REPLACE INTO kv (key, value, expires_at) VALUES (@key, @value, @expiresAt)",
      ),
      deleteValue: db.prepare<[string]>("DELETE FROM kv WHERE key = ?"),
      deleteHits: db.prepare<[string]>("DELETE FROM rate_hits WHERE key = ?"),
      // An expired or non-numeric value restarts from `by`, as if the key were absent;
      // SET expressions all read the old row, so `expires_at` is tested before it is cleared.
      increment: db.prepare<
        { key: string; by: number | bigint; initial: string; now: number },
        { value: string }
      >(
        `INSERT INTO kv (key, value, expires_at) VALUES (@key, @initial, NULL)
         ON CONFLICT (key) DO UPDATE SET
           value = CASE
             WHEN ${expired} THEN @initial
             WHEN json_type(kv.value) IN ('integer', 'real') THEN kv.value + @by
             ELSE @initial
           END,
           expires_at = CASE WHEN ${expired} THEN NULL ELSE kv.expires_at END
         RETURNING value`,
      ),
      pruneHits: db.prepare<{ key: string; since: number }>(
        "DELETE FROM rate_hits WHERE key = @key AND ts <= @since",
      ),
      countHits: db.prepare<{ key: string; since: number }, { count: number }>(
        "SELECT count(*) AS count FROM rate_hits WHERE key = @key AND ts > @since",
      ),
      addHit: db.prepare<{ key: string; ts: number }>("INSERT INTO rate_hits (key, ts) VALUES (@key, @ts)"),
      isLive: db.prepare<{ key: string; now: number }, { present: 1 }>(
        `SELECT 1 AS present FROM kv WHERE key = @key AND ${live}`,
      ),
      // substr, not LIKE: a prefix may hold `%` or `_`.
      keys: db.prepare<{ prefix: string; now: number }, { key: string }>(
        `SELECT key FROM kv WHERE substr(key, 1, length(@prefix)) = @prefix AND ${live}`,
      ),
      pruneExpired: db.prepare<{ now: number }>(
        "DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= @now",
      ),
      loadSession: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE id = ?"),
      saveSession: db.prepare<SessionRow>(
        `INSERT INTO sessions (id, messages, archived, created_at, updated_at)
         VALUES (@id, @messages, @archived, @created_at, @updated_at)
         ON CONFLICT (id) DO UPDATE SET
           messages = excluded.messages, archived = excluded.archived,
           created_at = excluded.created_at, updated_at = excluded.updated_at`,
      ),
      deleteSession: db.prepare<[string]>("DELETE FROM sessions WHERE id = ?"),
    };
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const row = this.#statements.get.get({ key, now: this.#now() });
    return row?.value == null ? undefined : (decodeJson(row.value) as T);
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    this.#statements.set.run({
      key,
      value: encodeJson(value) ?? null,
      expiresAt: options.ttlMs === undefined ? null : this.#now() + options.ttlMs,
    });
  }

  async delete(key: string): Promise<void> {
    this.#db.transaction(() => {
      this.#statements.deleteValue.run(key);
      this.#statements.deleteHits.run(key);
    })();
  }

  async increment(key: string, by = 1): Promise<number> {
    // A safe integer is bound as a BigInt so SQLite adds INTEGERs (a JS number binds as REAL).
    const row = this.#statements.increment.get({
      key,
      by: Number.isSafeInteger(by) ? BigInt(by) : by,
      initial: JSON.stringify(by),
      now: this.#now(),
    });
    return Number(decodeJson(row!.value));
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    return this.#db
      .transaction(() => {
        this.#statements.pruneHits.run({ key, since });
        if (this.#statements.countHits.get({ key, since })!.count >= options.max) return false;
        this.#statements.addHit.run({ key, ts: options.now });
        return true;
      })
      .immediate();
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    return this.#db
      .transaction(() => {
        const now = this.#now();
        if (this.#statements.isLive.get({ key, now })) return false;
        this.#statements.set.run({
          key,
          value: encodeJson(value) ?? null,
          expiresAt: options.ttlMs === undefined ? null : now + options.ttlMs,
        });
        return true;
      })
      .immediate();
  }

  async keys(prefix: string): Promise<string[]> {
    return this.#statements.keys.all({ prefix, now: this.#now() }).map((row) => row.key);
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    const row = this.#statements.loadSession.get(id);
    if (!row) return undefined;
    const record: SessionRecord = {
      id: row.id,
      messages: decodeJson(row.messages) as SessionRecord["messages"],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
    if (row.archived !== null) record.archived = decodeJson(row.archived) as SessionRecord["messages"];
    return record;
  }

  async saveSession(record: SessionRecord): Promise<void> {
    this.#statements.saveSession.run({
      id: record.id,
      messages: encodeJson(record.messages)!,
      archived: record.archived === undefined ? null : encodeJson(record.archived)!,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    });
  }

  async deleteSession(id: string): Promise<void> {
    this.#statements.deleteSession.run(id);
  }

  /** Closes the database; idempotent. The store must not be used afterwards. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
