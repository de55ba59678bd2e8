/**
 * Runs of one session take turns across every process (and machine) sharing a store: a
 * run holds the session's lease (`session:<id>:lease`) from before it reads the transcript
 * until after it committed, renewing it while it runs. Another run waits for it, bounded,
 * then fails with SessionBusyError — never a silent lost turn.
 *
 * A lease held by a process that died is not waited out when it is on this host (its pid
 * is gone: taken over at once, atomically, so two waiters cannot both win); from another
 * host it expires `leaseMs` after its last renewal. A run whose lease lapsed anyway (a
 * process paused for longer than `leaseMs`) is still stopped at its commit, by the store's
 * compare-and-swap on the session version.
 */

import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { nodeCrypto } from "../deps/node-crypto.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { SessionLeaseRef, SessionRecord, StateStore } from "../state/state-store.js";

/** How runs of one session take turns (`createAgent({ sessions })`; config `runtime.session_wait`). */
export interface SessionOptions {
  /**
   * How long a run waits for its session while another run has it, before failing with
   * SessionBusyError (reason `busy`). Default 10 000 ms; 0 fails at once.
   */
  waitMs?: number;
  /**
   * How long a session stays taken after its run's process stopped renewing it (it died on
   * another host). Renewed every third of it while the run goes on. Default 30 000 ms.
   */
  leaseMs?: number;
  /**
   * A run given no `sessionId` starts a session of its own; a store that keeps such sessions
   * (SQLite, Redis, `new MemoryStore({ keepOneShot: true })`) keeps it this long after its
   * last run (continue it with `result.sessionId` meanwhile); so does every store once its
   * run waited for an approval. Default 3 600 000 ms (1 h).
   */
  oneShotTtlMs?: number;
}

export type ResolvedSessionOptions = Required<SessionOptions>;

export const DEFAULT_SESSION_OPTIONS: ResolvedSessionOptions = {
  waitMs: 10_000,
  leaseMs: 30_000,
  oneShotTtlMs: 3_600_000,
};

/** Checks and completes `createAgent`'s `sessions` option. */
export function resolveSessionOptions(options: SessionOptions = {}): ResolvedSessionOptions {
  const resolved = { ...DEFAULT_SESSION_OPTIONS };
  for (const name of ["waitMs", "leaseMs", "oneShotTtlMs"] as const) {
    const value = options[name];
    if (value === undefined) continue;
    const minimum = name === "waitMs" ? 0 : 1;
    if (!Number.isFinite(value) || value < minimum) {
      throw new TypeError(
        `createAgent: sessions.${name} must be a number ≥ ${minimum} (got ${String(value)})`,
      );
    }
    resolved[name] = value;
  }
  return resolved;
}

export const sessionLeaseKey = (sessionId: string) => `session:${sessionId}:lease`;

/** This process in a holder (`"pid":…,"host":…`), and a count that makes each holder unique. */
let thisProcess: { json: string; host: string; token: string } | undefined;
let holders = 0;

/** Built once per process: reading the host name is a system call (several µs) a run need not pay. */
function processIdentity(): { json: string; host: string; token: string } {
  if (!thisProcess) {
    const host = hostname();
    thisProcess = {
      json: `"pid":${process.pid},"host":${JSON.stringify(host)}`,
      host,
      token: nodeCrypto().randomUUID(),
    };
  }
  return thisProcess;
}

interface Holder {
  token: string;
  pid: number;
  host: string;
  since: number;
}

function parseHolder(text: unknown): Holder | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** The holder's process is gone (same host, its pid no longer exists). */
function deadHere(holder: Holder | undefined): boolean {
  if (!holder || holder.host !== processIdentity().host || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

function busy(sessionId: string, holder: Holder | undefined, waitedMs: number): SessionBusyError {
  const who = !holder
    ? "another run"
    : holder.pid === process.pid && holder.host === processIdentity().host
      ? "another run in this process"
      : `a run in pid ${holder.pid} on ${holder.host}`;
  const since = holder ? ` since ${new Date(holder.since).toISOString()}` : "";
  return new SessionBusyError({
    reason: "busy",
    sessionId,
    message: `session "${sessionId}" is busy: ${who} has held it${since}; waited ${waitedMs} ms. Run again when it is done, or let runs wait longer (runtime.session_wait, or createAgent's sessions.waitMs)`,
  });
}

export interface SessionLease {
  /** A renewal found the lease taken by another run: this run's commit will be refused. */
  readonly lost: boolean;
  /**
   * The session as read with the lease in one step (`StateStore.beginSession`), when it was
   * asked for (`load`) and the store could: `{ session }`, `session` undefined when none is
   * stored. Undefined otherwise: the caller reads it.
   */
  readonly begun: { session: SessionRecord | undefined } | undefined;
  /** Stops renewing and frees the lease (if still held). */
  release(): Promise<void>;
  /**
   * Stops renewing and hands the lease to `commit` (a commit that frees it:
   * `StateStore.commitSession`); once `commit` resolved the lease counts as freed, so
   * `release` does nothing. When it throws the lease is still this run's: `release` frees it.
   */
  commitWith<T>(commit: (lease: SessionLeaseRef) => Promise<T>): Promise<T>;
}

export async function acquireSessionLease(
  store: StateStore,
  sessionId: string,
  options: {
    waitMs: number;
    leaseMs: number;
    signal?: AbortSignal;
    /** The store key of the lease (default: the session's run lease); a server's requests take another. */
    key?: string;
    /** Read the session with the lease, in one step, where the store can (`begun`). */
    load?: boolean;
  },
): Promise<SessionLease> {
  const key = options.key ?? sessionLeaseKey(sessionId);
  const started = Date.now();
  const identity = processIdentity();
  // JSON of a Holder, written out: this runs for every run.
  const holder = `{"token":"${identity.token}-${++holders}",${identity.json},"since":${started}}`;
  let delay = 2;
  let begun: { session: SessionRecord | undefined } | undefined;
  // The first try reads the session too, where the store can in one step; after a wait the
  // lease is taken alone (the caller reads the session).
  let reading = options.load === true && store.beginSession !== undefined;
  for (;;) {
    if (reading) {
      reading = false;
      begun = await store.beginSession!(sessionId, { key, holder }, options.leaseMs);
      if (begun !== undefined) break;
    } else if (await store.lease(key, holder, options.leaseMs)) break;
    const current = await store.get<string>(key);
    const other = parseHolder(current);
    if (current !== undefined && deadHere(other)) {
      if (await store.lease(key, holder, options.leaseMs, { replacing: current })) break;
    }
    const waited = Date.now() - started;
    if (waited >= options.waitMs) throw busy(sessionId, other, waited);
    options.signal?.throwIfAborted();
    // Polling with jitter: waiters on several machines do not retry in lockstep.
    await sleep(Math.min(delay * (0.5 + Math.random()), options.waitMs - waited), undefined, {
      signal: options.signal,
    });
    delay = Math.min(delay * 2, 100);
  }

  let lost = false;
  let released = false;
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (released || renewing) return;
    renewing = store
      .lease(key, holder, options.leaseMs)
      .then(
        (held) => {
          if (!held) lost = true;
        },
        // A store that cannot be reached now may be back by the commit; the commit's
        // compare-and-swap decides either way.
        () => {},
      )
      .finally(() => {
        renewing = undefined;
      });
  }, options.leaseMs / 3);
  timer.unref();
  const stop = async () => {
    clearInterval(timer);
    if (renewing) await renewing;
  };
  let committing = false;
  return {
    get lost() {
      return lost;
    },
    begun,
    async release() {
      if (released) return;
      released = true;
      await stop();
      await store.releaseLease(key, holder);
    },
    async commitWith(commit) {
      if (released || committing) throw new Error(`the lease of session "${sessionId}" is no longer held`);
      // No renewal may land after the commit freed the lease: it would take it again.
      committing = true;
      await stop();
      try {
        const done = await commit({ key, holder });
        released = true;
        return done;
      } finally {
        committing = false;
      }
    },
  };
}
