/**
 * A session as JSONL (`hookwise history --jsonl`, read by `hookwise replay --from`): one
 * JSON document a line — first `{"type":"session",…}`, then each transcript message
 * `{"type":"message","message":…}`, then each recorded run `{"type":"run","run":…}`,
 * oldest first.
 */
import type { RunRecord } from "../agent/run-record.js";
import { runRecordProblem } from "../agent/run-record-shape.js";
import type { ModelMessage } from "../events/payloads.js";
import { UsageError } from "./usage-error.js";

export function sessionJsonl(
  session: { id: string; createdAt?: number; updatedAt?: number; messages: readonly ModelMessage[] },
  runs: readonly RunRecord[],
): string[] {
  return [
    JSON.stringify({
      type: "session",
      id: session.id,
      ...(session.createdAt !== undefined ? { createdAt: session.createdAt } : {}),
      ...(session.updatedAt !== undefined ? { updatedAt: session.updatedAt } : {}),
      runs: runs.length,
    }),
    ...session.messages.map((message) => JSON.stringify({ type: "message", message })),
    ...runs.map((run) => JSON.stringify({ type: "run", run })),
  ];
}

/** The recorded runs of a session's JSONL; a line that is not one gets an error naming it. */
export function runsFromJsonl(
  text: string,
  file: string,
): { sessionId: string | undefined; runs: RunRecord[] } {
  const runs: RunRecord[] = [];
  let sessionId: string | undefined;
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${file}:${index + 1}:1: not a JSON document (${(error as Error).message})`);
    }
    const type = (value as { type?: unknown })?.type;
    if (type === "session") sessionId = String((value as { id?: unknown }).id);
    else if (type === "run") {
      const run = (value as { run?: RunRecord }).run;
      const problem = runRecordProblem(run);
      if (problem) {
        throw new UsageError(
          `${file}:${index + 1}:1: a "run" line must hold a run record as hookwise history --jsonl writes it (${problem})`,
        );
      }
      runs.push(run as RunRecord);
    } else if (type !== "message") {
      throw new UsageError(
        `${file}:${index + 1}:1: expected a line of type "session", "message" or "run" (got ${JSON.stringify(type)})`,
      );
    }
  }
  return { sessionId, runs };
}
