/**
 * Runs the real Codex CLI (`codex exec`) against a fake OpenAI Responses API. Its CODEX_HOME is
 * `<home>/.codex`, where a `config.toml` is written naming the fake as the model provider,
 * trusting the project, and turning off update checks, analytics, feedback and the plugin and app
 * catalogs it would otherwise fetch at startup.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harnesses } from "./install.js";
import { baseEnv, type RunHarnessOptions } from "./run-claude.js";
import { type HarnessResult, spawnHarness } from "./run-harness.js";

export interface RunCodexOptions extends RunHarnessOptions {
  /** TOML appended to the generated `config.toml` (e.g. `[hooks]` tables). */
  readonly extraConfig?: string;
  /**
   * Keep the `config.toml` already in `<home>/.codex` (written by `writeCodexConfig`, then
   * perhaps added to, e.g. hook trust) instead of writing a new one. Default false.
   */
  readonly keepConfig?: boolean;
  /**
   * Run hooks that are not trusted (`--dangerously-bypass-hook-trust`). Default true: Codex
   * silently skips an untrusted hook otherwise.
   */
  readonly bypassHookTrust?: boolean;
}

const tomlString = (value: string) => JSON.stringify(value);

/** The `config.toml` for a run against `origin`, trusting `cwd`. */
export function codexConfig(origin: string, cwd: string): string {
  return [
    'model = "gpt-5"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = ${tomlString(`${origin}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_OPENAI_API_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    // Plugin marketplaces, apps and recommendations are fetched from the network at startup.
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "plugin_sharing = false",
    "apps = false",
    "tool_suggest = false",
    "skill_mcp_dependency_install = false",
    "in_app_updates = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    `[projects.${tomlString(cwd)}]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
}

/** Writes `<home>/.codex/config.toml` for a run against `origin` in `cwd`. */
export function writeCodexConfig(home: string, origin: string, cwd: string, extraConfig = ""): void {
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "config.toml"), `${codexConfig(origin, cwd)}${extraConfig}`);
}

export function runCodex(options: RunCodexOptions): Promise<HarnessResult> {
  const codexHome = join(options.home, ".codex");
  if (!options.keepConfig)
    writeCodexConfig(options.home, options.fake.origin, options.cwd, options.extraConfig);
  return spawnHarness({
    command: harnesses.bin.codex,
    args: [
      "exec",
      ...(options.bypassHookTrust === false ? [] : ["--dangerously-bypass-hook-trust"]),
      "--skip-git-repo-check",
      "--color",
      "never",
      ...(options.args ?? []),
      options.prompt,
    ],
    cwd: options.cwd,
    env: {
      ...baseEnv(options.home),
      CODEX_HOME: codexHome,
      FAKE_OPENAI_API_KEY: "sk-fake-key-for-tests",
      ...options.env,
    },
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}
