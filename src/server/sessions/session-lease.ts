/**
 * A session takes one request's run at a time — across processes: the lease is a StateStore
 * key naming its holder (token, pid, host), renewed every third of its time while the run
 * lives and given back at the end. A holder that died on this machine (its pid is gone) is
 * taken over at once; one on another machine lapses `leaseMs` after its last renewal
 * (`runtime.session_lease`, default 30 s). A caller that finds it taken waits for it (up to
 * its bound) or gives up; two runs of one session never interleave.
 */
import { SessionBusyError } from "../../errors/session-busy-error.js";
import { acquireSessionLease } from "../../sessions/session-lease.js";
import type { StateStore } from "../../state/state-store.js";

export interface Lease {
  readonly sessionId: string;
  release(): Promise<void>;
}

export interface SessionLeasesOptions {
  /** How long a lease outlives a holder that stopped renewing it (default 30 s). */
  ttlMs?: number;
}

const KEY = "server:leases:";

export class SessionLeases {
  readonly #store: StateStore;
  readonly #ttlMs: number;

  constructor(store: StateStore, options: SessionLeasesOptions = {}) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? 30_000;
  }

  /** Whether someone holds the session now. */
  async held(sessionId: string): Promise<boolean> {
    return (await this.#store.get(KEY + sessionId)) !== undefined;
  }

  /** Takes the session's lease, waiting up to `waitMs`; undefined when it stayed taken. */
  async acquire(sessionId: string, waitMs: number): Promise<Lease | undefined> {
    try {
      const lease = await acquireSessionLease(this.#store, sessionId, {
        waitMs,
        leaseMs: this.#ttlMs,
        key: KEY + sessionId,
      });
      return { sessionId, release: () => lease.release() };
    } catch (error) {
      if (SessionBusyError.isInstance(error)) return undefined;
      throw error;
    }
  }
}
