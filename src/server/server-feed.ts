/**
 * `GET /events`: what happens outside any one run — `notify` actions and `lsp_diagnose`
 * reports (the config's notification bus), and changes of the approval inbox and of
 * sessions. On a store that broadcasts (Redis), every replica's events reach the clients of
 * every replica: each is sent once on the store's `feed` channel, tagged with the replica
 * that saw it, and delivered here when it comes back (another replica's) or at once (ours).
 */
import { randomUUID } from "node:crypto";
import type { Notification, NotificationBus } from "../config/notification-bus.js";
import type { StateStore } from "../state/state-store.js";

export type FeedEvent =
  | { event: "notification"; data: Notification }
  | { event: "inbox"; data: { reason: "suspended" | "resumed"; runId: string; sessionId: string } }
  | { event: "inbox"; data: { reason: "decided"; approvalId: string; sessionId: string } }
  | { event: "session"; data: { reason: "created" | "ended"; sessionId: string } };

/** The store channel replicas share their feed on. */
export const FEED_CHANNEL = "server-feed";

const FEED_EVENTS = new Set<string>(["notification", "inbox", "session"]);

interface Relayed {
  origin: string;
  event: FeedEvent;
}

function isRelayed(value: unknown): value is Relayed {
  if (typeof value !== "object" || value === null) return false;
  const { origin, event } = value as Partial<Relayed>;
  return (
    typeof origin === "string" &&
    typeof event === "object" &&
    event !== null &&
    FEED_EVENTS.has(event.event) &&
    typeof event.data === "object" &&
    event.data !== null
  );
}

export class ServerFeed {
  readonly #listeners = new Set<(event: FeedEvent) => void>();
  readonly #unsubscribe: () => void;
  /** This replica, on the shared channel. */
  readonly #origin = randomUUID();
  readonly #store: StateStore | undefined;
  readonly #log: (line: string) => void;
  #stopRelay: (() => Promise<void>) | undefined;

  constructor(bus: NotificationBus, options: { store?: StateStore; log?: (line: string) => void } = {}) {
    this.#unsubscribe = bus.subscribe((notification) =>
      this.publish({ event: "notification", data: notification }),
    );
    const store = options.store;
    this.#store = store?.broadcast && store.listen ? store : undefined;
    this.#log = options.log ?? ((line) => console.error(`[hookwise] ${line}`));
  }

  /** Whether the events of other replicas reach this one (the store broadcasts). */
  get relayed(): boolean {
    return this.#store !== undefined;
  }

  /** Starts listening to the other replicas (no-op on a store that cannot broadcast). */
  async open(): Promise<void> {
    if (!this.#store || this.#stopRelay) return;
    this.#stopRelay = await this.#store.listen!(FEED_CHANNEL, (text) => this.#receive(text));
  }

  publish(event: FeedEvent): void {
    this.#deliver(event);
    if (!this.#store) return;
    const relayed: Relayed = { origin: this.#origin, event };
    this.#store.broadcast!(FEED_CHANNEL, JSON.stringify(relayed)).catch((error: Error) =>
      this.#log(`an event did not reach the other replicas: ${error.message}`),
    );
  }

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    this.#listeners.clear();
    const stop = this.#stopRelay;
    this.#stopRelay = undefined;
    await stop?.().catch(() => undefined);
  }

  #receive(text: string): void {
    let relayed: unknown;
    try {
      relayed = JSON.parse(text);
    } catch {
      relayed = undefined;
    }
    if (!isRelayed(relayed)) {
      this.#log("ignored a malformed message on the replicas' event channel");
      return;
    }
    // Our own came back: already delivered when it was published.
    if (relayed.origin !== this.#origin) this.#deliver(relayed.event);
  }

  #deliver(event: FeedEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#log(`an event listener failed: ${(error as Error).message}`);
      }
    }
  }
}
