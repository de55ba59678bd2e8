/** The in-memory StateStore: the library's default. Single process; nothing survives exit. */
import type { SessionRecord, StateStore } from "./state-store.js";

interface Entry {
  value: unknown;
  expiresAt: number | undefined;
}

export class MemoryStore implements StateStore {
  readonly kind = "memory";
  readonly #values = new Map<string, Entry>();
  readonly #windows = new Map<string, number[]>();
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #now: () => number;

  /** `now`: the clock for TTLs (default `Date.now`); tests inject one. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? (() => Date.now());
  }

  #live(key: string): Entry | undefined {
    const entry = this.#values.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.#now()) {
      this.#values.delete(key);
      return undefined;
    }
    return entry;
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const value = this.#live(key)?.value;
    return (typeof value === "object" && value !== null ? structuredClone(value) : value) as T | undefined;
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    this.#values.set(key, {
      value: typeof value === "object" && value !== null ? structuredClone(value) : value,
      expiresAt: options.ttlMs === undefined ? undefined : this.#now() + options.ttlMs,
    });
  }

  async delete(key: string): Promise<void> {
    this.#values.delete(key);
    this.#windows.delete(key);
  }

  async increment(key: string, by = 1): Promise<number> {
    const entry = this.#live(key);
    const next = (typeof entry?.value === "number" ? entry.value : 0) + by;
    this.#values.set(key, { value: next, expiresAt: entry?.expiresAt });
    return next;
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const since = options.now - options.windowMs;
    const times = (this.#windows.get(key) ?? []).filter((time) => time > since);
    if (times.length >= options.max) {
      this.#windows.set(key, times);
      return false;
    }
    times.push(options.now);
    this.#windows.set(key, times);
    return true;
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    if (this.#live(key)) return false;
    await this.set(key, value, options);
    return true;
  }

  async keys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    for (const key of this.#values.keys()) {
      if (key.startsWith(prefix) && this.#live(key)) found.push(key);
    }
    return found;
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    // Messages are immutable once committed, so a shallow copy of the list is enough
    // (a deep clone per save would make long sessions quadratic).
    const record = this.#sessions.get(id);
    return record
      ? { ...record, messages: [...record.messages], archived: record.archived && [...record.archived] }
      : undefined;
  }

  async saveSession(record: SessionRecord): Promise<void> {
    this.#sessions.set(record.id, {
      ...record,
      messages: [...record.messages],
      archived: record.archived && [...record.archived],
    });
  }

  async deleteSession(id: string): Promise<void> {
    this.#sessions.delete(id);
  }

  async close(): Promise<void> {}
}
