/**
 * Ending a session — `DELETE /sessions/:id`, idle expiry, or a shutdown of a server whose
 * sessions cannot outlive it (the memory store): under its lease (a running session is
 * not ended under its run: 409), never while it waits on approvals (they would be lost:
 * 409), and once (the lease holder finds it still there). `session_end` fires for its
 * agent's hooks, then its transcript, timelines and metadata are deleted.
 */
import { forgetScriptPositions } from "../../config/script-position.js";
import { HttpError } from "../http/http-error.js";
import type { ServerContext } from "../server-context.js";
import type { SessionMeta } from "./session-directory.js";

export async function endSession(
  ctx: ServerContext,
  meta: SessionMeta,
  reason: "deleted" | "idle" | "shutdown",
  waitMs = ctx.settings.busyWaitMs,
): Promise<boolean> {
  const lease = await ctx.leases.acquire(meta.id, waitMs);
  if (!lease) {
    if (reason !== "deleted") return false;
    throw new HttpError(
      409,
      "session_busy",
      `session "${meta.id}" is running a message; end it when it finished`,
    );
  }
  try {
    const waiting = meta.suspendedRunId !== undefined ? await ctx.inbox.list(meta.id) : [];
    if (waiting.length > 0) {
      if (reason !== "deleted") return false;
      throw new HttpError(
        409,
        "session_waiting",
        `session "${meta.id}" waits for ${waiting.length} approval(s): approve or deny them before ending it`,
        { approvals: waiting },
      );
    }
    // Two replicas expiring the same session: the second finds it gone.
    if (!(await ctx.directory.get(meta.id))) return false;
    const agent = await ctx.agents.get(meta.agent);
    await agent.endSession(meta.id, { reason, delete: reason !== "shutdown" });
    if (reason !== "shutdown") {
      // A session created again under this id is a new one: its scripted models start over.
      await forgetScriptPositions(ctx.loaded.store, meta.id);
      await ctx.directory.remove(meta.id);
    }
    ctx.feed.publish({ event: "session", data: { reason: "ended", sessionId: meta.id } });
    return true;
  } finally {
    await lease.release();
  }
}
