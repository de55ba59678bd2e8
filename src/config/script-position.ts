/**
 * A scripted model keeps its place in the script per session: `hookwise run --session S`
 * again, `hookwise resume`, or a session's next message to `hookwise serve` goes on with the
 * script's next answer instead of replaying it from the start. The position is a counter in
 * the config's state store, under the session, taken atomically at each call (each attempt),
 * so runs in other processes (another CLI run, a restarted server) share it.
 */
import { scriptedModelModule } from "../models/scripted-model.part.js";
import type { StateStore } from "../state/state-store.js";

/** The store key of a script's position in a session. */
export function scriptPositionKey(sessionId: string, script: string): string {
  return `${scriptPositionPrefix(sessionId)}${script}`;
}

function scriptPositionPrefix(sessionId: string): string {
  return `session:${sessionId}:script:`;
}

/** Deletes a session's places in every script: a session created again under its id starts over. */
export async function forgetScriptPositions(store: StateStore, sessionId: string): Promise<void> {
  const keys = await store.keys(scriptPositionPrefix(sessionId));
  await Promise.all(keys.map((key) => store.delete(key)));
}

/**
 * Makes `model`, when scripted, read its script from the session's position in `store`.
 * `session` is the session's id, or a function answering the session of the call being made
 * (a server whose one model answers many sessions). A call it answers no session for (the
 * same loaded config's agent run outside the server) reads from the model's own place, which
 * counts only such calls, as a scripted model does on its own.
 */
export function keepScriptPosition(
  model: unknown,
  store: StateStore,
  session: string | (() => string | undefined),
): void {
  if (!scriptedModelModule().isScriptedModel(model)) return;
  const script = model.modelId;
  const sessionOf = typeof session === "string" ? () => session : session;
  let own = 0;
  model.keepPosition(async () => {
    const sessionId = sessionOf();
    if (sessionId === undefined) return own++;
    return (await store.increment(scriptPositionKey(sessionId, script))) - 1;
  });
}
