/**
 * The file StateStore: one machine, persistent, no native package. It is the CLI's store
 * when better-sqlite3 is not installed, so `npx hookwise run` works right after
 * `npm install hookwise`.
 *
 * A folder holds `state.json` (values, counters, rate windows) and one `sessions/<id>.json`
 * per session. Every write is whole-file: written beside its target, then renamed over it,
 * so a reader (which takes no lock) sees the old or the new file, never half of one. Every
 * counting or conditional operation runs under `lock`, a file created exclusively (`wx`)
 * that any process opening the folder honours; between taking and freeing it the store
 * reads, decides and writes synchronously, so nothing else in the process interleaves. A
 * lock whose holder process is gone is taken over.
 *
 * Suited to the CLI and a single server process; many concurrent writers are what SQLite
 * or Redis are for (each write here rewrites `state.json`).
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { decodeStoredSession, decodeStoredValue, type StoredPlace } from "./decode-stored.js";
import { encodeJson } from "./json-codec.js";
import type { LeaseOptions, SaveSessionOptions, SessionRecord, StateStore } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

export interface FileStoreOptions {
  /** The folder; created with its parents. */
  path: string;
  /** The clock for TTLs (default `Date.now`); tests inject one. */
  now?: () => number;
  /** How long to wait for another process's lock before failing (default 5,000 ms). */
  lockTimeoutMs?: number;
  /** A session not committed for this long is dropped (default: kept until deleted). */
  sessionTtlMs?: number;
}

/** A value as kept: its JSON text (null: `undefined`) and when it expires (null: never). */
type Entry = [text: string | null, expiresAt: number | null];

interface StateFile {
  version: 1;
  kv: Record<string, Entry>;
  hits: Record<string, number[]>;
}

interface SessionFile {
  id: string;
  messages: string;
  archived: string | null;
  createdAt: number;
  updatedAt: number;
  version: number;
  expiresAt: number | null;
  runs: number | null;
}

const empty = (): StateFile => ({ version: 1, kv: {}, hits: {} });

export class FileStore implements StateStore {
  readonly kind = "file";
  readonly path: string;
  readonly location: string;
  readonly #now: () => number;
  readonly #lockTimeoutMs: number;
  readonly #sessionTtlMs: number | undefined;
  readonly #place: StoredPlace;
  readonly #stateFile: string;
  readonly #lockFile: string;
  readonly #sessionsDir: string;
  #temporary = 0;

  constructor(options: FileStoreOptions) {
    this.path = options.path;
    this.location = options.path;
    this.#now = options.now ?? (() => Date.now());
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
    this.#sessionTtlMs = options.sessionTtlMs;
    this.#stateFile = join(options.path, "state.json");
    this.#lockFile = join(options.path, "lock");
    this.#sessionsDir = join(options.path, "sessions");
    this.#place = {
      kind: this.kind,
      location: this.path,
      path: this.path,
      removal: (entry, name) =>
        entry === "session"
          ? `continue with another session id, or delete its file: rm ${this.#sessionFile(name)}`
          : `move ${this.#stateFile} aside to start from empty values (sessions are kept)`,
    };
    this.#guard(() => mkdirSync(this.#sessionsDir, { recursive: true }));
  }

  /** Turns a file system failure into a StateStoreError naming the folder and what to do. */
  #guard<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS" && code !== "ENOTDIR") throw error;
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `Cannot write the state folder ${this.path} (${(error as Error).message}): check that it is a writable folder, or point runtime.state at another path`,
        cause: error,
      });
    }
  }

  #sessionFile(id: string): string {
    return join(this.#sessionsDir, `${Buffer.from(id).toString("base64url")}.json`);
  }

  /** Reads a file, or undefined when it does not exist. */
  #read(file: string): string | undefined {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return undefined;
      throw error;
    }
  }

  #readState(): StateFile {
    const text = this.#read(this.#stateFile);
    if (text === undefined) return empty();
    try {
      const parsed = JSON.parse(text) as StateFile;
      if (parsed?.version === 1 && typeof parsed.kv === "object" && typeof parsed.hits === "object")
        return parsed;
    } catch {
      // reported below, with the same words as a parsed file of the wrong shape
    }
    throw new StateStoreError({
      kind: this.kind,
      path: this.path,
      message: `The state file ${this.#stateFile} is not a hookwise state file: ${this.#place.removal("key", "")}`,
    });
  }

  /** Writes `text` to `file` atomically: a file beside it, renamed over it. */
  #write(file: string, text: string): void {
    const temporary = `${file}.${process.pid}.${this.#temporary++}.tmp`;
    this.#guard(() => {
      writeFileSync(temporary, text);
      renameSync(temporary, file);
    });
  }

  /** Runs `operation` holding the folder's lock; it must not await. */
  async #locked<T>(operation: () => T): Promise<T> {
    const deadline = Date.now() + this.#lockTimeoutMs;
    let wait = 1;
    while (!this.#tryLock()) {
      if (Date.now() > deadline) {
        throw new StateStoreError({
          kind: this.kind,
          path: this.path,
          message: `The state folder ${this.path} stayed locked by another process for ${this.#lockTimeoutMs} ms (${this.#lockFile}); retry, or remove the lock file if no hookwise process is running`,
        });
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 4);
    }
    try {
      return operation();
    } finally {
      try {
        unlinkSync(this.#lockFile);
      } catch {
        // Taken over as stale meanwhile: nothing of ours to free.
      }
    }
  }

  #tryLock(): boolean {
    let fd: number;
    try {
      fd = this.#guard(() => openSync(this.#lockFile, "wx"));
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
      this.#breakIfStale();
      return false;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  }

  /** Removes the lock when the process that holds it is gone (it crashed holding it). */
  #breakIfStale(): void {
    const holder = Number(this.#read(this.#lockFile));
    // An empty file: its holder is between creating and writing it.
    if (!Number.isSafeInteger(holder) || holder <= 0 || holder === process.pid) return;
    try {
      process.kill(holder, 0);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ESRCH") rmSync(this.#lockFile, { force: true });
    }
  }

  #live(entry: Entry | undefined, now: number): entry is Entry {
    return entry !== undefined && (entry[1] === null || entry[1] > now);
  }

  /** Reads the state, lets `change` edit it, writes it back (expired values dropped). */
  #update<T>(change: (state: StateFile, now: number) => T): T {
    const state = this.#readState();
    const now = this.#now();
    const result = change(state, now);
    for (const [key, entry] of Object.entries(state.kv)) if (!this.#live(entry, now)) delete state.kv[key];
    this.#write(this.#stateFile, JSON.stringify(state));
    return result;
  }

  #decode(key: string, entry: Entry | undefined): unknown {
    return entry?.[0] == null ? undefined : decodeStoredValue(this.#place, key, entry[0]);
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const entry = this.#readState().kv[key];
    return (this.#live(entry, this.#now()) ? this.#decode(key, entry) : undefined) as T | undefined;
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    await this.#locked(() =>
      this.#update((state, now) => {
        state.kv[key] = [encodeJson(value) ?? null, options.ttlMs === undefined ? null : now + options.ttlMs];
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.#locked(() =>
      this.#update((state) => {
        delete state.kv[key];
        delete state.hits[key];
      }),
    );
  }

  async increment(key: string, by = 1): Promise<number> {
    return this.#locked(() =>
      this.#update((state, now) => {
        const entry = state.kv[key];
        let current: unknown;
        if (this.#live(entry, now)) {
          try {
            current = entry[0] === null ? undefined : JSON.parse(entry[0]);
          } catch {
            current = undefined;
          }
        }
        const live = this.#live(entry, now);
        const next = live && typeof current === "number" ? current + by : by;
        state.kv[key] = [JSON.stringify(next), live ? entry[1] : null];
        return next;
      }),
    );
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    return this.#locked(() =>
      this.#update((state) => {
        const hits = (state.hits[key] ?? []).filter((ts) => ts > since);
        const allowed = hits.length < options.max;
        if (allowed) hits.push(options.now);
        if (hits.length) state.hits[key] = hits;
        else delete state.hits[key];
        return allowed;
      }),
    );
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    return this.#locked(() =>
      this.#update((state, now) => {
        if (this.#live(state.kv[key], now)) return false;
        state.kv[key] = [encodeJson(value) ?? null, options.ttlMs === undefined ? null : now + options.ttlMs];
        return true;
      }),
    );
  }

  async lease(key: string, holder: string, ttlMs: number, options: LeaseOptions = {}): Promise<boolean> {
    const mine = encodeJson(holder)!;
    const replacing = options.replacing === undefined ? undefined : encodeJson(options.replacing);
    return this.#locked(() =>
      this.#update((state, now) => {
        const entry = state.kv[key];
        const current = this.#live(entry, now) ? entry[0] : null;
        if (current != null && current !== mine && current !== replacing) return false;
        state.kv[key] = [mine, now + ttlMs];
        return true;
      }),
    );
  }

  async releaseLease(key: string, holder: string): Promise<boolean> {
    const mine = encodeJson(holder)!;
    return this.#locked(() =>
      this.#update((state, now) => {
        const entry = state.kv[key];
        if (!this.#live(entry, now) || entry[0] !== mine) return false;
        delete state.kv[key];
        return true;
      }),
    );
  }

  async keys(prefix: string): Promise<string[]> {
    const now = this.#now();
    return Object.entries(this.#readState().kv)
      .filter(([key, entry]) => key.startsWith(prefix) && this.#live(entry, now))
      .map(([key]) => key);
  }

  #readSession(id: string): SessionFile | undefined {
    const text = this.#read(this.#sessionFile(id));
    if (text === undefined) return undefined;
    let row: SessionFile;
    try {
      row = JSON.parse(text) as SessionFile;
    } catch (error) {
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `The stored session "${id}" in ${this.path} is malformed (not JSON: ${(error as Error).message}); ${this.#place.removal("session", id)}`,
      });
    }
    return row.expiresAt !== null && row.expiresAt <= this.#now() ? undefined : row;
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    const row = this.#readSession(id);
    if (!row) return undefined;
    return decodeStoredSession(this.#place, { ...row, id });
  }

  async saveSession(record: SessionRecord, options: SaveSessionOptions = {}): Promise<number> {
    const messages = encodeJson(record.messages)!;
    const archived = record.archived === undefined ? null : encodeJson(record.archived)!;
    const ttlMs = options.ttlMs ?? this.#sessionTtlMs;
    return this.#locked(() => {
      const current = this.#readSession(record.id)?.version ?? 0;
      if (current !== record.version) throw SessionBusyError.changed(record.id, record.version, current);
      const row: SessionFile = {
        id: record.id,
        messages,
        archived,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        version: current + 1,
        expiresAt: ttlMs === undefined ? null : this.#now() + ttlMs,
        runs: record.runs ?? null,
      };
      this.#write(this.#sessionFile(record.id), JSON.stringify(row));
      return current + 1;
    });
  }

  async deleteSession(id: string): Promise<void> {
    await this.#locked(() => rmSync(this.#sessionFile(id), { force: true }));
  }

  /** Nothing stays open between operations; kept for the StateStore contract. */
  async close(): Promise<void> {}
}
