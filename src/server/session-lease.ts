/**
 * A session takes one run at a time — across processes: the lease is a StateStore key
 * taken with `setIfAbsent`, renewed while its holder lives and given back at the end. A
 * crashed holder's lease lapses after `ttlMs`. A caller that finds it taken waits for it
 * (polling, up to its bound) or gives up; two runs of one session never interleave.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { StateStore } from "../state/state-store.js";

export interface Lease {
  readonly sessionId: string;
  release(): Promise<void>;
}

export interface SessionLeasesOptions {
  /** How long a lease outlives a holder that stopped renewing it (default 60 s). */
  ttlMs?: number;
  /** How often a waiting caller looks again (default 50 ms). */
  pollMs?: number;
}

const KEY = "server:leases:";

export class SessionLeases {
  readonly #store: StateStore;
  readonly #ttlMs: number;
  readonly #pollMs: number;

  constructor(store: StateStore, options: SessionLeasesOptions = {}) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#pollMs = options.pollMs ?? 50;
  }

  /** Whether someone holds the session now. */
  async held(sessionId: string): Promise<boolean> {
    return (await this.#store.get(KEY + sessionId)) !== undefined;
  }

  /** Takes the session's lease, waiting up to `waitMs`; undefined when it stayed taken. */
  async acquire(sessionId: string, waitMs: number): Promise<Lease | undefined> {
    const token = randomUUID();
    const key = KEY + sessionId;
    const deadline = Date.now() + waitMs;
    while (!(await this.#store.setIfAbsent(key, token, { ttlMs: this.#ttlMs }))) {
      if (Date.now() + this.#pollMs > deadline) return undefined;
      await sleep(this.#pollMs);
    }
    const renew = setInterval(async () => {
      try {
        if ((await this.#store.get(key)) === token) await this.#store.set(key, token, { ttlMs: this.#ttlMs });
      } catch {
        // A store that failed now is retried at the next tick; the lease lapses if it keeps failing.
      }
    }, this.#ttlMs / 3);
    renew.unref();
    let released = false;
    return {
      sessionId,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        if ((await this.#store.get(key)) === token) await this.#store.delete(key);
      },
    };
  }
}
