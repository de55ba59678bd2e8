/**
 * Runs the real Claude Code CLI (`claude -p`) against a fake Anthropic API, with a HOME of the
 * test's own and every switch for traffic beyond the model API off (telemetry, error reports,
 * update checks, feature flags).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic } from "./fake-anthropic.js";
import type { FakeModelServer, FakeTurn } from "./fake-model-server.js";
import { harnesses } from "./install.js";
import { type HarnessResult, killAllHarnesses, spawnHarness } from "./run-harness.js";

export interface RunHarnessOptions {
  /** The project folder the harness works in. */
  readonly cwd: string;
  /** The isolated home folder (settings, sessions and caches go there). */
  readonly home: string;
  readonly prompt: string;
  readonly fake: FakeModelServer;
  /** Extra environment variables for the harness (and the hooks it runs). */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra command-line arguments. */
  readonly args?: readonly string[];
  /** Default 120 s (the machine running the suite may be busy). */
  readonly timeoutMs?: number;
}

/**
 * The environment every harness gets: a PATH with node, a HOME of the test's own, and a TMPDIR
 * inside it, so what a harness leaves in its temporary folder goes with the test's folder.
 */
export function baseEnv(home: string): Record<string, string> {
  const tmp = join(home, ".tmp");
  mkdirSync(tmp, { recursive: true });
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    USER: "hookwise-test",
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    TMPDIR: tmp,
  };
}

export interface RunClaudeOptions extends RunHarnessOptions {
  /** The tools allowed without asking (`--allowedTools`); default `["Bash"]`, none when empty. */
  readonly allowedTools?: readonly string[];
}

/** The environment Claude Code runs in: offline but for the fake Anthropic API. */
export function claudeEnv(
  home: string,
  fake: FakeModelServer,
  env: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    ...baseEnv(home),
    ANTHROPIC_BASE_URL: fake.origin,
    ANTHROPIC_API_KEY: "sk-ant-fake-key-for-tests",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
    ...env,
  };
}

export function runClaude(options: RunClaudeOptions): Promise<HarnessResult> {
  const allowed = options.allowedTools ?? ["Bash"];
  return spawnHarness({
    command: harnesses.bin.claude,
    args: [
      "-p",
      options.prompt,
      "--output-format",
      "json",
      ...(allowed.length > 0 ? ["--allowedTools", allowed.join(",")] : []),
      ...(options.args ?? []),
    ],
    cwd: options.cwd,
    env: claudeEnv(options.home, options.fake, options.env),
    timeoutMs: options.timeoutMs ?? 120_000,
  });
}

/** `hookwise setup claude CONFIG` in `cwd`, with a HOME of the test's own (`cli`: how to run the CLI). */
export function setupClaude(
  cli: readonly string[],
  cwd: string,
  home: string,
  config = "hookwise.yaml",
): void {
  execFileSync(process.execPath, [...cli, "setup", "claude", config], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    stdio: "pipe",
  });
}

/** What a failed expectation about a harness run shows: its exit, the project's files, its output's ends. */
export function runContext(result: HarnessResult, cwd: string): string {
  return `exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}; files: ${readdirSync(cwd).join(", ")}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
}

export interface GuardedClaudeRun {
  /** The temporary folder that holds the project, the HOME and whatever the test puts there. */
  readonly folder: string;
  /** The project Claude Code works in. */
  readonly cwd: string;
  readonly fake: FakeModelServer;
  readonly result: HarnessResult;
  /** What a failed expectation shows (`runContext`). */
  readonly context: string;
}

/**
 * One Claude Code session in a project of its own, guarded by hookwise: the project's files
 * written (`files(folder)`: name → text, `hookwise.yaml` among them), `hookwise setup claude`
 * run with `cli`, then Claude Code run against a fake Anthropic API answering `turns`.
 * `endGuardedClaude` closes what it started.
 */
export async function runGuardedClaude(options: {
  readonly prefix: string;
  readonly cli: readonly string[];
  readonly files: (folder: string) => Readonly<Record<string, string>>;
  readonly turns: readonly FakeTurn[];
  readonly prompt: string;
  readonly allowedTools?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}): Promise<GuardedClaudeRun> {
  const folder = mkdtempSync(join(tmpdir(), options.prefix));
  const cwd = join(folder, "project");
  const home = join(folder, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [name, text] of Object.entries(options.files(folder))) writeFileSync(join(cwd, name), text);
  setupClaude(options.cli, cwd, home);
  const fake = await startFakeAnthropic(options.turns);
  const result = await runClaude({
    cwd,
    home,
    fake,
    prompt: options.prompt,
    timeoutMs: 170_000,
    ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
    ...(options.args ? { args: options.args } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return { folder, cwd, fake, result, context: runContext(result, cwd) };
}

/** Ends what `runGuardedClaude` started: harness processes, the fake API, the folder. */
export async function endGuardedClaude(run: GuardedClaudeRun | undefined): Promise<void> {
  killAllHarnesses();
  await run?.fake.close();
  if (run) rmSync(run.folder, { recursive: true, force: true });
}
