/**
 * How the CLI loads a config: hook logs in the live trace (stderr under --json, so stdout
 * holds the result alone), and sessions in SQLite beside the config unless runtime.state
 * says otherwise, so they survive the process.
 */
import { type LoadedConfig, loadConfig } from "../config/load-config.js";
import type { CliIO } from "./types.js";

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
      info: (message) => logs.line(`  ✎ ${message}`),
      warn: (message) => io.stderr.line(`  warning: ${message}`),
      error: (message) => io.stderr.line(`  error: ${message}`),
    },
    defaultState: { kind: "sqlite", path: ".hookwise/state.db" },
    claudeSettings,
  });
}
