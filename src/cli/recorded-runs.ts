/**
 * The recorded runs a command reads: a session's, from the store `hookwise run` writes to
 * (`.hookwise/` beside the config unless `runtime.state` says otherwise), or a JSONL export.
 */

import { readFileSync } from "node:fs";
import type { RunRecord } from "../agent/run-record.js";
import { loadRunRecords, recordedSessions } from "../agent/run-recorder.js";
import { loadConfig } from "../config/load-config.js";
import type { StateStore } from "../state/state-store.js";
import { defaultState } from "./default-state.js";
import { runsFromJsonl } from "./session-jsonl.js";
import type { CliIO } from "./types.js";
import { UsageError } from "./usage-error.js";

export async function recordedRuns(
  configPath: string,
  options: { session?: string; from?: string },
  io: CliIO,
): Promise<{ sessionId: string; runs: RunRecord[] }> {
  if (options.session !== undefined && options.from !== undefined)
    throw new UsageError("give either --session ID or --from file.jsonl");
  if (options.session === undefined && options.from === undefined)
    throw await noSessionGiven(configPath, "give either --session ID or --from file.jsonl", io);
  if (options.from !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.from, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new UsageError(
        `cannot read ${options.from}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (code ?? String(error))}; expected a session exported with hookwise history --jsonl`,
      );
    }
    const { sessionId, runs } = runsFromJsonl(text, options.from);
    if (runs.length === 0)
      throw new UsageError(
        `${options.from} holds no recorded run: export a session recorded with runtime.record_runs (hookwise history --jsonl)`,
      );
    return { sessionId: sessionId ?? runs[0]!.sessionId, runs };
  }
  const session = options.session!;
  const loaded = await loadStore(configPath, io);
  try {
    const runs = await loadRunRecords(loaded.store, session);
    if (runs.length === 0) {
      const known = await loaded.store.loadSession(session);
      throw new UsageError(
        known
          ? `session "${session}" has no recorded run in the ${loaded.store.kind} store of ${configPath}: its runs were not recorded (runtime.record_runs: true records them)`
          : `no session "${session}" in the ${loaded.store.kind} store of ${configPath}${await sessionsHint(loaded.store)}`,
      );
    }
    return { sessionId: session, runs };
  } finally {
    await loaded.close();
  }
}

const LISTED = 5;

/**
 * The sessions a store has recorded runs of, latest first, to follow "no session …" (a harness's
 * session id is the harness's own, which the user may not have at hand); "" when there are none.
 */
export async function sessionsHint(store: StateStore): Promise<string> {
  const sessions = await recordedSessions(store);
  if (sessions.length === 0) return "";
  const listed = sessions
    .slice(0, LISTED)
    .map(
      (session) =>
        `${session.sessionId} (${session.runs} run${session.runs === 1 ? "" : "s"}, latest ${new Date(session.latestAt).toISOString().slice(0, 16).replace("T", " ")}Z)`,
    );
  const more = sessions.length > LISTED ? `, and ${sessions.length - LISTED} more` : "";
  return `; sessions with recorded runs, latest first: ${listed.join(", ")}${more}`;
}

/** The config loaded for its store: the one `hookwise run` writes to, unless runtime.state says otherwise. */
function loadStore(configPath: string, io: CliIO) {
  return loadConfig(configPath, {
    logger: { debug() {}, info() {}, warn() {}, error: (message) => io.stderr.line(`  error: ${message}`) },
    defaultState: defaultState(configPath),
  });
}

/** The usage error of a command given no session: `ask`, then the sessions the store recorded runs of. */
export async function noSessionGiven(configPath: string, ask: string, io: CliIO): Promise<UsageError> {
  const loaded = await loadStore(configPath, io);
  try {
    return new UsageError(`${ask}${await sessionsHint(loaded.store)}`);
  } finally {
    await loaded.close();
  }
}
