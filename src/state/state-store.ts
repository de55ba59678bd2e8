/**
 * The StateStore: hook bookkeeping (cooldown, max_fires, rate limits, TTL caches,
 * approvals), leases, and session transcripts. Every store — in memory, SQLite, Redis, or
 * one of your own — honours the same contract, checked by one test suite
 * (`store-contract.ts`):
 *
 * - **Atomic in the store.** Every counting or conditional operation (`increment`, `hit`,
 *   `setIfAbsent`, `lease`, `saveSession`) is decided inside the store in one step, never
 *   read-modify-write in the caller, so counts stay exact across concurrent runs and, for
 *   shared stores, across processes and machines.
 * - **Expired means absent.** A key past its `ttlMs` is absent to every operation.
 * - **Copies.** A value read is the caller's; changing it never changes the stored one.
 * - **Versioned sessions.** A session is read with its version and written only on top of
 *   that version (compare-and-swap): `saveSession` of a record whose `version` is not the
 *   stored one writes nothing and throws `SessionBusyError` (reason `changed`). Two runs
 *   that read the same version can never both commit, so no turn is ever lost silently.
 */
import type { ModelMessage } from "../events/payloads.js";

export interface SessionRecord {
  id: string;
  messages: ModelMessage[];
  /** Messages removed by compaction, kept so nothing is lost. */
  archived?: ModelMessage[];
  createdAt: number;
  updatedAt: number;
  /**
   * How many runs the session has had: its next run's index (`turn`). Committed with the
   * transcript, so it is exact whenever commits are. Absent on sessions stored before it
   * was kept.
   */
  runs?: number;
  /**
   * The version this record was read at: 0 for a session that is not stored yet, then
   * 1, 2, … — one more at every commit. `saveSession` commits only on top of it.
   */
  version: number;
}

export interface SaveSessionOptions {
  /**
   * The session expires this long after this commit (each commit restarts it). Default: the
   * store's own session TTL, if it has one; otherwise the session is kept until deleted.
   */
  ttlMs?: number;
  /**
   * The session was started by a run given no `sessionId`, and that run did not suspend. A
   * store may decline to keep it (the in-memory store does unless made with `keepOneShot`);
   * a later `loadSession` of its id then throws `SessionNotKeptError`.
   */
  oneShot?: boolean;
}

/** A value written with a session's commit (`StateStore.saveSessionWith`), as `set` writes it. */
export interface StoreWrite {
  key: string;
  value: unknown;
  ttlMs?: number;
}

export interface LeaseOptions {
  /**
   * A holder the caller found dead (its process is gone): the lease is also taken when it
   * still holds exactly this value. Two callers replacing the same dead holder cannot both win.
   */
  replacing?: string;
}

/** A session's lease as `StateStore.beginSession` takes it and `commitSession` frees it. */
export interface SessionLeaseRef {
  /** The lease's key (as `lease` takes it). */
  key: string;
  holder: string;
}

export interface StateStore {
  /** The store kind: "memory", "sqlite", "redis", or your own. */
  readonly kind: string;
  /**
   * Who can see the data: `"process"` (only this process: the memory store) or `"shared"`
   * (other processes too: a file, a server). Runs of a session take turns through an
   * in-process queue either way; on a shared store they also hold the session's lease in
   * the store, which costs a round trip or two per run. Default: shared.
   */
  readonly sharing?: "process" | "shared";
  /**
   * Where the data lives, for messages: a file path, a Redis URL without credentials, or
   * "memory". Never holds a secret.
   */
  readonly location: string;
  /**
   * False when the store keeps no session of a run given no sessionId (`saveSession` with
   * `oneShot`); such a run's in-process state goes with it. Unset: kept.
   */
  readonly keepsOneShot?: boolean;
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** `ttlMs`: the value expires after this long. */
  set(key: string, value: unknown, options?: { ttlMs?: number }): Promise<void>;
  /** Removes the key and its rate window (see `hit`). */
  delete(key: string): Promise<void>;
  /**
   * Atomically adds `by` (default 1) and returns the new value. An absent, expired or
   * non-numeric value counts from 0; a live key keeps its expiry.
   */
  increment(key: string, by?: number): Promise<number>;
  /**
   * Atomically: if fewer than `max` events happened in the last `windowMs` before `now`,
   * record one at `now` and return true; otherwise return false (and record nothing).
   */
  hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean>;
  /**
   * Atomically sets `key` to `value` only if it is absent (or expired). Returns whether it
   * was set: the primitive behind single-use approvals and exactly-once execution.
   */
  setIfAbsent(key: string, value: unknown, options?: { ttlMs?: number }): Promise<boolean>;
  /**
   * A lease on `key` for `holder` (any string), valid `ttlMs` from now. Atomically takes it
   * when it is free (absent or expired), renews it when `holder` already holds it, and takes
   * it over when it holds `options.replacing`. Returns whether `holder` holds it now.
   * `get(key)` reads the current holder.
   */
  lease(key: string, holder: string, ttlMs: number, options?: LeaseOptions): Promise<boolean>;
  /** Frees the lease if `holder` still holds it; returns whether it did (false: it had expired). */
  releaseLease(key: string, holder: string): Promise<boolean>;
  /**
   * The live (unexpired) keys that start with `prefix`, in no particular order: how a
   * process finds records another one wrote (suspended runs, a server's sessions). A scan,
   * not an index: callers keep their prefixes narrow.
   */
  keys(prefix: string): Promise<string[]>;
  /** The session with its version, or undefined (never stored, deleted, or expired). */
  loadSession(id: string): Promise<SessionRecord | undefined>;
  /**
   * Commits `record` on top of `record.version` and returns the new version (`version + 1`).
   * When the stored version is another (a concurrent run committed first; 0 means "not
   * stored"), nothing is written and it throws `SessionBusyError` with reason `changed`.
   */
  saveSession(record: SessionRecord, options?: SaveSessionOptions): Promise<number>;
  /**
   * Optional: `saveSession` and a `set` of each of `writes` as one commit (one transaction):
   * all of them, or none when the session's version is not `record.version`. How a run's
   * record is written with its session's turn at the cost of one commit. A store without it
   * gets `saveSession`, then each `set`.
   */
  saveSessionWith?(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    options?: SaveSessionOptions,
  ): Promise<number>;
  /**
   * Optional: `lease(lease.key, lease.holder, ttlMs)` and, when the lease is held, `loadSession(id)`
   * as one step (one transaction, one round trip): how a run starts a session it names at
   * the cost of one. Resolves to `undefined` when another holder has the lease (nothing is
   * read), otherwise to `{ session }` (`session` undefined when none is stored). A stored
   * session that cannot be read throws, as `loadSession` does, with the lease given back
   * first. A store without it gets `lease`, then `loadSession`.
   */
  beginSession?(
    id: string,
    lease: SessionLeaseRef,
    ttlMs: number,
  ): Promise<{ session: SessionRecord | undefined } | undefined>;
  /**
   * Optional: `saveSessionWith(record, writes, options)` and `releaseLease(lease.key,
   * lease.holder)` as one commit: how a run ends a session it holds at the cost of one. When
   * the session's version is not `record.version` it writes nothing, keeps the lease (the
   * caller gives it back) and throws `SessionBusyError` with reason `changed`. The lease is
   * freed only while `lease.holder` holds it, as `releaseLease` frees it. A store without it
   * gets the commit, then `releaseLease`.
   */
  commitSession?(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    lease: SessionLeaseRef,
    options?: SaveSessionOptions,
  ): Promise<number>;
  deleteSession(id: string): Promise<void>;
  /**
   * Sends `message` to the listeners of `channel` in every process that shares the store
   * (Redis: PUBLISH; the memory store: its own process). Fire and forget: a process that is
   * not listening at that moment never sees it. A store without it (SQLite) keeps such
   * messages in the process that sent them.
   */
  broadcast?(channel: string, message: string): Promise<void>;
  /**
   * Listens to `channel` (see `broadcast`), the sender's own messages included; resolves
   * once listening, to the function that stops listening.
   */
  listen?(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Releases the store's resources; idempotent. The store must not be used afterwards. */
  close(): Promise<void>;
}
