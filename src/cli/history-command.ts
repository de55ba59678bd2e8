/**
 * `hookwise history <config> --session <id>`: a session's transcript as the store holds it,
 * with the messages compaction removed (archived, oldest first): nothing compaction does
 * is lost from view. `--json` prints `{ id, messages, archived }`; `--jsonl` exports the
 * session with its recorded runs, one JSON document a line (what `replay --from` reads).
 */

import { loadRunRecords } from "../agent/run-recorder.js";
import { loadConfig } from "../config/load-config.js";
import { printable } from "../config/printable.js";
import { transcriptText } from "../context/transcript-text.js";
import type { ModelMessage } from "../events/payloads.js";
import { defaultState } from "./default-state.js";
import { EXIT } from "./exit-codes.js";
import { sessionJsonl } from "./session-jsonl.js";
import type { CliIO } from "./types.js";

const LINE = 160;

function lines(messages: readonly ModelMessage[]): string[] {
  return messages.map((message) => {
    const text = printable(transcriptText([message]).replace(/\s+/g, " "));
    return `  ${text.length > LINE ? `${text.slice(0, LINE - 1)}…` : text}`;
  });
}

export async function historyCommand(
  configPath: string,
  options: { session: string; json?: boolean; jsonl?: boolean },
  io: CliIO,
): Promise<number> {
  const loaded = await loadConfig(configPath, {
    logger: { debug() {}, info() {}, warn() {}, error: (message) => io.stderr.line(`  error: ${message}`) },
    // The store `hookwise run` writes to, unless runtime.state says otherwise.
    defaultState: defaultState(configPath),
  });
  try {
    const session = await loaded.store.loadSession(options.session);
    if (!session) {
      io.stderr.line(
        `hookwise: no session "${options.session}" in the ${loaded.store.kind} store of ${configPath}`,
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
