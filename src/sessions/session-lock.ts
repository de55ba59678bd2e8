/**
 * Runs of one session take turns in a process: each run loads the transcript, adds to it
 * and saves it, so two at once would lose one's messages. Runs of other sessions go on.
 */
import type { SessionRuntime } from "./types.js";

/** Per agent, per session: the runs waiting for the session (the running one holds it). */
const sessionQueues = new WeakMap<SessionRuntime, Map<string, (() => void)[]>>();

/**
 * Takes the session for a run; returns its release. Synchronous when the session is free
 * (the common case costs no promise); otherwise a promise settled when the earlier runs
 * released it, in arrival order.
 */
export function lockSession(runtime: SessionRuntime, sessionId: string): (() => void) | Promise<() => void> {
  let queues = sessionQueues.get(runtime);
  if (queues === undefined) {
    queues = new Map();
    sessionQueues.set(runtime, queues);
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
  return new Promise((resolve) => waiting.push(() => resolve(release)));
}
