/**
 * A scripted model in the CLI keeps its place in the script per session: `hookwise run
 * --session S` again, or `hookwise resume`, goes on with the script's next answer instead of
 * replaying it from the start. The position is a counter in the config's state store, under
 * the session, taken atomically at each call (each attempt), so runs in other processes
 * share it.
 */
import { isScriptedModel } from "../models/scripted-model.js";
import type { StateStore } from "../state/state-store.js";

/** The store key of a script's position in a session. */
export function scriptPositionKey(sessionId: string, script: string): string {
  return `session:${sessionId}:script:${script}`;
}

/** Makes `model`, when scripted, read its script from the session's position in `store`. */
export function keepScriptPosition(model: unknown, store: StateStore, sessionId: string): void {
  if (!isScriptedModel(model)) return;
  const key = scriptPositionKey(sessionId, model.modelId);
  model.keepPosition(async () => (await store.increment(key)) - 1);
}
