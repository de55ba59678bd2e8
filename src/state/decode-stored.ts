/**
 * Reading what a persistent store holds. A value or session that does not decode (a
 * hand-edited file, a truncated write, another program's data under our prefix) is a
 * StateStoreError naming the store, the key or session, what is wrong and what to do —
 * never a bare SyntaxError from deep inside a run.
 */
import type { ModelMessage } from "../events/payloads.js";
import { unpairedToolCallIds } from "../events/tool-call-pairs.js";
import { decodeJson } from "./json-codec.js";
import type { SessionRecord } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

/** The store as messages name it, and how a user removes one broken entry from it. */
export interface StoredPlace {
  kind: string;
  /** A file path or a Redis URL without credentials. */
  location: string;
  path?: string;
  /** What to do about the broken entry: how to remove the key or session `name`. */
  removal(entry: "key" | "session", name: string): string;
}

function malformed(
  place: StoredPlace,
  entry: "key" | "session",
  name: string,
  problem: string,
): StateStoreError {
  return new StateStoreError({
    kind: place.kind,
    ...(place.path !== undefined ? { path: place.path } : {}),
    message: `The stored ${entry} "${name}" in ${place.location} is malformed (${problem}); ${place.removal(entry, name)}`,
  });
}

export function decodeStoredValue(place: StoredPlace, key: string, text: string): unknown {
  try {
    return decodeJson(text);
  } catch (error) {
    throw malformed(place, "key", key, `not JSON: ${(error as Error).message}`);
  }
}

const roles = new Set(["system", "user", "assistant", "tool"]);

/** The first problem of a transcript, as `[index].field: what`; undefined when well formed. */
function transcriptProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "expected a list of messages";
  for (let index = 0; index < value.length; index++) {
    const message = value[index] as { role?: unknown; content?: unknown } | null;
    if (typeof message !== "object" || message === null) return `[${index}]: expected a message object`;
    if (typeof message.role !== "string" || !roles.has(message.role))
      return `[${index}].role: expected system, user, assistant or tool`;
    if (typeof message.content !== "string" && !Array.isArray(message.content))
      return `[${index}].content: expected text or a list of parts`;
  }
  return undefined;
}

export interface StoredSessionFields {
  id: string;
  messages: string;
  archived: string | null | undefined;
  createdAt: number;
  updatedAt: number;
  version: number;
  runs: number | null | undefined;
}

export function decodeStoredSession(place: StoredPlace, fields: StoredSessionFields): SessionRecord {
  const field = (name: "messages" | "archived", text: string): ModelMessage[] => {
    let value: unknown;
    try {
      value = decodeJson(text);
    } catch (error) {
      throw malformed(place, "session", fields.id, `${name}: not JSON: ${(error as Error).message}`);
    }
    const problem = transcriptProblem(value);
    if (problem)
      throw malformed(place, "session", fields.id, `${name}${problem.startsWith("[") ? "" : ": "}${problem}`);
    // Every later request of the session would carry it, and a provider refuses it.
    const unpaired = name === "messages" ? [...unpairedToolCallIds(value as ModelMessage[])] : [];
    if (unpaired.length)
      throw malformed(
        place,
        "session",
        fields.id,
        `messages: tool call ${unpaired.map((id) => `"${id}"`).join(", ")} has its call without its result, or its result without its call`,
      );
    return value as ModelMessage[];
  };
  for (const name of ["createdAt", "updatedAt", "version"] as const) {
    if (!Number.isSafeInteger(fields[name]) || fields[name] < 0)
      throw malformed(
        place,
        "session",
        fields.id,
        `${name}: expected a whole number, got ${String(fields[name])}`,
      );
  }
  const record: SessionRecord = {
    id: fields.id,
    messages: field("messages", fields.messages),
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt,
    version: fields.version,
  };
  if (fields.archived != null) record.archived = field("archived", fields.archived);
  if (fields.runs != null) {
    if (!Number.isSafeInteger(fields.runs) || fields.runs < 0)
      throw malformed(
        place,
        "session",
        fields.id,
        `runs: expected a whole number, got ${String(fields.runs)}`,
      );
    record.runs = fields.runs;
  }
  return record;
}
