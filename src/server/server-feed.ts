/**
 * `GET /events`: what happens outside any one run — `notify` actions and `lsp_diagnose`
 * reports (the config's notification bus), and changes of the approval inbox. Per process,
 * like the notification bus it follows; a replica forwards only what it saw.
 */
import type { Notification, NotificationBus } from "../config/notification-bus.js";

export type FeedEvent =
  | { event: "notification"; data: Notification }
  | { event: "inbox"; data: { reason: "suspended" | "resumed"; runId: string; sessionId: string } }
  | { event: "session"; data: { reason: "created" | "ended"; sessionId: string } };

export class ServerFeed {
  readonly #listeners = new Set<(event: FeedEvent) => void>();
  readonly #unsubscribe: () => void;

  constructor(bus: NotificationBus) {
    this.#unsubscribe = bus.subscribe((notification) =>
      this.publish({ event: "notification", data: notification }),
    );
  }

  publish(event: FeedEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error(`[hookwise] an event listener failed: ${(error as Error).message}`);
      }
    }
  }

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#unsubscribe();
    this.#listeners.clear();
  }
}
