/**
 * How the CLI loads a config: hook logs in the live trace (stderr under --json, so stdout
 * holds the result alone), and sessions in SQLite beside the config unless runtime.state
 * says otherwise, so they survive the process.
 */
import { type LoadedConfig, loadConfig } from "../config/load-config.js";
import { printableLines } from "../config/printable.js";
import { CONTINUATION } from "./render-event.js";
import type { CliIO } from "./types.js";

/** A notification as the CLI prints it, its text escaped and its lines continued. */
export function notificationLine(note: { level: string; title: string; message: string }): string {
  return `  🔔 [${note.level}] ${printableLines(`${note.title}: ${note.message}`, CONTINUATION)}`;
}

export function loadCliConfig(
  configPath: string,
  io: CliIO,
  json: boolean | undefined,
  /** `--claude-settings`: more Claude Code settings files whose hooks run. */
  claudeSettings: readonly string[] = [],
): Promise<LoadedConfig> {
  const logs = json ? io.stderr : io.stdout;
  return loadConfig(configPath, {
    logger: {
      debug() {},
      info: (message) => logs.line(`  ✎ ${printableLines(message, CONTINUATION)}`),
      warn: (message) => io.stderr.line(`  warning: ${printableLines(message, CONTINUATION)}`),
      error: (message) => io.stderr.line(`  error: ${printableLines(message, CONTINUATION)}`),
    },
    defaultState: { kind: "sqlite", path: ".hookwise/state.db" },
    claudeSettings,
  });
}
