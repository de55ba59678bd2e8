/**
 * Recording runs (`createAgent({ recordRuns })`, config `runtime.record_runs`). A recording
 * agent is told where each step and each tool call's hooks begin in the run's trace
 * (`LoopRuntime.onStepStart`, `onToolCallStart`) and every provider answer
 * (`LoopRuntime.onAnswer`) without a hook: a run pays no event, trace entry or copy of its
 * history for them. It registers one marker hook, an inspection of every provider error
 * (which fires only when a provider fails).
 * When the run ends its record is built from the result, the positions and the marks
 * (removed from the trace) and saved in the store under `hookwise:runs:<sessionId>:…`, kept 30 days:
 * packed and encoded once (run-record-pack.ts), straight from the result when no hook fired
 * and nothing asks for the record itself.
 * An agent that does not record registers nothing: its runs pay nothing.
 */
import type { AnyHook } from "../hooks/define-hook.js";
import { defineHook } from "../hooks/define-hook.js";
import type { RunResult } from "../loop/run-result.js";
import type { ModelAnswer } from "../loop/types.js";
import type { StateStore, StoreWrite } from "../state/state-store.js";
import type { buildRunRecord, RunMarks, RunRecord } from "./run-record.js";
import { runRecordModule } from "./run-record.part.js";
import { RunRecordError } from "./run-record-error.js";
import {
  answerList,
  encodeRunRecord,
  encodeUnhookedRun,
  type PackedRunRecord,
  unpackRunRecord,
} from "./run-record-pack.js";
import { packedRecordProblem, runRecordProblem } from "./run-record-shape.js";

const PREFIX = "hookwise:runs:";
const RECORD_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const FIRST = Number.MIN_SAFE_INTEGER;

/**
 * A finished run's record as the recorder keeps it: the record, or, when nothing asks for the
 * record itself (no `onRecord`) and no hook fired in the run, only its stored form, packed
 * and encoded straight from the result (`encodeUnhookedRun`).
 */
export type FinishedRecord = RunRecord | PackedRunRecord;

export interface RunRecorder {
  readonly hooks: AnyHook[];
  /** Keeps each answer of the agent's runs (the agent's `LoopRuntime.onAnswer`). */
  readonly onAnswer: (answer: ModelAnswer) => void;
  /** Keeps where each step of the agent's runs began in its trace (`LoopRuntime.onStepStart`). */
  readonly onStepStart: (runId: string, at: number) => void;
  /** Keeps where each tool call's hooks began (`LoopRuntime.onToolCallStart`). */
  readonly onToolCallStart: (runId: string, toolCallId: string, at: number) => void;
  /**
   * Builds the record of a finished run (once per result: later calls return the same
   * record), removes its marks from the trace, hands it to `onRecord`. With no `onRecord`,
   * a run no hook fired in gets only its stored form (`FinishedRecord`): what `save` writes.
   */
  finish(result: RunResult, meta: { agent: string; input: string; startedAt: number }): FinishedRecord;
  /**
   * The record a suspended run was saved with: kept by this recorder when the run
   * suspended here, else read from the store. Undefined when it was not recorded.
   */
  earlier(sessionId: string, runId: string): Promise<RunRecord | undefined>;
  /**
   * Builds the record of a resumed run (once per result), carrying `earlier` on; `restored`:
   * how many trace entries the run suspended with (they lead its trace). Marks leave the trace.
   */
  finishResumed(
    result: RunResult,
    earlier: RunRecord,
    meta: { restored: number; resumedAt: number },
  ): RunRecord;
  /**
   * The writes to commit with a finished run's session (`LoopRuntime.onCommit`): its record,
   * built here (later `finish` calls return it), when this recorder saves. `save` of a
   * record written so writes nothing.
   */
  readonly onCommit: (
    result: RunResult,
    run: { startedAt: number; input: string },
  ) => StoreWrite[] | undefined;
  /** Saves a record in the store (when this recorder saves); a failure is logged, never thrown. */
  save(record: FinishedRecord): Promise<void>;
  /** Lets go of what was kept for a run that ended with no result (`LoopRuntime.onRunFailed`). */
  readonly forget: (runId: string) => void;
}

/** A result's record as its recorder keeps it: `finished` once `finish` handed it on. */
interface Kept {
  readonly record: FinishedRecord;
  readonly finished: boolean;
}

export function runRecorder(options: {
  store: StateStore | undefined;
  /** The agent's name: given, records are written with their run's commit when the store can. */
  agent?: string;
  onRecord?: (record: RunRecord) => void;
  warn: (message: string) => void;
}): RunRecorder {
  const marks = new Map<string, RunMarks>();
  /**
   * A result's record, kept on the result (`Kept`): built for its commit (`onCommit`) until
   * `finish` hands it on, then finished. On the result, not in a `WeakMap`: V8's
   * young-generation collector keeps a weak map's values alive even when their key (young
   * too) is dead, so what a record holds of its run would outlive the collection that should
   * free it, promoted to the old generation. A non-enumerable symbol property, which
   * JSON, spreads, `structuredClone`, `Object.keys` and equality checks leave out.
   */
  const KEPT = Symbol("hookwise.runRecord");
  const keptOf = (result: RunResult) => (result as { [KEPT]?: Kept })[KEPT];
  const keep = (result: RunResult, kept: Kept) =>
    Object.defineProperty(result, KEPT, { value: kept, configurable: true });
  /** Marks a record written with its run's commit (`save` has nothing left to write), on the record. */
  const COMMITTED = Symbol("hookwise.committed");
  const agentName = options.agent;
  /** Records of runs that suspended here, until they are resumed. */
  const suspended = new Map<string, RunRecord>();
  const done = <R extends FinishedRecord>(result: RunResult, record: R): R => {
    keep(result, { record, finished: true });
    // Only a record itself: a stored form is made only for a run that did not suspend, with no `onRecord`.
    if (record.format === 1) {
      if (record.outcome === "suspended") suspended.set(record.runId, record);
      else suspended.delete(record.runId);
      options.onRecord?.(record);
    } else suspended.delete(record.runId);
    return record;
  };
  /**
   * A finished run's record: only its stored form when nothing asks for the record itself
   * and no hook fired in the run (the common run: no record, no copies, encoded once).
   */
  const recordOf = (result: RunResult, runMarks: RunMarks, meta: Parameters<typeof buildRunRecord>[2]) =>
    (options.onRecord === undefined ? encodeUnhookedRun(result, runMarks, meta) : undefined) ??
    runRecordModule().buildRunRecord(result, runMarks, meta);
  const marksOf = (runId: string): RunMarks => {
    let found = marks.get(runId);
    if (!found) {
      found = runRecordModule().noMarks();
      marks.set(runId, found);
    }
    return found;
  };
  const hooks: AnyHook[] = [
    defineHook({
      name: runRecordModule().ATTEMPT_MARK,
      on: "model_error",
      kind: "inspect",
      priority: FIRST,
      scope: "self",
      handler: (event, ctx) => {
        const { type, message, status, retryable } = event.error;
        marksOf(ctx.runId).attempts.push({
          step: ctx.step,
          attempt: event.attempt,
          error: { type, message, retryable, ...(status !== undefined ? { status } : {}) },
        });
      },
    }),
  ];
  return {
    hooks,
    onStepStart(runId, at) {
      marksOf(runId).points.push(at);
    },
    onToolCallStart(runId, toolCallId, at) {
      marksOf(runId).points.push(at, toolCallId);
    },
    onAnswer({ runId, step, attempt, model, turn }) {
      const runMarks = marksOf(runId);
      // An answer of the run's model is kept as the list it is stored as: no copy of it first.
      if (runMarks.model === undefined) runMarks.model = model;
      if (model !== undefined && runMarks.model === model) {
        const list = answerList(step, attempt, turn);
        if (list !== undefined) {
          runMarks.attempts.push(list);
          return;
        }
      }
      // Each call's arguments as the loop parsed them once (the transcript's tool call holds
      // the same): `{}` for none, the text itself when it is not JSON.
      const calls = turn.toolCalls;
      const toolCalls: { id: string; name: string; args: unknown }[] = [];
      for (let index = 0; index < calls.length; index++) {
        const call = calls[index]!;
        toolCalls.push({ id: call.toolCallId, name: call.toolName, args: call.args });
      }
      const answer = {
        text: turn.text,
        toolCalls,
        finishReason: turn.finishReason,
        usage: { inputTokens: turn.usage.inputTokens, outputTokens: turn.usage.outputTokens },
      };
      // The attempt's model is known here: the record need not look for it in the requests.
      runMarks.attempts.push(
        model === undefined ? { step, attempt, answer } : { step, attempt, model, answer },
      );
    },
    onCommit(result, run) {
      if (!options.store || agentName === undefined) return undefined;
      const runMarks = marks.get(result.runId) ?? runRecordModule().noMarks();
      marks.delete(result.runId);
      const record = recordOf(result, runMarks, {
        agent: agentName,
        input: run.input,
        startedAt: run.startedAt,
        endedAt: Date.now(),
      });
      keep(result, { record, finished: false });
      Object.defineProperty(record, COMMITTED, { value: true });
      return [{ key: recordKey(record), value: storedForm(record), ttlMs: RECORD_TTL_MS }];
    },
    finish(result, meta) {
      const kept = keptOf(result);
      if (kept?.finished) return kept.record;
      if (kept) return done(result, kept.record);
      const runMarks = marks.get(result.runId) ?? runRecordModule().noMarks();
      marks.delete(result.runId);
      return done(result, recordOf(result, runMarks, { ...meta, endedAt: Date.now() }));
    },
    async earlier(sessionId, runId) {
      const kept = suspended.get(runId);
      if (kept) return kept;
      if (!options.store) return undefined;
      try {
        return await loadRunRecord(options.store, sessionId, runId);
      } catch (error) {
        options.warn(
          `the record of run ${runId} could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
        return undefined;
      }
    },
    finishResumed(result, earlier, meta) {
      // A resumed run's result is finished here only: its record is one itself.
      const kept = keptOf(result);
      if (kept?.finished) return kept.record as RunRecord;
      const runMarks = marks.get(result.runId) ?? runRecordModule().noMarks();
      marks.delete(result.runId);
      return done(
        result,
        runRecordModule().buildResumedRecord(earlier, result, runMarks, { ...meta, endedAt: Date.now() }),
      );
    },
    forget(runId) {
      marks.delete(runId);
    },
    async save(record) {
      if (!options.store || Object.hasOwn(record, COMMITTED)) return;
      try {
        await options.store.set(recordKey(record), storedForm(record), { ttlMs: RECORD_TTL_MS });
      } catch (error) {
        options.warn(
          `run ${record.runId} was not recorded: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}

function recordKey(record: Pick<RunRecord, "sessionId" | "startedAt" | "runId">): string {
  return `${PREFIX}${record.sessionId}:${String(record.startedAt).padStart(15, "0")}:${record.runId}`;
}

/** A record as it is stored: packed and encoded once (format 3, see run-record-pack.ts). */
function storedForm(record: FinishedRecord): PackedRunRecord {
  return record.format === 1 ? encodeRunRecord(record) : record;
}

/** Stores a record (packed and encoded once: format 3, see run-record-pack.ts). */
export function saveRunRecord(store: StateStore, record: RunRecord): Promise<void> {
  return store.set(recordKey(record), encodeRunRecord(record), { ttlMs: RECORD_TTL_MS });
}

/** The record stored under `key` (undefined: none), unpacked and checked. */
function storedRecord(store: StateStore, key: string, value: unknown): RunRecord | undefined {
  if (value === undefined) return undefined;
  // A packed record is unpacked once its lists are there; the record is then checked whole.
  const format = (value as { format?: unknown } | null)?.format;
  const packed = format === 2 || format === 3;
  let problem = packed ? packedRecordProblem(value) : undefined;
  const record = problem === undefined ? unpackRunRecord(value) : value;
  problem ??= runRecordProblem(record);
  if (problem) throw new RunRecordError({ key, location: store.location, problem });
  return record as RunRecord;
}

/** A session's recorded runs, oldest first (none when it was not recorded). */
/**
 * The keys of a session's records. A session id may hold `:`, so the prefix of `a` also
 * lists `a:b`'s records: only keys whose rest is `<startedAt>:<runId>` are this session's.
 */
async function sessionKeys(store: StateStore, sessionId: string): Promise<string[]> {
  const prefix = `${PREFIX}${sessionId}:`;
  const keys = await store.keys(prefix);
  return keys.filter((key) => OWN_KEY.test(key.slice(prefix.length))).sort();
}

/** What follows a session's prefix in its own records' keys (run ids hold no `:`). */
const OWN_KEY = /^\d{15}:[^:]+$/;

export async function loadRunRecords(store: StateStore, sessionId: string): Promise<RunRecord[]> {
  const keys = await sessionKeys(store, sessionId);
  const values = await Promise.all(keys.map((key) => store.get(key)));
  const records: RunRecord[] = [];
  for (let index = 0; index < keys.length; index++) {
    const record = storedRecord(store, keys[index]!, values[index]);
    if (record) records.push(record);
  }
  return records;
}

/** One recorded run of a session (its latest record: a resumed run's replaces the suspended one's). */
export async function loadRunRecord(
  store: StateStore,
  sessionId: string,
  runId: string,
): Promise<RunRecord | undefined> {
  const keys = (await sessionKeys(store, sessionId)).filter((key) => key.endsWith(`:${runId}`));
  const key = keys.at(-1);
  if (key === undefined) return undefined;
  return storedRecord(store, key, await store.get(key));
}

/** A session that has recorded runs: its id, how many, and the key of its latest. */
export interface RecordedSession {
  readonly sessionId: string;
  readonly runs: number;
  readonly latestKey: string;
  readonly latestAt: number;
}

/** Every session with recorded runs, the most recently active first. */
export async function recordedSessions(store: StateStore): Promise<RecordedSession[]> {
  const sessions = new Map<string, RecordedSession>();
  for (const key of await store.keys(PREFIX)) {
    const rest = key.slice(PREFIX.length);
    const match = /^(.*):(\d{15}):[^:]+$/.exec(rest);
    if (!match) continue;
    const [, sessionId, startedAt] = match;
    const at = Number(startedAt);
    const seen = sessions.get(sessionId!);
    if (seen === undefined || at >= seen.latestAt)
      sessions.set(sessionId!, {
        sessionId: sessionId!,
        runs: (seen?.runs ?? 0) + 1,
        latestKey: key,
        latestAt: at,
      });
    else sessions.set(sessionId!, { ...seen, runs: seen.runs + 1 });
  }
  return [...sessions.values()].sort((a, b) => b.latestAt - a.latestAt);
}

/** The run recorded under `key` (from `recordedSessions`), checked. */
export async function loadRecordAt(store: StateStore, key: string): Promise<RunRecord | undefined> {
  return storedRecord(store, key, await store.get(key));
}

/** Whether runs are recorded by default: when the agent was given a store shared beyond this process. */
export function recordsByDefault(store: StateStore | undefined): boolean {
  return store !== undefined && store.sharing !== "process";
}
