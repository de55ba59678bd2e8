/**
 * The file StateStore: one machine, persistent, no native package. It is the CLI's store
 * when better-sqlite3 is not installed, so `npx hookwise run` works right after
 * `npm install hookwise`.
 *
 * A folder holds one file per value (`values/`), per rate window (`windows/`) and per
 * session (`sessions/`), so a write costs the same with ten records kept or a million: it
 * writes its key's file and no other (files are named as `key-file-name.ts` says). Every
 * file is written beside its target, then renamed over it, so a reader (which takes no
 * lock) sees the old or the new file, never half of one. Every write runs under `lock`, a
 * file created exclusively (`wx`) that any process opening the folder honours; between
 * taking and freeing it the store reads, decides and writes synchronously, so counting and
 * conditional operations are exact across processes. A lock whose holder process is gone
 * is taken over.
 *
 * An expired value is absent at once and its file is removed by a pass over the folder
 * that starts at most once per `sweepIntervalMs` and reads `sweepBatch` files per write
 * until it is through (`swept` records where it is): no write reads more files than that,
 * only the pass lists the folder's names (and `keys`, which lists values). A folder
 * written by an earlier version keeps everything in one `state.json` and names sessions in
 * base64: the first operation moves its entries into files and renames its sessions, under
 * the lock.
 *
 * Suited to the CLI, a harness's hook and a single server process; many concurrent writers
 * are what SQLite or Redis are for (every write here takes the folder's one lock).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { decodeStoredSession, decodeStoredValue, type StoredPlace } from "./decode-stored.js";
import { encodeJson } from "./json-codec.js";
import { keyFileMatch, keyFileName } from "./key-file-name.js";
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
  /**
   * The files of expired values are removed by a pass over the folder that starts at most
   * this often (default one hour); an expired value is absent to every operation either way.
   */
  sweepIntervalMs?: number;
  /**
   * How many files a write looks at when a pass is under way (default 2,000): a pass over a
   * large folder takes several writes, none of which pays for all of it.
   */
  sweepBatch?: number;
}

/** A value's file: its key, its JSON text (null: `undefined`), when it expires (null: never). */
type ValueFile = [key: string, text: string | null, expiresAt: number | null];

/**
 * A rate window's file: its key, the times of its events (on the caller's clock), and when,
 * on the store's clock, the last of them leaves the window (null: not known, for a window
 * moved from `state.json`).
 */
type WindowFile = [key: string, hits: number[], until: number | null];

/** `state.json`, as versions before one file per value kept everything. */
interface LegacyStateFile {
  version: 1;
  kv: Record<string, [text: string | null, expiresAt: number | null]>;
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

/** How long a process opening a folder waits for another one converting its state.json. */
const CONVERSION_WAIT_MS = 60_000;

/** A `lock.break` older than this was left by a process that crashed taking a lock away. */
const STALE_BREAK_MS = 10_000;

/** A temporary file older than this is left over from a crash; the sweep removes it. */
const STALE_TEMPORARY_MS = 3_600_000;

/** A file being written: this version's, or an earlier one's (`<target>.<pid>.<n>.tmp`). */
const temporary = (name: string) => name.startsWith(".tmp-") || name.endsWith(".tmp");

const isValueFile = (value: unknown): value is ValueFile =>
  Array.isArray(value) &&
  value.length === 3 &&
  typeof value[0] === "string" &&
  (value[1] === null || typeof value[1] === "string") &&
  (value[2] === null || typeof value[2] === "number");

const isWindowFile = (value: unknown): value is WindowFile =>
  Array.isArray(value) &&
  value.length === 3 &&
  typeof value[0] === "string" &&
  Array.isArray(value[1]) &&
  value[1].every((hit) => typeof hit === "number") &&
  (value[2] === null || typeof value[2] === "number");

export class FileStore implements StateStore {
  readonly kind = "file";
  readonly path: string;
  readonly location: string;
  readonly #now: () => number;
  readonly #lockTimeoutMs: number;
  readonly #sessionTtlMs: number | undefined;
  readonly #sweepIntervalMs: number;
  readonly #sweepBatch: number;
  readonly #place: StoredPlace;
  readonly #legacyFile: string;
  readonly #lockFile: string;
  readonly #sweptFile: string;
  readonly #valuesDir: string;
  readonly #windowsDir: string;
  readonly #sessionsDir: string;
  #temporary = 0;
  /** Settles once a `state.json` of an earlier version is moved into files. */
  #opened: Promise<void> | undefined;
  /** No sweep is due before this time (as far as this process knows). */
  #nextSweep: number | undefined;

  constructor(options: FileStoreOptions) {
    this.path = options.path;
    this.location = options.path;
    this.#now = options.now ?? (() => Date.now());
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 5_000;
    this.#sessionTtlMs = options.sessionTtlMs;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 3_600_000;
    this.#sweepBatch = Math.max(1, options.sweepBatch ?? 2_000);
    this.#legacyFile = join(options.path, "state.json");
    this.#lockFile = join(options.path, "lock");
    this.#sweptFile = join(options.path, "swept");
    this.#valuesDir = join(options.path, "values");
    this.#windowsDir = join(options.path, "windows");
    this.#sessionsDir = join(options.path, "sessions");
    this.#place = {
      kind: this.kind,
      location: this.path,
      path: this.path,
      removal: (entry, name) =>
        `${entry === "session" ? "continue with another session id, or delete its file" : "delete its file"}: rm ${entry === "session" ? this.#sessionFile(name) : this.#valueFile(name)}`,
    };
    this.#guard(() => {
      mkdirSync(this.#sessionsDir, { recursive: true });
      mkdirSync(this.#valuesDir, { recursive: true });
      mkdirSync(this.#windowsDir, { recursive: true });
    });
    // An earlier version's folder: a state.json, or sessions kept before any sweep was.
    const earlier =
      existsSync(this.#legacyFile) ||
      (!existsSync(this.#sweptFile) && this.#list(this.#sessionsDir).length > 0);
    if (!earlier) this.#opened = Promise.resolve();
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
    return join(this.#sessionsDir, `${keyFileName(id)}.json`);
  }

  #valueFile(key: string): string {
    return join(this.#valuesDir, keyFileName(key));
  }

  #windowFile(key: string): string {
    return join(this.#windowsDir, keyFileName(key));
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

  /** Writes `text` to `file` atomically: a file beside it, renamed over it. */
  #write(file: string, text: string): void {
    // Named apart from the target, so a long key's name stays within 255 bytes.
    const temporary = join(dirname(file), `.tmp-${process.pid}-${this.#temporary++}`);
    this.#guard(() => {
      writeFileSync(temporary, text);
      renameSync(temporary, file);
    });
  }

  #remove(file: string): void {
    this.#guard(() => rmSync(file, { force: true }));
  }

  /** Runs `operation` holding the folder's lock; it must not await. */
  async #locked<T>(operation: () => T, timeoutMs = this.#lockTimeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let wait = 1;
    while (!this.#tryLock()) {
      if (Date.now() > deadline) {
        throw new StateStoreError({
          kind: this.kind,
          path: this.path,
          message: `The state folder ${this.path} stayed locked by another process for ${timeoutMs} ms (${this.#lockFile}); retry, or remove the lock file if no hookwise process is running`,
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

  /**
   * Removes the lock when the process that holds it is gone (it crashed holding it). Another
   * process may have taken it over since it was read: one process at a time takes a lock
   * away (holding `lock.break`), and only when the lock still names the gone holder.
   */
  #breakIfStale(): void {
    const holder = Number(this.#read(this.#lockFile));
    // An empty file: its holder is between creating and writing it.
    if (!Number.isSafeInteger(holder) || holder <= 0 || holder === process.pid) return;
    try {
      process.kill(holder, 0);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ESRCH") return;
    }
    const guard = `${this.#lockFile}.break`;
    try {
      closeSync(openSync(guard, "wx"));
    } catch {
      // Another process is taking it away; one that crashed doing so left this file behind.
      try {
        if (statSync(guard).mtimeMs < Date.now() - STALE_BREAK_MS) rmSync(guard, { force: true });
      } catch {
        // removed meanwhile
      }
      return;
    }
    try {
      if (Number(this.#read(this.#lockFile)) === holder) rmSync(this.#lockFile, { force: true });
    } finally {
      rmSync(guard, { force: true });
    }
  }

  /** Resolves once the folder is in this version's layout (see `#migrate`). */
  #open(): Promise<void> {
    // Another process may be converting a large state.json (seconds for 30,000 records).
    const wait = Math.max(this.#lockTimeoutMs, CONVERSION_WAIT_MS);
    this.#opened ??= this.#locked(() => this.#migrate(), wait).catch((error: unknown) => {
      this.#opened = undefined;
      throw error;
    });
    return this.#opened;
  }

  /**
   * Brings a folder of an earlier version into this layout: moves the entries of its
   * `state.json` into one file each, then removes it, and renames its session files
   * (named in base64, which a case-insensitive file system may confuse) as this version
   * names them. Under the lock, and every operation waits for it, so nothing is written
   * meanwhile; every step can be done again, so a crash half way leaves a folder that the
   * next process brings over.
   */
  #migrate(): void {
    const now = this.#now();
    const text = this.#read(this.#legacyFile);
    if (text !== undefined) this.#moveLegacyState(text, now);
    this.#renameSessions();
    if (!existsSync(this.#sweptFile)) this.#write(this.#sweptFile, JSON.stringify([now, null]));
    if (text !== undefined) this.#remove(this.#legacyFile);
  }

  #moveLegacyState(text: string, now: number): void {
    let state: LegacyStateFile | undefined;
    try {
      const parsed = JSON.parse(text) as LegacyStateFile;
      if (parsed?.version === 1 && typeof parsed.kv === "object" && typeof parsed.hits === "object")
        state = parsed;
    } catch {
      // reported below, with the same words as a parsed file of the wrong shape
    }
    if (state === undefined)
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `The state file ${this.#legacyFile} is not a hookwise state file: move ${this.#legacyFile} aside to start from empty values (sessions are kept)`,
      });
    // Written in place, not renamed over: no reader reads them before the conversion ends,
    // and one a crash cut short is written again from state.json. Half the system calls.
    const put = (file: string, content: ValueFile | WindowFile) =>
      this.#guard(() => writeFileSync(file, JSON.stringify(content)));
    for (const [key, [value, expiresAt]] of Object.entries(state.kv)) {
      if (expiresAt === null || expiresAt > now) put(this.#valueFile(key), [key, value, expiresAt]);
    }
    for (const [key, hits] of Object.entries(state.hits)) {
      if (hits.length) put(this.#windowFile(key), [key, hits, null]);
    }
  }

  /** Renames each session file as its id (kept inside it) names it now. */
  #renameSessions(): void {
    for (const name of this.#list(this.#sessionsDir)) {
      if (!name.endsWith(".json")) continue;
      const file = join(this.#sessionsDir, name);
      let id: unknown;
      try {
        id = (JSON.parse(this.#read(file) ?? "null") as { id?: unknown } | null)?.id;
      } catch {
        // Not one this store wrote: left as it is.
      }
      if (typeof id !== "string") continue;
      const target = this.#sessionFile(id);
      if (target !== file && !existsSync(target)) this.#guard(() => renameSync(file, target));
    }
  }

  /** A file's parsed content when it has `shape`, or undefined when it does not exist. */
  #readFile<T>(file: string, key: string | undefined, shape: (value: unknown) => value is T): T | undefined {
    const text = this.#read(file);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // reported below
    }
    if (!shape(parsed))
      throw new StateStoreError({
        kind: this.kind,
        path: this.path,
        message: `The state file ${file}${key === undefined ? "" : ` (key "${key}")`} in ${this.path} is malformed (not a hookwise state file): delete it: rm ${file}`,
      });
    return parsed;
  }

  /** The key's value file when it holds the key and has not expired. */
  #liveValue(key: string, now: number): ValueFile | undefined {
    const value = this.#readFile(this.#valueFile(key), key, isValueFile);
    // Another key's file only when two long keys' digests collide.
    if (value === undefined || value[0] !== key) return undefined;
    return value[2] === null || value[2] > now ? value : undefined;
  }

  #setValue(key: string, text: string | null, expiresAt: number | null): void {
    this.#write(this.#valueFile(key), JSON.stringify([key, text, expiresAt] satisfies ValueFile));
  }

  /**
   * Runs a write under the lock; first, when a sweep is due, sweeps a batch of files (first,
   * so a failed sweep fails a write that did not happen, which the caller may safely retry).
   */
  async #change<T>(operation: (now: number) => T): Promise<T> {
    await this.#open();
    await this.#sweepIfDue();
    return this.#locked(() => operation(this.#now()));
  }

  /**
   * Sweeps the next batch of files when a sweep is due: a sweep interval after the last
   * pass began, or at once while a pass is under way, so a large folder is swept a batch
   * per write rather than all at one write's expense.
   */
  async #sweepIfDue(): Promise<void> {
    const now = this.#now();
    if (this.#nextSweep !== undefined && now < this.#nextSweep) return;
    if (!this.#sweepDue(now, this.#sweepRecord())) return;
    // Claimed under the lock, so processes that find it due together take distinct batches.
    const batch = await this.#locked(() => {
      const record = this.#sweepRecord();
      if (!this.#sweepDue(now, record)) return undefined;
      const continuing = record?.after != null && record.at <= now;
      const after = continuing ? record.after : null;
      const entries = this.#sweepEntries()
        .filter((entry) => after === null || entry > after)
        .slice(0, this.#sweepBatch);
      const done = entries.length < this.#sweepBatch;
      const at = continuing ? record.at : now;
      this.#write(this.#sweptFile, JSON.stringify([at, done ? null : entries.at(-1)!]));
      this.#nextSweep = done ? at + this.#sweepIntervalMs : undefined;
      return entries;
    });
    if (batch) await this.#sweep(batch, now);
  }

  /** `swept`: when the current (or last) pass began, and the last file it has looked at (null: done). */
  #sweepRecord(): { at: number; after: string | null } | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.#read(this.#sweptFile) ?? "null");
    } catch {
      return undefined; // swept again from the start
    }
    if (!Array.isArray(parsed) || !Number.isFinite(parsed[0])) return undefined;
    if (parsed[1] !== null && typeof parsed[1] !== "string") return undefined;
    return { at: parsed[0] as number, after: parsed[1] as string | null };
  }

  #sweepDue(now: number, record: { at: number; after: string | null } | undefined): boolean {
    // A pass that began ahead of the clock (set back since) counts as none.
    if (record === undefined || record.after !== null || record.at > now) return true;
    if (now >= record.at + this.#sweepIntervalMs) return true;
    this.#nextSweep = record.at + this.#sweepIntervalMs;
    return false;
  }

  /** What a pass looks at, in a stable order: values, windows, and temporary files. */
  #sweepEntries(): string[] {
    const entries = this.#list(this.path).filter(temporary);
    for (const folder of ["sessions", "values", "windows"]) {
      for (const name of this.#list(join(this.path, folder)))
        if (folder !== "sessions" || temporary(name)) entries.push(`${folder}/${name}`);
    }
    return entries.sort();
  }

  /**
   * Removes, of `entries`, the files of values and windows expired at `now` and temporary
   * files a crash left. They are read without the lock; only the expired ones are read
   * again under it before they go, since a write may have renewed one meanwhile.
   */
  async #sweep(entries: readonly string[], now: number): Promise<void> {
    const expired: string[] = [];
    for (const entry of entries) {
      const file = join(this.path, entry);
      if (temporary(basename(entry))) this.#removeIfStale(file);
      else if (!entry.startsWith("sessions/") && this.#expiredAt(file, now)) expired.push(file);
    }
    if (expired.length === 0) return;
    await this.#locked(() => {
      for (const file of expired) if (this.#expiredAt(file, now)) this.#remove(file);
    });
  }

  #list(folder: string): string[] {
    try {
      return readdirSync(folder);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") return [];
      throw error;
    }
  }

  /**
   * Whether `file` (a value's or a window's: both keep their expiry third) expired at
   * `now`. One that does not parse is left for its key's reader to report.
   */
  #expiredAt(file: string, now: number): boolean {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.#read(file) ?? "null");
    } catch {
      return false;
    }
    if (!isValueFile(parsed) && !isWindowFile(parsed)) return false;
    return parsed[2] !== null && parsed[2] <= now;
  }

  #removeIfStale(file: string): void {
    try {
      if (statSync(file).mtimeMs < Date.now() - STALE_TEMPORARY_MS) rmSync(file, { force: true });
    } catch {
      // Renamed into place or removed meanwhile: nothing to clean.
    }
  }

  #decode(key: string, value: ValueFile | undefined): unknown {
    return value?.[1] == null ? undefined : decodeStoredValue(this.#place, key, value[1]);
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    await this.#open();
    return this.#decode(key, this.#liveValue(key, this.#now())) as T | undefined;
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    const text = encodeJson(value) ?? null;
    await this.#change((now) =>
      this.#setValue(key, text, options.ttlMs === undefined ? null : now + options.ttlMs),
    );
  }

  async delete(key: string): Promise<void> {
    await this.#change(() => {
      this.#remove(this.#valueFile(key));
      this.#remove(this.#windowFile(key));
    });
  }

  async increment(key: string, by = 1): Promise<number> {
    return this.#change((now) => {
      const live = this.#liveValue(key, now);
      let current: unknown;
      try {
        current = live?.[1] == null ? undefined : JSON.parse(live[1]);
      } catch {
        current = undefined;
      }
      const next = typeof current === "number" ? current + by : by;
      this.#setValue(key, JSON.stringify(next), live ? live[2] : null);
      return next;
    });
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    return this.#change((now) => {
      const file = this.#windowFile(key);
      const stored = this.#readFile(file, key, isWindowFile);
      const kept = stored?.[0] === key ? stored : undefined;
      const hits = kept ? kept[1].filter((at) => at > since) : [];
      const allowed = hits.length < options.max;
      if (allowed) hits.push(options.now);
      if (hits.length === 0) this.#remove(file);
      else if (allowed || hits.length !== kept?.[1].length) {
        // Event times are the caller's; the sweep goes by the store's clock, on which the
        // window of the event recorded last ends windowMs from now.
        const until = allowed ? now + options.windowMs : (kept?.[2] ?? null);
        this.#write(file, JSON.stringify([key, hits, until] satisfies WindowFile));
      }
      return allowed;
    });
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    const text = encodeJson(value) ?? null;
    return this.#change((now) => {
      if (this.#liveValue(key, now)) return false;
      this.#setValue(key, text, options.ttlMs === undefined ? null : now + options.ttlMs);
      return true;
    });
  }

  async lease(key: string, holder: string, ttlMs: number, options: LeaseOptions = {}): Promise<boolean> {
    const mine = encodeJson(holder)!;
    const replacing = options.replacing === undefined ? undefined : encodeJson(options.replacing);
    return this.#change((now) => {
      const current = this.#liveValue(key, now)?.[1];
      if (current != null && current !== mine && current !== replacing) return false;
      this.#setValue(key, mine, now + ttlMs);
      return true;
    });
  }

  async releaseLease(key: string, holder: string): Promise<boolean> {
    const mine = encodeJson(holder)!;
    return this.#change((now) => {
      if (this.#liveValue(key, now)?.[1] !== mine) return false;
      this.#remove(this.#valueFile(key));
      return true;
    });
  }

  async keys(prefix: string): Promise<string[]> {
    await this.#open();
    const now = this.#now();
    const keys: string[] = [];
    for (const name of this.#list(this.#valuesDir)) {
      if (keyFileMatch(name, prefix) === "no") continue;
      const value = this.#readFile(join(this.#valuesDir, name), undefined, isValueFile);
      if (value === undefined || !value[0].startsWith(prefix)) continue;
      if (value[2] === null || value[2] > now) keys.push(value[0]);
    }
    return keys;
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
    await this.#open();
    const row = this.#readSession(id);
    if (!row) return undefined;
    return decodeStoredSession(this.#place, { ...row, id });
  }

  async saveSession(record: SessionRecord, options: SaveSessionOptions = {}): Promise<number> {
    const messages = encodeJson(record.messages)!;
    const archived = record.archived === undefined ? null : encodeJson(record.archived)!;
    const ttlMs = options.ttlMs ?? this.#sessionTtlMs;
    return this.#change((now) => {
      const current = this.#readSession(record.id)?.version ?? 0;
      if (current !== record.version) throw SessionBusyError.changed(record.id, record.version, current);
      const row: SessionFile = {
        id: record.id,
        messages,
        archived,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        version: current + 1,
        expiresAt: ttlMs === undefined ? null : now + ttlMs,
        runs: record.runs ?? null,
      };
      this.#write(this.#sessionFile(record.id), JSON.stringify(row));
      return current + 1;
    });
  }

  async deleteSession(id: string): Promise<void> {
    await this.#change(() => this.#remove(this.#sessionFile(id)));
  }

  /** Nothing stays open between operations; kept for the StateStore contract. */
  async close(): Promise<void> {}
}
