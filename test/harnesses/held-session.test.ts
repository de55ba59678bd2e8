/**
 * A session hookwise stopped at its start stays stopped, with the real Gemini CLI and Claude
 * Code: both start a session whatever a SessionStart hook answers (`continue: false`
 * included), so hookwise holds the stop in the config's store and refuses the session's later
 * prompts and tool calls, each in a `hookwise hook` process of its own. Codex CLI ends the
 * session there itself.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import { startFakeGemini } from "../support/harnesses/fake-gemini.js";
import { startFakeOpenAiResponses } from "../support/harnesses/fake-openai-responses.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude, runContext, setupClaude } from "../support/harnesses/run-claude.js";
import { runCodex } from "../support/harnesses/run-codex.js";
import { runGemini } from "../support/harnesses/run-gemini.js";
import { killAllHarnesses } from "../support/harnesses/run-harness.js";

const REASON = "no agent sessions in this folder";

const folders: string[] = [];
afterEach(() => killAllHarnesses());
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A project whose config ends every session at its start: a Claude Code SessionStart hook
 * (run by hookwise through `claude_hooks`, for any harness) answers `continue: false`.
 */
function stoppingProject(name: string): { cwd: string; home: string } {
  const folder = mkdtempSync(join(tmpdir(), `hookwise-held-${name}-`));
  folders.push(folder);
  const cwd = join(folder, "project");
  const home = join(folder, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const script = join(folder, "stop-session.mjs");
  writeFileSync(
    script,
    `process.stdout.write(JSON.stringify({ continue: false, stopReason: ${JSON.stringify(REASON)} }));\n`,
  );
  const guards = { hooks: { SessionStart: [{ hooks: [{ type: "command", command: `node ${script}` }] }] } };
  writeFileSync(join(folder, "guards.json"), JSON.stringify(guards));
  writeFileSync(
    join(cwd, "hookwise.yaml"),
    `harness: [claude, codex, gemini]\nclaude_hooks: ${join(folder, "guards.json")}\nruntime:\n  state: { kind: sqlite, path: ${join(folder, "state.db")} }\n`,
  );
  return { cwd, home };
}

function setupGemini(cwd: string, home: string): void {
  execFileSync(process.execPath, [...CLI, "setup", "gemini", "hookwise.yaml"], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    stdio: "pipe",
  });
}

const geminiShell = (command: string) => ({ tool: "run_shell_command", input: { command } });

describe.skipIf(!harnesses.available)(
  `Gemini CLI ${harnesses.versions.gemini}: a session hookwise ended at SessionStart`,
  () => {
    it("setup's entries: the prompt is refused, so the model is never asked and the command never runs; the user reads why", async () => {
      const { cwd, home } = stoppingProject("gemini-prompt");
      setupGemini(cwd, home);
      const settings = JSON.parse(readFileSync(join(cwd, ".gemini", "settings.json"), "utf8"));
      expect(Object.keys(settings.hooks)).toEqual(
        expect.arrayContaining(["SessionStart", "BeforeAgent", "BeforeTool"]),
      );
      const fake = await startFakeGemini([geminiShell("echo ran > ran.txt"), { text: "Done." }]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Run it.", fake, timeoutMs: 170_000 });
        const context = runContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
        expect(fake.turnRequests().length, context).toBe(0);
        expect(`${result.stdout}\n${result.stderr}`, context).toContain(REASON);
      } finally {
        await fake.close();
      }
    }, 200_000);

    it("entries for SessionStart and BeforeTool only: the first tool call does not run, and the model reads why", async () => {
      const { cwd, home } = stoppingProject("gemini-tool");
      setupGemini(cwd, home);
      // Hook entries written by hand, without BeforeAgent: the prompt reaches the model.
      const file = join(cwd, ".gemini", "settings.json");
      const settings = JSON.parse(readFileSync(file, "utf8"));
      delete settings.hooks.BeforeAgent;
      writeFileSync(file, JSON.stringify(settings, null, 2));
      const fake = await startFakeGemini([geminiShell("echo ran > ran.txt"), { text: "Done." }]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Run it.", fake, timeoutMs: 170_000 });
        const context = runContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
        const turns = fake.turnRequests();
        expect(turns.length, context).toBe(2);
        expect(turns[0]!.text, context).not.toContain(REASON);
        expect(turns[1]!.text, context).toContain(
          "hookwise stopped this session at its start (SessionStart)",
        );
        expect(turns[1]!.text, context).toContain(REASON);
      } finally {
        await fake.close();
      }
    }, 200_000);
  },
);

describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude}: a session hookwise ended at SessionStart`,
  () => {
    it("the prompt is blocked: the model is never asked, the command never runs, and the user reads why", async () => {
      const { cwd, home } = stoppingProject("claude");
      setupClaude(CLI, cwd, home);
      const fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "echo ran > ran.txt", description: "run" } },
        { text: "Done." },
      ]);
      try {
        const result = await runClaude({ cwd, home, fake, prompt: "Run it.", timeoutMs: 170_000 });
        const context = runContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
        expect(fake.turnRequests().length, context).toBe(0);
        expect(`${result.stdout}\n${result.stderr}`, context).toContain(REASON);
      } finally {
        await fake.close();
      }
    }, 200_000);
  },
);

describe.skipIf(!harnesses.available)(
  `Codex CLI ${harnesses.versions.codex}: a session hookwise ended at SessionStart`,
  () => {
    // Codex honours a SessionStart hook's continue: false itself: the session ends there.
    it("the session ends at its start: the model is never asked, the command never runs", async () => {
      const { cwd, home } = stoppingProject("codex");
      execFileSync(process.execPath, [...CLI, "setup", "codex", "hookwise.yaml", "--no-trust"], {
        cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
        stdio: "pipe",
      });
      const fake = await startFakeOpenAiResponses([
        { tool: "exec_command", input: { cmd: "echo ran > ran.txt" } },
        { text: "Done." },
      ]);
      try {
        const result = await runCodex({ cwd, home, prompt: "Run it.", fake, timeoutMs: 170_000 });
        const context = runContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
        expect(fake.turnRequests().length, context).toBe(0);
        expect(result.stderr, context).toContain("hook: SessionStart Stopped");
      } finally {
        await fake.close();
      }
    }, 200_000);
  },
);
