/**
 * Exactly-once execution of an approved tool call across processes.
 *
 *   1. `setIfAbsent(<key>:intent)` BEFORE the body runs — only one process ever wins it;
 *   2. the body runs;
 *   3. `set(<key>:result)` with what it returned or threw.
 *
 * A later attempt (a second resume, after a crash) that loses step 1 never runs the body:
 * with a recorded result it replays that result; without one (the process died between
 * 1 and 3) it throws ToolOutcomeUnknownError — the side effect may or may not have
 * happened, and running it again could do it twice.
 */
import { hostname } from "node:os";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { OnceGuard } from "../loop/batch/types.js";
import type { StateStore } from "../state/state-store.js";
import { storable } from "./storable.js";

export interface ExecutionIntent {
  at: number;
  pid: number;
  host: string;
  label: string;
}

type RecordedOutcome = { ok: true; value: unknown } | { ok: false; message: string; name?: string };

/** The tool started in an earlier process of this run, which stopped before recording its result. */
export class ToolOutcomeUnknownError extends HookwiseError {
  override readonly name = "ToolOutcomeUnknownError";
  readonly intent: ExecutionIntent | undefined;

  constructor(label: string, intent: ExecutionIntent | undefined) {
    const when = intent
      ? ` at ${new Date(intent.at).toISOString()} (pid ${intent.pid} on ${intent.host})`
      : "";
    super(
      `outcome unknown: ${label} was started${when}, but that process stopped before recording its result; ` +
        "hookwise did not run it again (it runs at most once), so check whether it took effect before asking for it again",
    );
    this.intent = intent;
  }

  static override isInstance(error: unknown): error is ToolOutcomeUnknownError {
    return HookwiseError.isInstance(error) && error.name === "ToolOutcomeUnknownError";
  }
}

/** A recorded failure, replayed: the tool threw this in an earlier process. */
class RecordedToolError extends Error {
  constructor(message: string, name = "Error") {
    super(message);
    this.name = name;
  }
}

export function intentKey(key: string): string {
  return `${key}:intent`;
}

export function exactlyOnce(store: StateStore, key: string, label: string): OnceGuard {
  let replayed = false;
  return {
    get replayed() {
      return replayed;
    },
    async run<T>(body: () => Promise<T> | T): Promise<T> {
      const intent: ExecutionIntent = { at: Date.now(), pid: process.pid, host: hostname(), label };
      if (!(await store.setIfAbsent(intentKey(key), intent))) {
        replayed = true;
        const recorded = await store.get<RecordedOutcome>(`${key}:result`);
        if (recorded?.ok === true) return recorded.value as T;
        if (recorded?.ok === false) throw new RecordedToolError(recorded.message, recorded.name);
        throw new ToolOutcomeUnknownError(label, await store.get<ExecutionIntent>(intentKey(key)));
      }
      let outcome: RecordedOutcome;
      let value: T;
      try {
        value = await body();
        outcome = { ok: true, value: storable(value) };
      } catch (error) {
        outcome =
          error instanceof Error
            ? { ok: false, message: error.message, name: error.name }
            : { ok: false, message: String(error) };
        await store.set(`${key}:result`, outcome);
        throw error;
      }
      await store.set(`${key}:result`, outcome);
      return value;
    },
  };
}

/** Removes what a guard recorded (once the run's transcript holds the result). */
export async function forgetOnce(store: StateStore, key: string): Promise<void> {
  await store.delete(intentKey(key));
  await store.delete(`${key}:result`);
}
