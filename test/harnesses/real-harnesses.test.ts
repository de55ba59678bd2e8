/**
 * The real Claude Code, Codex CLI and Gemini CLI, run offline against fake model servers, with a
 * plain command hook that denies any shell command containing "forbidden". Each session has the
 * model call the shell twice — a forbidden command, then an allowed one — and checks what really
 * happened: the forbidden command never ran (its file is absent) and the model was told the
 * hook's reason in the request that followed; the allowed one ran (its file is present); the
 * hook saw both commands.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { GEMINI_TOOLS } from "../../src/harnesses/gemini/tools.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import { startFakeGemini } from "../support/harnesses/fake-gemini.js";
import type { FakeModelServer, FakeTurn } from "../support/harnesses/fake-model-server.js";
import { startFakeOpenAiResponses } from "../support/harnesses/fake-openai-responses.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude } from "../support/harnesses/run-claude.js";
import { runCodex } from "../support/harnesses/run-codex.js";
import { runGemini } from "../support/harnesses/run-gemini.js";
import { type HarnessResult, killAllHarnesses } from "../support/harnesses/run-harness.js";

const hookScript = fileURLToPath(new URL("../support/harnesses/deny-forbidden-hook.mjs", import.meta.url));
const reason = "hookwise-test-policy: commands containing the word forbidden are not allowed";
const forbidden = "echo forbidden > denied.txt";
const allowed = "echo hi > allowed.txt";

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  killAllHarnesses();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Sandbox {
  readonly cwd: string;
  readonly home: string;
  readonly hookLog: string;
  /** The hook command line, with every path single-quoted for the shell the harness uses. */
  readonly hookCommand: string;
}

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "hookwise-harness-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const hookLog = join(root, "hook.log");
  return {
    cwd,
    home,
    hookLog,
    hookCommand: `${quote(process.execPath)} ${quote(hookScript)} ${quote(hookLog)}`,
  };
}

async function fake(
  start: (turns: readonly FakeTurn[]) => Promise<FakeModelServer>,
  turns: readonly FakeTurn[],
) {
  const server = await start(turns);
  cleanups.push(() => server.close());
  return server;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The commands the hook was asked about, in order. */
function hookedCommands(box: Sandbox): string[] {
  if (!existsSync(box.hookLog)) return [];
  return readFileSync(box.hookLog, "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { command: string }).command);
}

function expectDenyThenAllow(box: Sandbox, server: FakeModelServer, result: HarnessResult): void {
  const context = `exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}\nstdout: ${result.stdout.slice(-2000)}\nstderr: ${result.stderr.slice(-2000)}`;
  expect(result.timedOut, context).toBe(false);
  expect(hookedCommands(box), context).toEqual([forbidden, allowed]);
  // The denied command never ran; the allowed one did.
  expect(existsSync(join(box.cwd, "denied.txt")), context).toBe(false);
  expect(existsSync(join(box.cwd, "allowed.txt")), context).toBe(true);
  // The model was told why, in the request that followed the denied call, and not before.
  const turns = server.turnRequests();
  expect(turns.length, context).toBeGreaterThanOrEqual(3);
  expect(turns[0]!.text).not.toContain(reason);
  expect(turns[1]!.text).toContain(reason);
}

describe.skipIf(!harnesses.available)(`real agent harnesses, offline ${harnesses.reason}`, () => {
  it(`Claude Code ${harnesses.versions.claude}: a PreToolUse hook that exits 2 stops a Bash command and the model reads its reason`, async () => {
    const box = sandbox();
    writeJson(join(box.cwd, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: box.hookCommand, timeout: 30 }] },
        ],
      },
    });
    const server = await fake(startFakeAnthropic, [
      { tool: "Bash", input: { command: forbidden, description: "write denied.txt" } },
      { tool: "Bash", input: { command: allowed, description: "write allowed.txt" } },
      { text: "Done." },
    ]);
    const result = await runClaude({
      cwd: box.cwd,
      home: box.home,
      prompt: "Write the two files.",
      fake: server,
    });
    expectDenyThenAllow(box, server, result);
    expect(result.exitCode).toBe(0);
  }, 180_000);

  it(`Codex CLI ${harnesses.versions.codex}: a PreToolUse hook that exits 2 stops a shell command and the model reads its reason`, async () => {
    const box = sandbox();
    writeJson(join(box.cwd, ".codex", "hooks.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: box.hookCommand, timeout: 30 }] },
        ],
      },
    });
    const server = await fake(startFakeOpenAiResponses, [
      { tool: "exec_command", input: { cmd: forbidden } },
      { tool: "exec_command", input: { cmd: allowed } },
      { text: "Done." },
    ]);
    const result = await runCodex({
      cwd: box.cwd,
      home: box.home,
      prompt: "Write the two files.",
      fake: server,
    });
    expectDenyThenAllow(box, server, result);
    expect(result.exitCode).toBe(0);
  }, 180_000);

  it(`Gemini CLI ${harnesses.versions.gemini}: a BeforeTool hook that exits 2 stops run_shell_command and the model reads its reason`, async () => {
    const box = sandbox();
    writeJson(join(box.cwd, ".gemini", "settings.json"), {
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [{ type: "command", command: box.hookCommand, timeout: 30_000 }],
          },
        ],
      },
    });
    const server = await fake(startFakeGemini, [
      { tool: "run_shell_command", input: { command: forbidden } },
      { tool: "run_shell_command", input: { command: allowed } },
      { text: "Done." },
    ]);
    const result = await runGemini({
      cwd: box.cwd,
      home: box.home,
      prompt: "Write the two files.",
      fake: server,
    });
    expectDenyThenAllow(box, server, result);
    expect(result.exitCode).toBe(0);
  }, 180_000);
});

describe.skipIf(!harnesses.available)(`the tools a harness declares to its model ${harnesses.reason}`, () => {
  // `args` is the tool's input as the model wrote it, so `hookwise tools` must list the fields
  // the harness declares: a policy written from a stale list reads a field that never comes.
  // And a policy may name any of the harness's tools: validate refuses a name it does not know.
  it(`Gemini CLI ${harnesses.versions.gemini}: hookwise knows each tool it declares, with every field`, async () => {
    const box = sandbox();
    const server = await fake(startFakeGemini, [{ text: "Done." }]);
    const result = await runGemini({ cwd: box.cwd, home: box.home, prompt: "Say done.", fake: server });
    expect(result.exitCode, result.stderr.slice(-2000)).toBe(0);
    const body = server.turnRequests()[0]!.body as {
      tools: Array<{
        functionDeclarations?: Array<{ name: string; parametersJsonSchema?: any; parameters?: any }>;
      }>;
    };
    const declared = new Map(
      body.tools
        .flatMap((tool) => tool.functionDeclarations ?? [])
        .map((declaration) => [
          declaration.name,
          Object.keys((declaration.parametersJsonSchema ?? declaration.parameters)?.properties ?? {}),
        ]),
    );
    expect(declared.has("run_shell_command")).toBe(true);
    const missing: string[] = [];
    const known = new Set(GEMINI_TOOLS.map((spec) => spec.name));
    for (const name of declared.keys()) if (!known.has(name)) missing.push(name);
    for (const spec of GEMINI_TOOLS) {
      const fields = declared.get(spec.name);
      if (!fields) continue;
      const listed = Object.keys((spec.input as { properties: Record<string, unknown> }).properties);
      for (const field of fields) if (!listed.includes(field)) missing.push(`${spec.name}.${field}`);
    }
    expect(missing).toEqual([]);
  }, 180_000);
});
