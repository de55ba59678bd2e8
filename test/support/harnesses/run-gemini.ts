/**
 * Runs the real Gemini CLI (`gemini -p … --yolo`) against a fake Gemini API, with a HOME of the
 * test's own whose `~/.gemini/settings.json` selects API-key auth, turns folder trust, telemetry,
 * usage statistics and update checks off, and merges the test's own settings (e.g. `hooks`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harnesses } from "./install.js";
import { baseEnv, type RunHarnessOptions } from "./run-claude.js";
import { type HarnessResult, spawnHarness } from "./run-harness.js";

export interface RunGeminiOptions extends RunHarnessOptions {
  /** Top-level keys merged into the user settings (`~/.gemini/settings.json`), e.g. `hooks`. */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/** The user settings a test run starts from. */
export function geminiSettings(extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    general: {
      disableAutoUpdate: true,
      disableUpdateNag: true,
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...extra,
  };
}

export function runGemini(options: RunGeminiOptions): Promise<HarnessResult> {
  const dir = join(options.home, ".gemini");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(geminiSettings(options.settings), null, 2)}\n`);
  return spawnHarness({
    command: harnesses.bin.gemini,
    args: ["-m", "gemini-2.5-pro", "-p", options.prompt, "--yolo", ...(options.args ?? [])],
    cwd: options.cwd,
    env: {
      ...baseEnv(options.home),
      GEMINI_API_KEY: "fake-gemini-key-for-tests",
      GOOGLE_GEMINI_BASE_URL: options.fake.origin,
      GEMINI_CLI_NO_RELAUNCH: "true",
      ...options.env,
    },
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}
