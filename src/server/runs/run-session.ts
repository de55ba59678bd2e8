/**
 * The session whose run is executing, for code that one shared object runs for many sessions
 * (a scripted model keeping its place in the script per session). Every run the server
 * drives runs inside `inRunSession` (`LiveRuns`), so whatever it awaits sees its session.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const current = new AsyncLocalStorage<string>();

/** Runs `body`, and all it starts, as the session's. */
export function inRunSession<T>(sessionId: string, body: () => T): T {
  return current.run(sessionId, body);
}

/**
 * The session of the run executing now; undefined outside a run the server drives (an agent
 * of the same loaded config run directly by the program that serves it).
 */
export function runSession(): string | undefined {
  return current.getStore();
}
