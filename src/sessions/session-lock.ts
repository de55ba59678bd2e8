/**
 * Runs of one session take turns in a process: each run loads the transcript, adds to it
 * and saves it, so two at once would lose one's messages. Runs of other sessions go on.
 * (Across processes, on a shared store, the session's lease does the same:
 * src/sessions/session-lease.ts.)
 */
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { SessionRuntime } from "./types.js";

/**
 * Per store, per session: the runs waiting for the session (the running one holds it).
 * Keyed by the store, so two agents sharing one also take turns.
 */
const sessionQueues = new WeakMap<object, Map<string, (() => void)[]>>();

/**
 * Takes the session for a run; returns its release. Synchronous when the session is free
 * (the common case costs no promise); otherwise a promise settled when the earlier runs
 * released it, in arrival order — or rejected with SessionBusyError after `waitMs`.
 */
export function lockSession(
  runtime: SessionRuntime,
  sessionId: string,
  waitMs = Number.POSITIVE_INFINITY,
): (() => void) | Promise<() => void> {
  let queues = sessionQueues.get(runtime.store);
  if (queues === undefined) {
    queues = new Map();
    sessionQueues.set(runtime.store, queues);
  }
  const held = queues;
  const release = () => {
    const waiting = held.get(sessionId);
    const next = waiting?.shift();
    // Handed to the next run in line, or free again.
    if (next) next();
    else held.delete(sessionId);
  };
  const waiting = held.get(sessionId);
  if (waiting === undefined) {
    held.set(sessionId, []);
    return release;
  }
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const turn = () => {
      clearTimeout(timer);
      resolve(release);
    };
    const timer = setTimeout(
      () => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(
          new SessionBusyError({
            reason: "busy",
            sessionId,
            message: `session "${sessionId}" is busy: another run in this process has held it for the ${Date.now() - started} ms this run waited. Run again when it is done, or let runs wait longer (runtime.session_wait, or createAgent's sessions.waitMs)`,
          }),
        );
      },
      Math.min(waitMs, 2 ** 31 - 1),
    );
    waiting.push(turn);
  });
}
