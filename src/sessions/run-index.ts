/** The run's index in its session: `turn` in conditions. */

import type { ModelMessage } from "../events/payloads.js";
import type { SessionRecord } from "../state/state-store.js";
import type { SessionRuntime } from "./types.js";

/**
 * The run's index in its session (`turn` in conditions): the session's count of runs, committed
 * with its transcript (exact: runs of a session take turns and commit by compare-and-swap),
 * so injected user messages and compaction never shift it. A new session's first run is 0.
 * A transcript passed in by a stateless client, on a session the store does not know, counts
 * its user messages (archived ones included, so compaction never makes it go back); so does
 * a session stored before the count was kept, unless it has the counter key of that time.
 */
export async function runIndex(
  runtime: SessionRuntime,
  sessionId: string,
  session: SessionRecord,
  fromTranscript: boolean,
): Promise<number> {
  if (session.runs !== undefined) return session.runs;
  const counted = userMessages(session.archived ?? []) + userMessages(session.messages);
  if (fromTranscript) return counted;
  if (session.version === 0) return 0;
  return (await runtime.store.get<number>(sessionRunsKey(sessionId))) ?? counted;
}

/** Where sessions stored before `SessionRecord.runs` kept their count (read, never written). */
export function sessionRunsKey(sessionId: string): string {
  return `session:${sessionId}:runs`;
}

function userMessages(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) if (message.role === "user") count++;
  return count;
}
