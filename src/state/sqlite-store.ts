/**
 * The SQLite StateStore: one machine, persistent, shared by every process that opens the
 * same file. Every counting operation is atomic inside SQLite — a single UPSERT statement
 * or an IMMEDIATE transaction (which takes the write lock before reading, so two
 * processes never count from the same snapshot) — never read-modify-write in JS. A
 * session commit is a compare-and-swap on its version inside such a transaction.
 *
 * Values are stored as JSON text (see json-codec.ts); SQL NULL stands for `undefined`.
 * Expired keys and sessions are treated as absent by every operation and pruned when the
 * file opens. A file that is not a database, or is corrupt, is a StateStoreError naming
 * it and saying what to do, whichever operation finds out.
 * better-sqlite3 (an optional package, loaded by the first store opened) is synchronous;
 * the async methods only match the StateStore interface.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { decodeStoredSession, decodeStoredValue, type StoredPlace } from "./decode-stored.js";
import { encodeJson } from "./json-codec.js";
import { sqliteDriver } from "./sqlite-native-addon.js";
import type {
  LeaseOptions,
  SaveSessionOptions,
  SessionLeaseRef,
  SessionRecord,
  StateStore,
  StoreWrite,
} from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

export interface SqliteStoreOptions {
  /** The database file; parent directories are created. `":memory:"` for a private in-memory db. */
  path: string;
  /** The clock for TTLs (default `Date.now`); tests inject one. */
  now?: () => number;
  /** How long to wait for another process's write lock before failing (default 5,000 ms). */
  busyTimeoutMs?: number;
  /** A session not committed for this long is dropped (default: kept until deleted). */
  sessionTtlMs?: number;
  /**
   * When a commit reaches the disk. `"normal"` (default): a commit is in the write-ahead
   * log when it returns, so a process that crashes or is killed loses nothing, and the file
   * is flushed to the disk at each checkpoint; a power loss or an operating-system crash may
   * undo the last commits (never half of one). `"full"`: every commit waits for the disk
   * (an fsync), which survives a power loss too and costs several times the CPU time of the
   * rest of a short run. Set on every connection, so it does not hang on how SQLite was
   * built (better-sqlite3's build makes a WAL connection "normal"; SQLite's own default is
   * "full").
   */
  synchronous?: "normal" | "full";
}

/**
 * 2: sessions have a version (compare-and-swap), an expiry and a count of runs.
 * 3: rows with an expiry are indexed by it, so opening the store finds the expired ones
 * without reading every row (a harness's hook opens it on every tool call, and its records
 * fill the store).
 */
const schemaVersion = 3;

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
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER,
    runs INTEGER
  );
  CREATE INDEX IF NOT EXISTS kv_expires_at ON kv (expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at) WHERE expires_at IS NOT NULL;
`;

/** From schema 1: sessions stored before versions count as committed once. */
const fromVersion1 = `
  ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE sessions ADD COLUMN expires_at INTEGER;
  ALTER TABLE sessions ADD COLUMN runs INTEGER;
`;

const live = "(expires_at IS NULL OR expires_at > @now)";
const expired = "(kv.expires_at IS NOT NULL AND kv.expires_at <= @now)";

interface SessionRow {
  id: string;
  messages: string;
  archived: string | null;
  created_at: number;
  updated_at: number;
  version: number;
  expires_at: number | null;
  runs: number | null;
}

/** SQLite's verdicts on a file that is not a (healthy) database. */
const unreadable = /^SQLITE_(NOTADB|CORRUPT)/;

/** SQLite's words for a table or column that is not there (dropped or altered by hand). */
const schemaMismatch = /no such (table|column)|has no column named|has \d+ columns but/;

/** A SQL string literal (for commands printed in messages, never executed here). */
/**
 * The least string above every string that starts with `prefix`, in SQLite's order for text
 * (its UTF-8 bytes, which is code point order): the prefix with its last code point one
 * higher. `undefined` when there is none to use (no prefix, or one ending where the next code
 * point is not a character).
 */
function prefixUpperBound(prefix: string): string | undefined {
  if (prefix === "") return undefined;
  let start = prefix.length - 1;
  const unit = prefix.charCodeAt(start);
  if (unit >= 0xdc00 && unit <= 0xdfff && start > 0) {
    const high = prefix.charCodeAt(start - 1);
    if (high >= 0xd800 && high <= 0xdbff) start--;
  }
  const last = prefix.codePointAt(start)!;
  if (last >= 0xd800 && last <= 0xdfff) return undefined; // a lone surrogate: stored as U+FFFD
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  if (next > 0x10ffff) return undefined;
  return prefix.slice(0, start) + String.fromCodePoint(next);
}

/**
 * The store's statements, each prepared at its first use (a harness's hook opens the store
 * on every tool call and runs a few of them).
 */
const STATEMENTS = {
  get: (db: Database.Database) =>
    db.prepare<{ key: string; now: number }, { value: string | null }>(
      `SELECT value FROM kv WHERE key = @key AND ${live}`,
    ),
  set: (db: Database.Database) =>
    db.prepare<{ key: string; value: string | null; expiresAt: number | null }>(
      "INSERT OR REPLACE INTO kv (key, value, expires_at) VALUES (@key, @value, @expiresAt)",
    ),
  deleteValue: (db: Database.Database) => db.prepare<[string]>("DELETE FROM kv WHERE key = ?"),
  deleteHits: (db: Database.Database) => db.prepare<[string]>("DELETE FROM rate_hits WHERE key = ?"),
  // An expired or non-numeric value restarts from `by`, as if the key were absent (a
  // value that is not JSON too: json_type would fail on it, so the CASE tests it first);
  // SET expressions all read the old row, so `expires_at` is tested before it is cleared.
  increment: (db: Database.Database) =>
    db.prepare<{ key: string; by: number | bigint; initial: string; now: number }, { value: string }>(
      `INSERT INTO kv (key, value, expires_at) VALUES (@key, @initial, NULL)
         ON CONFLICT (key) DO UPDATE SET
           value = CASE
             WHEN ${expired} THEN @initial
             WHEN (CASE WHEN json_valid(kv.value) THEN json_type(kv.value) END) IN ('integer', 'real')
               THEN kv.value + @by
             ELSE @initial
           END,
           expires_at = CASE WHEN ${expired} THEN NULL ELSE kv.expires_at END
         RETURNING value`,
    ),
  pruneHits: (db: Database.Database) =>
    db.prepare<{ key: string; since: number }>("DELETE FROM rate_hits WHERE key = @key AND ts <= @since"),
  countHits: (db: Database.Database) =>
    db.prepare<{ key: string; since: number }, { count: number }>(
      "SELECT count(*) AS count FROM rate_hits WHERE key = @key AND ts > @since",
    ),
  addHit: (db: Database.Database) =>
    db.prepare<{ key: string; ts: number }>("INSERT INTO rate_hits (key, ts) VALUES (@key, @ts)"),
  isLive: (db: Database.Database) =>
    db.prepare<{ key: string; now: number }, { present: 1 }>(
      `SELECT 1 AS present FROM kv WHERE key = @key AND ${live}`,
    ),
  // substr, not LIKE: a prefix may hold `%` or `_`.
  keys: (db: Database.Database) =>
    db.prepare<{ prefix: string; now: number }, { key: string }>(
      `SELECT key FROM kv WHERE substr(key, 1, length(@prefix)) = @prefix AND ${live}`,
    ),
  // The same, reading only the primary key's range [prefix, upper): a prefix query costs
  // the keys it finds, not every key the store holds (records included).
  keysInRange: (db: Database.Database) =>
    db.prepare<{ prefix: string; upper: string; now: number }, { key: string }>(
      `SELECT key FROM kv WHERE key >= @prefix AND key < @upper AND substr(key, 1, length(@prefix)) = @prefix AND ${live}`,
    ),
  anyExpired: (db: Database.Database) =>
    db.prepare<{ now: number }, { found: 1 }>(
      "SELECT 1 AS found FROM kv WHERE expires_at IS NOT NULL AND expires_at <= @now LIMIT 1",
    ),
  anySessionExpired: (db: Database.Database) =>
    db.prepare<{ now: number }, { found: 1 }>(
      "SELECT 1 AS found FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= @now LIMIT 1",
    ),
  pruneExpired: (db: Database.Database) =>
    db.prepare<{ now: number }>("DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= @now"),
  pruneSessions: (db: Database.Database) =>
    db.prepare<{ now: number }>("DELETE FROM sessions WHERE expires_at IS NOT NULL AND expires_at <= @now"),
  loadSession: (db: Database.Database) =>
    db.prepare<{ id: string; now: number }, SessionRow>(`SELECT * FROM sessions WHERE id = @id AND ${live}`),
  sessionVersion: (db: Database.Database) =>
    db.prepare<{ id: string; now: number }, { version: number }>(
      `SELECT version FROM sessions WHERE id = @id AND ${live}`,
    ),
  saveSession: (db: Database.Database) =>
    db.prepare<SessionRow>(
      `INSERT INTO sessions (id, messages, archived, created_at, updated_at, version, expires_at, runs)
         VALUES (@id, @messages, @archived, @created_at, @updated_at, @version, @expires_at, @runs)
         ON CONFLICT (id) DO UPDATE SET
           messages = excluded.messages, archived = excluded.archived,
           created_at = excluded.created_at, updated_at = excluded.updated_at,
           version = excluded.version, expires_at = excluded.expires_at, runs = excluded.runs`,
    ),
  deleteSession: (db: Database.Database) => db.prepare<[string]>("DELETE FROM sessions WHERE id = ?"),
};

type Statements = { [Name in keyof typeof STATEMENTS]: ReturnType<(typeof STATEMENTS)[Name]> };

/**
 * The statements that write each table, prepared when the file opens: preparing them checks
 * that every table and column hookwise writes is there, so a database altered by hand is an
 * error at the open, whichever operations come later.
 */
const WRITES: readonly (keyof Statements)[] = ["set", "addHit", "saveSession"];

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

export class SqliteStore implements StateStore {
  readonly kind = "sqlite";
  readonly path: string;
  readonly location: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #sessionTtlMs: number | undefined;
  readonly #synchronous: "normal" | "full";
  readonly #place: StoredPlace;
  readonly #statements: Partial<Statements> = {};

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    this.location = options.path;
    this.#now = options.now ?? (() => Date.now());
    this.#sessionTtlMs = options.sessionTtlMs;
    const synchronous = options.synchronous ?? "normal";
    if (synchronous !== "normal" && synchronous !== "full")
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `new SqliteStore: synchronous must be "normal" or "full" (got ${JSON.stringify(synchronous)})`,
      });
    this.#synchronous = synchronous;
    this.#place = {
      kind: this.kind,
      location: this.path,
      path: this.path,
      removal: (entry, name) =>
        entry === "session"
          ? `continue with another session id, or delete this one: sqlite3 ${this.path} "DELETE FROM sessions WHERE id = ${sqlText(name)}"`
          : `delete it: sqlite3 ${this.path} "DELETE FROM kv WHERE key = ${sqlText(name)}"`,
    };
    const { Driver, nativeBinding } = sqliteDriver();
    if (options.path !== ":memory:" && options.path !== "") {
      mkdirSync(dirname(options.path), { recursive: true });
    }
    this.#db = this.#guard(
      () =>
        new Driver(options.path, {
          timeout: options.busyTimeoutMs ?? 5_000,
          ...(nativeBinding === undefined ? {} : { nativeBinding }),
        }),
    );
    try {
      this.#guard(() => this.#migrate());
      for (const name of WRITES) this.#statement(name);
      this.#guard(() => this.#prune());
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /**
   * Runs `operation`, turning SQLite's "not a database" / "corrupt" / "locked" into a
   * StateStoreError that names the file and says what to do.
   */
  #guard<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== "string" || !code.startsWith("SQLITE_")) throw error;
      const detail = (error as Error).message;
      let message: string;
      if (unreadable.test(code)) {
        message = `The state database ${this.path} is not a readable SQLite database (${detail}): move it aside (mv ${this.path} ${this.path}.broken) to start from empty state — its sessions, suspended runs and hook counters are then gone — or point runtime.state at another file`;
      } else if (code === "SQLITE_ERROR" && schemaMismatch.test(detail)) {
        message = `The state database ${this.path} does not hold the tables hookwise writes (${detail}; a table was dropped or altered): move it aside (mv ${this.path} ${this.path}.broken) to start from empty state — its sessions, suspended runs and hook counters are then gone — or point runtime.state at another file`;
      } else if (code.startsWith("SQLITE_BUSY")) {
        message = `The state database ${this.path} stayed locked by another process (${detail}); retry, or raise the store's busyTimeoutMs`;
      } else if (
        code.startsWith("SQLITE_CANTOPEN") ||
        code.startsWith("SQLITE_READONLY") ||
        code.startsWith("SQLITE_PERM")
      ) {
        message = `Cannot write the state database ${this.path} (${detail}): check that the file and its folder are writable, or point runtime.state at another file`;
      } else {
        throw error;
      }
      throw new StateStoreError({ kind: this.kind, path: this.path, message, cause: error });
    }
  }

  #migrate(): void {
    // Switching modes needs an exclusive lock; the mode persists in the file, so only a new
    // database asks for it (two processes opening an existing file do not contend here).
    if (this.#db.pragma("journal_mode", { simple: true }) !== "wal") this.#db.pragma("journal_mode = WAL");
    // Per connection, not kept in the file.
    this.#db.pragma(`synchronous = ${this.#synchronous === "full" ? "FULL" : "NORMAL"}`);
    const found = this.#db.pragma("user_version", { simple: true }) as number;
    if (found > schemaVersion) {
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `The state database ${this.path} has schema version ${found}, written by a newer hookwise; this version reads up to ${schemaVersion}. Upgrade hookwise or point runtime.state at another file.`,
      });
    }
    if (found === schemaVersion) return;
    this.#db
      .transaction(() => {
        // Read again under the write lock: another process may have migrated meanwhile.
        const version = this.#db.pragma("user_version", { simple: true }) as number;
        if (version === schemaVersion) return;
        if (version === 1) this.#db.exec(fromVersion1);
        this.#db.exec(schema);
        this.#db.pragma(`user_version = ${schemaVersion}`);
      })
      .immediate();
  }

  /**
   * Drops expired values and sessions. Found through their expiry's index first: a delete is
   * a write transaction even when it deletes nothing, and most opens find nothing expired.
   */
  #prune(): void {
    const now = this.#now();
    if (this.#statement("anyExpired").get({ now })) this.#statement("pruneExpired").run({ now });
    if (this.#statement("anySessionExpired").get({ now })) this.#statement("pruneSessions").run({ now });
  }

  /** The statement `name`, prepared at its first use (SQLite's errors mapped as every operation's). */
  #statement<Name extends keyof Statements>(name: Name): Statements[Name] {
    const prepared = this.#statements[name];
    if (prepared !== undefined) return prepared as Statements[Name];
    const statement = this.#guard(() => STATEMENTS[name](this.#db) as Statements[Name]);
    this.#statements[name] = statement;
    return statement;
  }

  #decode(key: string, text: string | null | undefined): unknown {
    return text == null ? undefined : decodeStoredValue(this.#place, key, text);
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const row = this.#guard(() => this.#statement("get").get({ key, now: this.#now() }));
    return this.#decode(key, row?.value) as T | undefined;
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    this.#guard(() =>
      this.#statement("set").run({
        key,
        value: encodeJson(value) ?? null,
        expiresAt: options.ttlMs === undefined ? null : this.#now() + options.ttlMs,
      }),
    );
  }

  async delete(key: string): Promise<void> {
    this.#guard(() =>
      this.#db.transaction(() => {
        this.#statement("deleteValue").run(key);
        this.#statement("deleteHits").run(key);
      })(),
    );
  }

  async increment(key: string, by = 1): Promise<number> {
    // A safe integer is bound as a BigInt so SQLite adds INTEGERs (a JS number binds as REAL).
    const row = this.#guard(() =>
      this.#statement("increment").get({
        key,
        by: Number.isSafeInteger(by) ? BigInt(by) : by,
        initial: JSON.stringify(by),
        now: this.#now(),
      }),
    );
    return Number(this.#decode(key, row!.value));
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    return this.#guard(() =>
      this.#db
        .transaction(() => {
          this.#statement("pruneHits").run({ key, since });
          if (this.#statement("countHits").get({ key, since })!.count >= options.max) return false;
          this.#statement("addHit").run({ key, ts: options.now });
          return true;
        })
        .immediate(),
    );
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    return this.#guard(() =>
      this.#db
        .transaction(() => {
          const now = this.#now();
          if (this.#statement("isLive").get({ key, now })) return false;
          this.#statement("set").run({
            key,
            value: encodeJson(value) ?? null,
            expiresAt: options.ttlMs === undefined ? null : now + options.ttlMs,
          });
          return true;
        })
        .immediate(),
    );
  }

  /** Inside a write transaction: takes the lease `key` for `mine` (a holder's JSON) when it may. */
  #takeLease(key: string, mine: string, ttlMs: number, replacing: string | undefined, now: number): boolean {
    const current = this.#statement("get").get({ key, now })?.value;
    if (current != null && current !== mine && current !== replacing) return false;
    this.#statement("set").run({ key, value: mine, expiresAt: now + ttlMs });
    return true;
  }

  /** Inside a write transaction: frees the lease `key` if `mine` (a holder's JSON) holds it. */
  #freeLease(key: string, mine: string, now: number): boolean {
    if (this.#statement("get").get({ key, now })?.value !== mine) return false;
    this.#statement("deleteValue").run(key);
    return true;
  }

  async lease(key: string, holder: string, ttlMs: number, options: LeaseOptions = {}): Promise<boolean> {
    const mine = encodeJson(holder)!;
    const replacing = options.replacing === undefined ? undefined : encodeJson(options.replacing);
    return this.#guard(() =>
      this.#db.transaction(() => this.#takeLease(key, mine, ttlMs, replacing, this.#now())).immediate(),
    );
  }

  async releaseLease(key: string, holder: string): Promise<boolean> {
    const mine = encodeJson(holder)!;
    return this.#guard(() => this.#db.transaction(() => this.#freeLease(key, mine, this.#now())).immediate());
  }

  /** The lease and the session's row in one transaction; the row is decoded after it. */
  async beginSession(
    id: string,
    lease: SessionLeaseRef,
    ttlMs: number,
  ): Promise<{ session: SessionRecord | undefined } | undefined> {
    const mine = encodeJson(lease.holder)!;
    const row = this.#guard(() =>
      this.#db
        .transaction(() => {
          const now = this.#now();
          if (!this.#takeLease(lease.key, mine, ttlMs, undefined, now)) return false;
          return this.#statement("loadSession").get({ id, now }) ?? null;
        })
        .immediate(),
    );
    if (row === false) return undefined;
    if (row === null) return { session: undefined };
    try {
      return { session: this.#sessionOf(row) };
    } catch (error) {
      await this.releaseLease(lease.key, lease.holder);
      throw error;
    }
  }

  async keys(prefix: string): Promise<string[]> {
    const now = this.#now();
    const upper = prefixUpperBound(prefix);
    const rows =
      upper === undefined
        ? this.#statement("keys").all({ prefix, now })
        : this.#statement("keysInRange").all({ prefix, upper, now });
    return rows.map((row) => row.key);
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    const row = this.#guard(() => this.#statement("loadSession").get({ id, now: this.#now() }));
    return row ? this.#sessionOf(row) : undefined;
  }

  #sessionOf(row: SessionRow): SessionRecord {
    return decodeStoredSession(this.#place, {
      id: row.id,
      messages: row.messages,
      archived: row.archived,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
      runs: row.runs,
    });
  }

  async saveSession(record: SessionRecord, options: SaveSessionOptions = {}): Promise<number> {
    return this.#commit(record, [], undefined, options);
  }

  async saveSessionWith(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    options: SaveSessionOptions = {},
  ): Promise<number> {
    return this.#commit(record, writes, undefined, options);
  }

  /** The commit, its writes and the lease's release in one transaction. */
  async commitSession(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    lease: SessionLeaseRef,
    options: SaveSessionOptions = {},
  ): Promise<number> {
    return this.#commit(record, writes, lease, options);
  }

  #commit(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    lease: SessionLeaseRef | undefined,
    options: SaveSessionOptions,
  ): number {
    const held = lease && encodeJson(lease.holder)!;
    const messages = encodeJson(record.messages)!;
    const archived = record.archived === undefined ? null : encodeJson(record.archived)!;
    const ttlMs = options.ttlMs ?? this.#sessionTtlMs;
    // Encoded before the transaction: it holds the write lock no longer than the writes.
    const values = writes.map((write) => encodeJson(write.value) ?? null);
    return this.#guard(() =>
      this.#db
        .transaction(() => {
          const now = this.#now();
          const current = this.#statement("sessionVersion").get({ id: record.id, now })?.version ?? 0;
          if (current !== record.version) throw SessionBusyError.changed(record.id, record.version, current);
          this.#statement("saveSession").run({
            id: record.id,
            messages,
            archived,
            created_at: record.createdAt,
            updated_at: record.updatedAt,
            version: current + 1,
            expires_at: ttlMs === undefined ? null : now + ttlMs,
            runs: record.runs ?? null,
          });
          for (let index = 0; index < writes.length; index++) {
            const write = writes[index]!;
            this.#statement("set").run({
              key: write.key,
              value: values[index]!,
              expiresAt: write.ttlMs === undefined ? null : now + write.ttlMs,
            });
          }
          if (held !== undefined) this.#freeLease(lease!.key, held, now);
          return current + 1;
        })
        .immediate(),
    );
  }

  async deleteSession(id: string): Promise<void> {
    this.#guard(() => this.#statement("deleteSession").run(id));
  }

  /** Closes the database; idempotent. The store must not be used afterwards. */
  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
