/** The in-process notification bus of the `notify` action; the CLI prints it, a server can stream it. */
export interface Notification {
  title: string;
  message: string;
  level: "info" | "warning" | "error";
  tag?: string;
  hook: string;
  sessionId: string;
  runId: string;
  at: number;
  /** Structured content for clients (e.g. `lsp_diagnose`: `{ path, diagnostics }`). */
  data?: unknown;
}

export class NotificationBus {
  readonly #listeners = new Set<(notification: Notification) => void>();
  readonly history: Notification[] = [];

  publish(notification: Notification): void {
    this.history.push(notification);
    if (this.history.length > 1000) this.history.shift();
    for (const listener of this.#listeners) {
      try {
        listener(notification);
      } catch (error) {
        console.warn(`[hookwise] notification listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** Returns the unsubscriber. */
  subscribe(listener: (notification: Notification) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
