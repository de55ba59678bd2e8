/**
 * Idle expiry: sessions without activity for `server.session_idle` end (`session_end`, reason
 * `idle`). Every replica sweeps the shared session list; the session's lease makes one of
 * them end it. A running session, or one waiting on approvals, is not idle.
 */
import type { ServerContext } from "../server-context.js";
import { endSession } from "./session-end.js";

export class IdleSweeper {
  readonly #ctx: ServerContext;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  start(): void {
    const every = Math.max(10, Math.min(this.#ctx.settings.sessionIdleMs / 2, 30_000));
    this.#timer = setInterval(() => {
      this.#sweeping ??= this.sweep().then(
        () => {
          this.#sweeping = undefined;
        },
        () => {
          this.#sweeping = undefined;
        },
      );
    }, every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  /** Ends every session idle for longer than `session_idle`; returns their ids. */
  async sweep(now = Date.now()): Promise<string[]> {
    const ended: string[] = [];
    const ctx = this.#ctx;
    for (const meta of await ctx.directory.list()) {
      if (now - meta.lastActiveAt < ctx.settings.sessionIdleMs || ctx.runs.session(meta.id)) continue;
      try {
        if (await endSession(ctx, meta, "idle", 0)) ended.push(meta.id);
      } catch (error) {
        console.error(`[hookwise] ending idle session ${meta.id} failed: ${(error as Error).message}`);
      }
    }
    return ended;
  }
}
