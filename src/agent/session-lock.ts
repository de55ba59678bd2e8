/**
 * Runs of one session take turns in a process: each run loads the transcript, adds to it
 * and saves it, so two at once would lose one's messages. Runs of other sessions go on.
 */
import type { AgentRuntime } from "./agent-runtime.js";

const sessionLocks = new WeakMap<AgentRuntime, Map<string, Promise<void>>>();

/** Waits for the session's earlier runs; returns the release. */
export async function lockSession(runtime: AgentRuntime, sessionId: string): Promise<() => void> {
  let locks = sessionLocks.get(runtime);
  if (!locks) {
    locks = new Map();
    sessionLocks.set(runtime, locks);
  }
  const previous = locks.get(sessionId);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const chained = (previous ?? Promise.resolve()).then(() => mine);
  locks.set(sessionId, chained);
  if (previous) await previous;
  return () => {
    release();
    if (locks.get(sessionId) === chained) locks.delete(sessionId);
  };
}
