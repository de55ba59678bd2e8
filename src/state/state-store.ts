/**
 * The StateStore (DESIGN §6): hook bookkeeping (cooldown, max_fires, rate limits, TTL
 * caches, approvals) and session transcripts. Every counting operation is atomic in the
 * store itself (never read-modify-write in the caller), so counts stay exact across
 * concurrent runs and, for shared stores, across processes.
 */
import type { ModelMessage } from "../events/payloads.js";

export interface SessionRecord {
  id: string;
  messages: ModelMessage[];
  /** Messages removed by compaction, kept so nothing is lost. */
  archived?: ModelMessage[];
  createdAt: number;
  updatedAt: number;
}

export interface StateStore {
  readonly kind: string;
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** `ttlMs`: the value expires after this long. */
  set(key: string, value: unknown, options?: { ttlMs?: number }): Promise<void>;
  delete(key: string): Promise<void>;
  /** Atomically adds `by` (default 1) and returns the new value. */
  increment(key: string, by?: number): Promise<number>;
  /**
   * Atomically: if fewer than `max` events happened in the last `windowMs` before `now`,
   * record one at `now` and return true; otherwise return false.
   */
  hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean>;
  /**
   * Atomically sets `key` to `value` only if it is absent (or expired). Returns whether it
   * was set: the primitive behind single-use approvals and exactly-once execution.
   */
  setIfAbsent(key: string, value: unknown, options?: { ttlMs?: number }): Promise<boolean>;
  /**
   * The live (unexpired) keys that start with `prefix`, in no particular order: how a
   * process finds records another one wrote (suspended runs, a server's sessions). A scan,
   * not an index: callers keep their prefixes narrow.
   */
  keys(prefix: string): Promise<string[]>;
  loadSession(id: string): Promise<SessionRecord | undefined>;
  saveSession(record: SessionRecord): Promise<void>;
  deleteSession(id: string): Promise<void>;
  close(): Promise<void>;
}
