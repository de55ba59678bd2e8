/** The run's index in its session: seed 003's `turn`. */

import type { ModelMessage } from "../events/payloads.js";
import type { SessionRecord } from "../state/state-store.js";
import type { SessionRuntime } from "./types.js";

/**
 * The run's index in its session (seed 003's `turn`): an atomic per-session counter in the
 * store, so injected user messages and compaction never shift it. A resumed run, or a
 * transcript passed in by a stateless client, has no counter: it counts the user messages
 * (archived ones included, so compaction never makes it go back).
 */
export async function runIndex(
  runtime: SessionRuntime,
  sessionId: string,
  session: SessionRecord,
  fromTranscript: boolean,
): Promise<number> {
  const counted = userMessages(session.archived ?? []) + userMessages(session.messages);
  if (fromTranscript) return counted;
  const key = sessionRunsKey(sessionId);
  // A session that predates the counter starts from what its transcript shows (a counter
  // that does not exist counts from 0, so a new session needs no write first).
  if (counted > 0) await runtime.store.setIfAbsent(key, counted);
  return (await runtime.store.increment(key)) - 1;
}

export function sessionRunsKey(sessionId: string): string {
  return `session:${sessionId}:runs`;
}

function userMessages(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) if (message.role === "user") count++;
  return count;
}
