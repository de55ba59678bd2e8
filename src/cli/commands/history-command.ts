/**
 * `hookwise history <config> --session <id>`: a session's transcript as the store holds it,
 * with the messages compaction removed (archived, oldest first): nothing compaction does
 * is lost from view. `--json` prints `{ id, messages, archived }`; `--jsonl` exports the
 * session with its recorded runs, one JSON document a line (what `replay --from` reads).
 */
import type { RunRecord } from "../../agent/run-record.js";
import { loadRunRecords } from "../../agent/run-recorder.js";
import { loadConfig } from "../../config/load-config.js";
import { printable } from "../../config/printable.js";
import { transcriptText } from "../../context/transcript-text.js";
import type { ModelMessage } from "../../events/payloads.js";
import { defaultState } from "../default-state.js";
import { EXIT } from "../exit-codes.js";
import { noSessionGiven, sessionsHint } from "../recorded-runs.js";
import { sessionJsonl } from "../session-jsonl.js";
import type { CliIO } from "../types.js";

const LINE = 160;

function lines(messages: readonly ModelMessage[]): string[] {
  return messages.map((message) => {
    const text = printable(transcriptText([message]).replace(/\s+/g, " "));
    return `  ${text.length > LINE ? `${text.slice(0, LINE - 1)}…` : text}`;
  });
}

export async function historyCommand(
  configPath: string,
  options: { session?: string; json?: boolean; jsonl?: boolean },
  io: CliIO,
): Promise<number> {
  const id = options.session;
  if (id === undefined) throw await noSessionGiven(configPath, "give --session ID", io);
  const loaded = await loadConfig(configPath, {
    logger: { debug() {}, info() {}, warn() {}, error: (message) => io.stderr.line(`  error: ${message}`) },
    // The store `hookwise run` writes to, unless runtime.state says otherwise.
    defaultState: defaultState(configPath),
  });
  try {
    const session = await loaded.store.loadSession(id);
    // A harness's session (hookwise hook) has no transcript here: its recorded events are its history.
    const harnessRuns = session ? [] : (await loadRunRecords(loaded.store, id)).filter((run) => run.harness);
    if (!session && harnessRuns.length)
      return printHarnessHistory({ ...options, session: id }, harnessRuns, io);
    if (!session) {
      io.stderr.line(
        `hookwise: no session "${id}" in the ${loaded.store.kind} store of ${configPath}${await sessionsHint(loaded.store)}`,
      );
      // As trace and replay: a session that is not there is a mistake in the command (2).
      return EXIT.usage;
    }
    const archived = session.archived ?? [];
    if (options.jsonl) {
      for (const line of sessionJsonl(session, await loadRunRecords(loaded.store, session.id)))
        io.stdout.line(line);
      return EXIT.completed;
    }
    if (options.json) {
      io.stdout.line(JSON.stringify({ id: session.id, messages: session.messages, archived }, null, 2));
      return EXIT.completed;
    }
    io.stdout.line(
      `session ${session.id} · ${session.messages.length} messages · ${archived.length} archived by compaction`,
    );
    if (archived.length) {
      io.stdout.line("archived (removed from the context by compaction, oldest first):");
      for (const line of lines(archived)) io.stdout.line(line);
    }
    io.stdout.line("transcript:");
    for (const line of lines(session.messages)) io.stdout.line(line);
    return EXIT.completed;
  } finally {
    await loaded.close();
  }
}

/** A harness session's history: each hook event hookwise answered, oldest first, with its decision. */
function printHarnessHistory(
  options: { session: string; json?: boolean; jsonl?: boolean },
  runs: readonly RunRecord[],
  io: CliIO,
): number {
  if (options.jsonl) {
    for (const line of sessionJsonl({ id: options.session, messages: [] }, runs)) io.stdout.line(line);
    return EXIT.completed;
  }
  if (options.json) {
    io.stdout.line(
      JSON.stringify({ id: options.session, messages: [], archived: [], events: runs }, null, 2),
    );
    return EXIT.completed;
  }
  const harness = runs[0]!.harness!.name;
  io.stdout.line(
    `session ${options.session} · ${harness} · ${runs.length} hook events answered by hookwise hook`,
  );
  for (const run of runs) {
    const call = run.steps[0]?.calls[0];
    const subject = call
      ? ` ${call.toolName} ${JSON.stringify(call.args)}`
      : run.harness!.event === run.input
        ? ""
        : ` ${run.input}`;
    const verdict = run.harness!.decision === "none" ? "no decision" : run.harness!.decision;
    const why = run.reason ? `: ${run.reason}` : "";
    const text = printable(`${run.harness!.event}${subject} → ${verdict}${why}`.replace(/\s+/g, " "));
    io.stdout.line(
      `  ${new Date(run.startedAt).toISOString()}  ${text.length > LINE ? `${text.slice(0, LINE - 1)}…` : text}`,
    );
  }
  return EXIT.completed;
}
