/**
 * How the CLI loads a config: hook logs in the live trace (stderr under --json, so stdout
 * holds the result alone), and sessions in `.hookwise/` (default-state.ts) unless runtime.state
 * says otherwise, so they survive the process.
 */

import { type LoadedConfig, loadConfig } from "../config/load-config.js";
import { printableLines } from "../config/printable.js";
import { defaultState } from "./default-state.js";
import type { LiveTrace } from "./terminal/live-trace.js";
import { CONTINUATION, type Printer } from "./terminal/render-event.js";
import type { CliIO } from "./types.js";

/**
 * Where hooks' log lines and notifications go: the live trace of the run being shown (which
 * puts each one beside its hook's line), or straight to the output outside of one.
 */
export class LogRoute {
  readonly #out: Printer;
  #trace: LiveTrace | undefined;

  constructor(out: Printer) {
    this.#out = out;
  }

  line(text: string, hook?: string): void {
    if (this.#trace) this.#trace.log(text, hook);
    else this.#out.line(text);
  }

  /** Sends lines to `trace` until the returned function is called (which prints what waits). */
  through(trace: LiveTrace): () => void {
    this.#trace = trace;
    return () => {
      if (this.#trace === trace) this.#trace = undefined;
      trace.flush();
    };
  }
}

/** The hook a log line names (the config's actions pass `{ hook }`). */
function hookOf(detail: unknown): string | undefined {
  const hook = (detail as { hook?: unknown } | undefined)?.hook;
  return typeof hook === "string" ? hook : undefined;
}

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
  /** Where info lines go (default: stderr under --json, stdout otherwise). */
  logs: LogRoute = new LogRoute(json ? io.stderr : io.stdout),
): Promise<LoadedConfig> {
  return loadConfig(configPath, {
    logger: {
      debug() {},
      info: (message, detail) => logs.line(`  ✎ ${printableLines(message, CONTINUATION)}`, hookOf(detail)),
      warn: (message) => io.stderr.line(`  warning: ${printableLines(message, CONTINUATION)}`),
      error: (message) => io.stderr.line(`  error: ${printableLines(message, CONTINUATION)}`),
    },
    defaultState: defaultState(configPath, undefined, (message) =>
      io.stderr.line(`  warning: ${printableLines(message, CONTINUATION)}`),
    ),
    claudeSettings,
  });
}
