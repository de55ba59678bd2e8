/**
 * Every child hookwise starts dies with the CLI: a `shell` action's program, a Claude Code
 * hook's command and an MCP server, each with a grandchild (a `sleep` it started), on
 * SIGINT, SIGTERM and SIGHUP while the child runs, and at the normal end of a run. Real
 * processes: the CLI is started as a user starts it, the signal is sent to it alone (not to
 * its terminal's group), and afterwards neither the child nor the grandchild is alive.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const GRANDCHILD = resolve(ROOT, "test/fixtures/shell/grandchild.mjs");
const LEAKY = resolve(ROOT, "test/fixtures/mcp/leaky-server.mjs");
const NODE = JSON.stringify(process.execPath);

const dirs: string[] = [];
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

type Scenario = "shell" | "claude" | "mcp";

/** A config whose run starts a child with a grandchild and then waits (or, `ending`, finishes). */
function project(scenario: Scenario, ending: boolean): { dir: string; config: string; pidFile: string } {
  const dir = mkdtempSync(join(tmpdir(), `hookwise-children-${scenario}-`));
  dirs.push(dir);
  const pidFile = join(dir, "pids.json");
  const script = ending ? "- text: done\n" : "- delay_ms: 60000\n  text: never reached\n";
  const lines = ["models:", "  default: scripted:./script.yaml", "runtime: { state: { kind: memory } }"];
  const hang = ending ? " --exit" : "";
  if (scenario === "shell") {
    lines.push(
      "  hooks:",
      "    - id: build",
      "      on: run_start",
      `      action: { type: shell, command: '${process.execPath} ${GRANDCHILD} ${pidFile}${hang}', timeout: 60, on_error: inject }`,
    );
    lines[2] = "runtime:\n  state: { kind: memory }";
  } else if (scenario === "claude") {
    writeFileSync(
      join(dir, "settings.json"),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: `${NODE} ${GRANDCHILD} ${pidFile}${hang}`, timeout: 60 }] },
          ],
        },
      }),
    );
    lines.push("claude_hooks: ./settings.json");
  } else {
    lines.push(
      "toolsets:",
      `  leaky: { kind: mcp, command: ${NODE}, args: [${JSON.stringify(LEAKY)}], env: { SLEEPER_PID_FILE: ${JSON.stringify(pidFile)} } }`,
    );
    writeFileSync(
      join(dir, "script.yaml"),
      `- tool_calls: [{ name: leaky_spawn_sleeper, args: {} }]\n${script}`,
    );
  }
  if (scenario !== "mcp") writeFileSync(join(dir, "script.yaml"), script);
  const config = join(dir, "hookwise.yaml");
  writeFileSync(config, `${lines.join("\n")}\n`);
  return { dir, config, pidFile };
}

/** The pids the child wrote: the child and its grandchild (an MCP server writes its sleeper's only). */
function readPids(pidFile: string): number[] {
  const value = JSON.parse(readFileSync(pidFile, "utf8")) as number | { child: number; grandchild: number };
  return typeof value === "number" ? [value] : [value.child, value.grandchild];
}

/** Runs the CLI on `config`; with `signal`, sends it once the child's pids are written. */
async function runCli(
  config: string,
  pidFile: string,
  signal: NodeJS.Signals | undefined,
): Promise<{ code: number | null; stderr: string; started: number[] }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "run", config, "--prompt", "go"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  const killer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  try {
    if (signal === undefined) {
      const code = await exited;
      return { code, stderr, started: existsSync(pidFile) ? readPids(pidFile) : [] };
    }
    await until(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").length > 0,
      60_000,
      () => `the child's pids (stderr: ${stderr})`,
    );
    const started = readPids(pidFile);
    pids.push(...started);
    for (const pid of started) expect(alive(pid)).toBe(true);
    child.kill(signal);
    return { code: await exited, stderr, started };
  } finally {
    clearTimeout(killer);
  }
}

const SCENARIOS: Scenario[] = ["shell", "claude", "mcp"];
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

describe.each(SCENARIOS)("a %s child with a grandchild", (scenario) => {
  it.concurrent.each(SIGNALS)(
    "%s to the CLI: it exits 130 and neither outlives it",
    async (signal) => {
      const { config, pidFile } = project(scenario, false);
      const { code, stderr, started } = await runCli(config, pidFile, signal);
      expect(code, stderr).toBe(130);
      expect(stderr).toContain("hookwise: interrupted");
      await until(
        () => started.every((pid) => !alive(pid)),
        5_000,
        () => `still alive: ${started.filter(alive).join(", ")}`,
      );
    },
    120_000,
  );

  it("the run ends normally: nothing it started is left running", async () => {
    const { config, pidFile } = project(scenario, true);
    const { code, stderr, started } = await runCli(config, pidFile, undefined);
    pids.push(...started);
    expect(code, stderr).toBe(0);
    // The shell action's and the hook's child exit on their own; their sleep is left behind.
    expect(started.length).toBeGreaterThan(0);
    await until(
      () => started.every((pid) => !alive(pid)),
      5_000,
      () => `still alive: ${started.filter(alive).join(", ")}`,
    );
  }, 120_000);
});
