/**
 * A run as an HTTP answer, by the request's `Accept`: `application/json` waits for the
 * RunResult; otherwise Server-Sent Events, one per stream event (`event: <type>`, `data:`
 * the event as JSON). A run the client started (`owned`) is aborted when the client goes
 * away, unless it is suspended — then it belongs to the inbox. Its event stream stays open
 * through a suspension and carries on with the run resumed from the inbox, until the run
 * really ends.
 */
import type { Context } from "hono";
import { sendJson } from "../http/json-response.js";
import { SseChannel } from "../http/sse-channel.js";
import type { ServerContext } from "../server-context.js";
import type { LiveRun } from "./live-runs.js";
import { eachSent, type ServerEvent } from "./run-timeline.js";

export function wantsJson(c: Context): boolean {
  const accept = c.req.header("accept") ?? "";
  return /application\/json/i.test(accept) && !/text\/event-stream/i.test(accept);
}

/** Aborts the run if the client that started it leaves while it runs. */
function abortOnLeave(ctx: ServerContext, run: LiveRun): () => void {
  return () => {
    if (!run.ended && ctx.runs.session(run.sessionId) === run)
      run.controller.abort(new Error("the client disconnected"));
  };
}

export async function respondWithRun(
  ctx: ServerContext,
  c: Context,
  run: LiveRun,
  options: { owned: boolean },
): Promise<Response> {
  const disconnected = c.req.raw.signal;
  if (wantsJson(c)) {
    const leave = options.owned ? abortOnLeave(ctx, run) : () => {};
    disconnected.addEventListener("abort", leave, { once: true });
    try {
      return sendJson(ctx, c, await run.result);
    } finally {
      disconnected.removeEventListener("abort", leave);
    }
  }
  const channel = new SseChannel(ctx.scrub);
  // A `hook` event is one SSE event per firing.
  const send = (event: ServerEvent) => eachSent(event, (sent) => channel.send(sent.type, sent));
  let stop: () => void;
  if (options.owned) {
    let unwatch = () => {};
    const follow = (event: ServerEvent): void => {
      send(event);
      // A suspended run is followed — unless the server is shutting down.
      if (event.type === "run-finish" && (event.result.outcome !== "suspended" || ctx.closing.aborted)) {
        channel.close();
      }
    };
    // This run from its first event (kept even if it already ended), then — if it suspends —
    // the session's next runs: its resume from the inbox.
    const unsubscribe = run.subscribe({
      event: (event) => {
        send(event);
        if (event.type !== "run-finish") return;
        if (event.result.outcome !== "suspended" || ctx.closing.aborted) channel.close();
        else unwatch = ctx.runs.watch(run.sessionId, { event: follow });
      },
      end: (error) => {
        if (error === undefined) return;
        channel.send("error", { message: error instanceof Error ? error.message : String(error) });
        channel.close();
      },
    });
    stop = () => {
      unsubscribe();
      unwatch();
    };
    channel.onClose(abortOnLeave(ctx, run));
  } else {
    stop = run.subscribe({
      event: send,
      end: () => channel.close(),
    });
  }
  const close = () => channel.close();
  // A shutdown drains running runs (their streams end with them); a stream that only waits
  // on a suspended run ends at once.
  const closeIfIdle = () => {
    if (ctx.runs.session(run.sessionId) === undefined) channel.close();
  };
  disconnected.addEventListener("abort", close, { once: true });
  ctx.closing.addEventListener("abort", closeIfIdle, { once: true });
  channel.onClose(() => {
    stop();
    disconnected.removeEventListener("abort", close);
    ctx.closing.removeEventListener("abort", closeIfIdle);
  });
  return channel.response;
}
