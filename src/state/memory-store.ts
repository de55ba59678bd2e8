/**
 * The in-memory StateStore: the library's default. Single process; nothing survives exit.
 *
 * It stays bounded in a long-lived process: sessions are kept least-recently-used first up
 * to `maxSessions` (and expire after their TTL), and expired keys and stale rate windows
 * are swept as writes go on (a sweep visits every entry, at most once per as many writes
 * as there are entries, so it costs O(1) per write on average).
 */
import { SessionBusyError } from "../errors/session-busy-error.js";
import { SessionNotKeptError } from "../errors/session-not-kept-error.js";
import { decodeJson, encodeJson } from "./json-codec.js";
import type { LeaseOptions, SaveSessionOptions, SessionRecord, StateStore } from "./state-store.js";

interface Entry {
  /** A primitive as given; undefined when the value is kept as `json`. */
  value: unknown;
  /** An object's JSON text: encoded once when stored, decoded into a fresh copy at each read. */
  json?: string | undefined;
  expiresAt: number | undefined;
}

interface Window {
  times: number[];
  windowMs: number;
}

interface StoredSession {
  record: SessionRecord;
  expiresAt: number | undefined;
}

export interface MemoryStoreOptions {
  /** The clock for TTLs (default `Date.now`); tests inject one. */
  now?: () => number;
  /**
   * Sessions kept at most; beyond it the least recently used one is dropped (default
   * 10 000). A run on a dropped session starts it again from an empty transcript.
   */
  maxSessions?: number;
  /** A session not committed for this long is dropped (default: kept, within `maxSessions`). */
  sessionTtlMs?: number;
  /**
   * Keep the sessions of runs given no `sessionId` too (default false: such a run's
   * transcript is in its result, and a process serving many one-off runs does not hold
   * their transcripts). Continuing one that was not kept throws `SessionNotKeptError`. A run that
   * suspends for an approval keeps its session either way, so it can be resumed.
   */
  keepOneShot?: boolean;
  /**
   * Hand a run the stored transcript itself, and keep the one it saves as it is, rather than
   * a copy each way (default false). Only for a single caller that runs one session's runs
   * one after the other and never touches a transcript it loaded or saved afterwards (a
   * replay does): a session of many runs then costs no copy of its whole history per run.
   */
  lendTranscripts?: boolean;
}

/**
 * Values go in and out as a persistent store would give them back (the same JSON codec):
 * a copy, bytes and URLs revived, a Date as its ISO text — so code tested on the default
 * store behaves the same on SQLite or Redis. An object is kept as its JSON text (encoded
 * once, as a persistent store writes it) and each read decodes a copy of its own.
 */
function entryOf(value: unknown, expiresAt: number | undefined): Entry {
  return typeof value === "object" && value !== null
    ? { value: undefined, json: encodeJson(value), expiresAt }
    : { value, expiresAt };
}

function readEntry(entry: Entry | undefined): unknown {
  if (entry === undefined) return undefined;
  return entry.json === undefined ? entry.value : decodeJson(entry.json);
}

export class MemoryStore implements StateStore {
  readonly kind = "memory";
  readonly location = "memory";
  readonly sharing = "process";
  readonly keepsOneShot: boolean;
  readonly #lends: boolean;
  readonly #values = new Map<string, Entry>();
  readonly #windows = new Map<string, Window>();
  readonly #sessions = new Map<string, StoredSession>();
  readonly #channels = new Map<string, Set<(message: string) => void>>();
  readonly #now: () => number;
  readonly #maxSessions: number;
  readonly #sessionTtlMs: number | undefined;
  /** The ids of one-shot sessions not kept (the latest `maxSessions`), to refuse continuing them. */
  readonly #notKept = new Set<string>();
  #writesSinceSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now());
    this.#maxSessions = options.maxSessions ?? 10_000;
    this.#sessionTtlMs = options.sessionTtlMs;
    this.keepsOneShot = options.keepOneShot ?? false;
    this.#lends = options.lendTranscripts ?? false;
    if (!Number.isInteger(this.#maxSessions) || this.#maxSessions < 1)
      throw new TypeError(`MemoryStore: maxSessions must be an integer ≥ 1 (got ${options.maxSessions})`);
  }

  /** How many entries it holds (expired ones not swept yet included). */
  get size(): { values: number; windows: number; sessions: number } {
    return { values: this.#values.size, windows: this.#windows.size, sessions: this.#sessions.size };
  }

  #live(key: string): Entry | undefined {
    const entry = this.#values.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.#now()) {
      this.#values.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key: string, entry: Entry): void {
    this.#values.set(key, entry);
    this.#wrote();
  }

  #wrote(): void {
    const entries = this.#values.size + this.#windows.size + this.#sessions.size;
    if (++this.#writesSinceSweep >= Math.max(1_000, entries)) this.#sweep();
  }

  #sweep(): void {
    this.#writesSinceSweep = 0;
    const now = this.#now();
    for (const [key, entry] of this.#values)
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#values.delete(key);
    for (const [key, window] of this.#windows)
      if ((window.times.at(-1) ?? 0) <= now - window.windowMs) this.#windows.delete(key);
    for (const [id, session] of this.#sessions)
      if (session.expiresAt !== undefined && session.expiresAt <= now) this.#sessions.delete(id);
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    return readEntry(this.#live(key)) as T | undefined;
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    this.#write(key, entryOf(value, options.ttlMs === undefined ? undefined : this.#now() + options.ttlMs));
  }

  async delete(key: string): Promise<void> {
    this.#values.delete(key);
    this.#windows.delete(key);
  }

  async increment(key: string, by = 1): Promise<number> {
    const entry = this.#live(key);
    const next = (typeof entry?.value === "number" ? entry.value : 0) + by;
    this.#write(key, { value: next, expiresAt: entry?.expiresAt });
    return next;
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    const times = (this.#windows.get(key)?.times ?? []).filter((time) => time > since);
    this.#windows.set(key, { times, windowMs: options.windowMs });
    this.#wrote();
    if (times.length >= options.max) return false;
    times.push(options.now);
    return true;
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    if (this.#live(key)) return false;
    await this.set(key, value, options);
    return true;
  }

  async lease(key: string, holder: string, ttlMs: number, options: LeaseOptions = {}): Promise<boolean> {
    // A holder is a string, kept as given (an object a key holds is no holder: never equal).
    const entry = this.#live(key);
    const current = entry === undefined ? undefined : entry.json === undefined ? entry.value : entry;
    if (current !== undefined && current !== holder && current !== options.replacing) return false;
    this.#write(key, { value: holder, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async keys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    for (const key of this.#values.keys()) {
      if (key.startsWith(prefix) && this.#live(key)) found.push(key);
    }
    return found;
  }

  async releaseLease(key: string, holder: string): Promise<boolean> {
    const entry = this.#live(key);
    if (entry === undefined || entry.json !== undefined || entry.value !== holder) return false;
    this.#values.delete(key);
    return true;
  }

  #liveSession(id: string): StoredSession | undefined {
    const stored = this.#sessions.get(id);
    if (stored?.expiresAt !== undefined && stored.expiresAt <= this.#now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return stored;
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    const stored = this.#liveSession(id);
    if (!stored) {
      if (this.#notKept.has(id)) throw new SessionNotKeptError(id);
      return undefined;
    }
    // Least recently used goes first: a read counts as a use.
    this.#sessions.delete(id);
    this.#sessions.set(id, stored);
    // Messages are immutable once committed, so a shallow copy of the list is enough
    // (a deep clone per save would make long sessions quadratic).
    const { record } = stored;
    const messages = this.#lends ? record.messages : [...record.messages];
    return { ...record, messages, archived: record.archived && [...record.archived] };
  }

  async saveSession(record: SessionRecord, options: SaveSessionOptions = {}): Promise<number> {
    const stored = this.#liveSession(record.id);
    const current = stored?.record.version ?? 0;
    if (current !== record.version) throw SessionBusyError.changed(record.id, record.version, current);
    const version = current + 1;
    this.#sessions.delete(record.id);
    if (options.oneShot && !this.keepsOneShot) {
      // Not kept: nothing of the run stays (its result has the transcript), only its id.
      this.#notKept.add(record.id);
      if (this.#notKept.size > this.#maxSessions) this.#notKept.delete(this.#notKept.values().next().value!);
      return version;
    }
    const ttlMs = options.ttlMs ?? this.#sessionTtlMs;
    this.#sessions.set(record.id, {
      record: {
        ...record,
        messages: this.#lends ? record.messages : [...record.messages],
        archived: record.archived && [...record.archived],
        version,
      },
      expiresAt: ttlMs === undefined ? undefined : this.#now() + ttlMs,
    });
    // The map keeps use order: its first key is the least recently used session.
    if (this.#sessions.size > this.#maxSessions) this.#sessions.delete(this.#sessions.keys().next().value!);
    this.#wrote();
    return version;
  }

  async deleteSession(id: string): Promise<void> {
    this.#sessions.delete(id);
  }

  async broadcast(channel: string, message: string): Promise<void> {
    // Delivered on a later tick, as a message from a server would be.
    const listeners = [...(this.#channels.get(channel) ?? [])];
    if (listeners.length === 0) return;
    queueMicrotask(() => {
      for (const listener of listeners) {
        try {
          listener(message);
        } catch (error) {
          console.error(`[hookwise] a listener of ${channel} failed: ${(error as Error).message}`);
        }
      }
    });
  }

  async listen(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let set = this.#channels.get(channel);
    if (!set) {
      set = new Set();
      this.#channels.set(channel, set);
    }
    const own = (message: string) => listener(message);
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size === 0) this.#channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.#channels.clear();
  }
}
