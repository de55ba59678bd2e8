/**
 * A graceful stop (SIGTERM, `server.close()`): refuse new runs (503) and new connections,
 * end the event streams that only wait, let running runs finish for `server.drain`, then
 * abort what still runs (each run's AbortSignal) and wait for it to settle. Suspended runs
 * are already in the store, waiting for any process to resume them. Sessions fire
 * `session_end` only when they cannot outlive the process (the memory store). Last, the
 * config closes: MCP servers, language servers, the store.
 */
import type { Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerContext } from "./server-context.js";
import type { IdleSweeper } from "./sessions/idle-sweeper.js";
import { endSession } from "./sessions/session-end.js";

/** How long aborted runs get to settle (their hooks' inspections, the last save). */
const SETTLE_MS = 5_000;

async function within(promises: readonly Promise<unknown>[], ms: number): Promise<boolean> {
  if (promises.length === 0) return true;
  const all = Promise.allSettled(promises).then(() => true);
  return Promise.race([all, sleep(ms, false, { ref: false })]);
}

export async function shutdown(
  ctx: ServerContext,
  parts: { server: Server; sweeper: IdleSweeper; closing: AbortController; log: (line: string) => void },
): Promise<void> {
  ctx.draining = true;
  parts.closing.abort();
  const closed = new Promise<void>((resolve) => parts.server.close(() => resolve()));
  await parts.sweeper.stop();

  const running = ctx.runs.all();
  if (running.length > 0)
    parts.log(`draining ${running.length} running run(s) (up to ${ctx.settings.drainMs} ms)`);
  const drained = await within(
    running.map((run) => run.result),
    ctx.settings.drainMs,
  );
  if (!drained) {
    const left = ctx.runs.all();
    parts.log(`aborting ${left.length} run(s) still running`);
    for (const run of left) run.controller.abort(new Error("the server is shutting down"));
    await within(
      left.map((run) => run.result),
      SETTLE_MS,
    );
  }

  if (ctx.loaded.store.kind === "memory") {
    for (const meta of await ctx.directory.list()) {
      await endSession(ctx, meta, "shutdown", 0).catch((error) =>
        parts.log(`session ${meta.id}: session_end failed: ${(error as Error).message}`),
      );
    }
  }
  await ctx.feed.close();
  parts.server.closeAllConnections();
  await closed;
  await ctx.loaded.close();
}
