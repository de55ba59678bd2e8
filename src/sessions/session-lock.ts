/**
 * Runs of one session take turns in a process: each run loads the transcript, adds to it
 * and saves it, so two at once would lose one's messages. Runs of other sessions go on.
 * (Across processes, on a shared store, the session's lease does the same:
 * src/sessions/session-lease.ts.)
 */
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { SessionRuntime } from "./types.js";

/**
 * Per store, per session: the runs waiting for the session (the running one holds it). A
 * session held with nobody waiting maps to the shared empty list (a run in flight keeps no
 * list of its own). Keyed by the store, so two agents sharing one also take turns.
 */
const sessionQueues = new WeakMap<object, Map<string, (() => void)[]>>();
const NOBODY: (() => void)[] = Object.freeze([]) as unknown as (() => void)[];

function queuesOf(runtime: SessionRuntime): Map<string, (() => void)[]> {
  let queues = sessionQueues.get(runtime.store);
  if (queues === undefined) {
    queues = new Map();
    sessionQueues.set(runtime.store, queues);
  }
  return queues;
}

/**
 * Takes the session for a run; `releaseSession` gives it back. Synchronous when the session
 * is free (the common case costs no promise and no closure: `undefined`); otherwise a
 * promise settled when the earlier runs released it, in arrival order — or rejected with
 * SessionBusyError after `waitMs`.
 */
export function lockSession(
  runtime: SessionRuntime,
  sessionId: string,
  waitMs = Number.POSITIVE_INFINITY,
): undefined | Promise<void> {
  const queues = queuesOf(runtime);
  const queued = queues.get(sessionId);
  if (queued === undefined) {
    queues.set(sessionId, NOBODY);
    return undefined;
  }
  let waiting = queued;
  if (waiting === NOBODY) {
    waiting = [];
    queues.set(sessionId, waiting);
  }
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const turn = () => {
      clearTimeout(timer);
      resolve();
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

/** Gives the session back: to the next run in line, or free again. */
export function releaseSession(runtime: SessionRuntime, sessionId: string): void {
  const queues = queuesOf(runtime);
  const waiting = queues.get(sessionId);
  // The shared empty list is frozen: nothing to shift from it.
  const next = waiting?.length ? waiting.shift() : undefined;
  if (next) next();
  else queues.delete(sessionId);
}
