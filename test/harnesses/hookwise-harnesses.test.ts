/**
 * hookwise guarding the real Claude Code, Codex CLI and Gemini CLI, offline: `hookwise setup
 * <harness> hookwise.yaml` writes the harness's hook entries (the CLI as built for the package),
 * and one session per harness has the fake model call the shell four times. The config's hooks
 * decide each call in a `hookwise hook` process of its own:
 *
 * - `echo forbidden …` is gated: it never runs, and the model reads the reason next;
 * - `echo rewrite-me …` is rewritten by transform_params: the rewritten command runs instead;
 * - `echo limited …` twice, gated with `max_fires: 1`: the first is refused, the second runs —
 *   the count lives in the config's store across the separate hook processes of one session.
 */
import { execFile, execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import { startFakeGemini } from "../support/harnesses/fake-gemini.js";
import type { FakeModelServer, FakeTurn } from "../support/harnesses/fake-model-server.js";
import { startFakeOpenAiResponses } from "../support/harnesses/fake-openai-responses.js";
import { type HarnessName, harnesses } from "../support/harnesses/install.js";
import { runClaude } from "../support/harnesses/run-claude.js";
import { runCodex, writeCodexConfig } from "../support/harnesses/run-codex.js";
import { runGemini } from "../support/harnesses/run-gemini.js";
import { type HarnessResult, killAllHarnesses } from "../support/harnesses/run-harness.js";

const root = resolve(import.meta.dirname, "../..");
const forbiddenReason = "hookwise-policy: commands containing forbidden are not allowed";
const limitedReason = "hookwise-policy: the first limited command is refused";

const CONFIG = `harness: [claude, codex, gemini]
runtime:
  hooks:
    - id: no-forbidden
      on: tool_call
      condition: { type: expression, expr: 'has(args.command) && args.command.contains("forbidden")' }
      action: { type: gate, reason: "${forbiddenReason}" }
    - id: rewrite-marked
      on: tool_call
      condition: { type: expression, expr: 'has(args.command) && args.command.contains("rewrite-me")' }
      action: { type: transform_params, transformation: { set: { command: "echo rewritten > rewritten.txt" } } }
    - id: limited-once
      on: tool_call
      condition: { type: expression, expr: 'has(args.command) && args.command.contains("limited")' }
      action: { type: gate, reason: "${limitedReason}" }
      max_fires: 1
`;

const COMMANDS = [
  "echo forbidden > denied.txt",
  "echo rewrite-me > original.txt",
  "echo limited > limited-1.txt",
  "echo limited > limited-2.txt",
];

let built: string | undefined;
const sessions: Partial<Record<HarnessName, Promise<Session>>> = {};
const folders: string[] = [];

beforeAll(() => {
  if (!harnesses.available) return;
  // The CLI as it ships (the sources through tsx take seconds more for every hook call).
  mkdirSync(join(root, "test-artifacts"), { recursive: true });
  built = mkdtempSync(join(root, "test-artifacts", "built-harnesses-"));
  execFileSync(
    process.execPath,
    [join(root, "node_modules/tsdown/dist/run.mjs"), "--out-dir", built, "--no-dts", "--log-level", "error"],
    { cwd: root, stdio: "pipe" },
  );
  // The three sessions at once: each waits mostly on its harness and its hook processes.
  for (const harness of ["claude", "codex", "gemini"] as const) {
    const running = session(harness);
    running.catch(() => {}); // a failed session fails its own harness's tests, below
    sessions[harness] = running;
  }
}, 180_000);

afterAll(async () => {
  killAllHarnesses();
  // A run filtered to other tests never awaits the sessions: their folders are written until they end.
  await Promise.allSettled(Object.values(sessions));
  if (built) rmSync(built, { recursive: true, force: true });
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}, 60_000);

interface Session {
  readonly cwd: string;
  readonly result: HarnessResult;
  readonly fake: FakeModelServer;
  readonly context: string;
}

const turnsFor: Record<HarnessName, (command: string) => FakeTurn> = {
  claude: (command) => ({ tool: "Bash", input: { command, description: "run it" } }),
  codex: (command) => ({ tool: "exec_command", input: { cmd: command } }),
  gemini: (command) => ({ tool: "run_shell_command", input: { command } }),
};

const starters = { claude: startFakeAnthropic, codex: startFakeOpenAiResponses, gemini: startFakeGemini };
const runners = { claude: runClaude, codex: runCodex, gemini: runGemini };

/** Sets a project up with `hookwise setup`, then runs one session of the harness in it. */
async function session(harness: HarnessName): Promise<Session> {
  const folder = mkdtempSync(join(tmpdir(), `hookwise-${harness}-`));
  folders.push(folder);
  const cwd = join(folder, "project");
  const home = join(folder, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(cwd, "hookwise.yaml"), CONFIG);
  const { stdout: setup } = await promisify(execFile)(
    process.execPath,
    // Codex's trust in the entries is tested on its own below; this session bypasses it.
    [
      join(built!, "cli.mjs"),
      "setup",
      harness,
      "hookwise.yaml",
      ...(harness === "codex" ? ["--no-trust"] : []),
    ],
    { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home }, encoding: "utf8" },
  );
  const fake = await starters[harness]([...COMMANDS.map(turnsFor[harness]), { text: "Done." }]);
  try {
    const result = await runners[harness]({ cwd, home, prompt: "Run the four commands.", fake });
    const context = `setup: ${setup}\nexit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}; files: ${readdirSync(cwd).join(", ")}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
    return { cwd, result, fake, context };
  } finally {
    await fake.close();
  }
}

const ran = (s: Session, file: string) => existsSync(join(s.cwd, file));

for (const harness of ["claude", "codex", "gemini"] as const) {
  describe.skipIf(!harnesses.available)(`hookwise guarding ${harness} ${harnesses.versions[harness]}`, () => {
    let s: Session;
    beforeAll(async () => {
      s = await sessions[harness]!;
    }, 240_000);

    it("the session ends normally", () => {
      expect(s.result.timedOut, s.context).toBe(false);
      expect(s.result.exitCode, s.context).toBe(0);
    });

    it("a gated command does not run, and the model reads the reason in its next request", () => {
      expect(ran(s, "denied.txt"), s.context).toBe(false);
      const turns = s.fake.turnRequests();
      expect(turns.length, s.context).toBe(5);
      expect(turns[0]!.text).not.toContain(forbiddenReason);
      expect(turns[1]!.text).toContain(forbiddenReason);
    });

    // Codex applies a PreToolUse hook's updatedInput only with permissionDecision "allow".
    it("transform_params changes the command that runs", () => {
      expect(ran(s, "original.txt"), s.context).toBe(false);
      expect(ran(s, "rewritten.txt"), s.context).toBe(true);
    });

    it("max_fires: 1 holds over the session: the first limited command is refused, the second runs", () => {
      expect(ran(s, "limited-1.txt"), s.context).toBe(false);
      expect(ran(s, "limited-2.txt"), s.context).toBe(true);
      expect(s.fake.turnRequests()[3]!.text).toContain(limitedReason);
    });
  });
}

describe.skipIf(!harnesses.available)(
  `hookwise setup codex, Codex ${harnesses.versions.codex} without --dangerously-bypass-hook-trust`,
  () => {
    // Codex runs a hook only once its hash is trusted (hooks.state in config.toml; see
    // test/fixtures/harnesses/README.md) and silently skips it otherwise: hookwise setup
    // records that trust for its own entries, through Codex's own listing of them.
    /** Sets up hookwise for Codex (with `setupArgs`), runs a forbidden command. */
    async function forbiddenRun(
      setupArgs: string[] = [],
    ): Promise<{ cwd: string; home: string; setup: string; result: HarnessResult }> {
      const folder = mkdtempSync(join(tmpdir(), "hookwise-codex-trust-"));
      folders.push(folder);
      const cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, "hookwise.yaml"), CONFIG);
      const fake = await startFakeOpenAiResponses([turnsFor.codex(COMMANDS[0]!), { text: "Done." }]);
      try {
        writeCodexConfig(home, fake.origin, cwd);
        const setup = await promisify(execFile)(
          process.execPath,
          [join(built!, "cli.mjs"), "setup", "codex", "hookwise.yaml", ...setupArgs],
          {
            cwd,
            env: {
              PATH: `${dirname(harnesses.bin.codex)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
              HOME: home,
              CODEX_HOME: join(home, ".codex"),
            },
          },
        );
        const result = await runCodex({
          cwd,
          home,
          prompt: "Run it.",
          fake,
          keepConfig: true,
          bypassHookTrust: false,
        });
        return { cwd, home, setup: setup.stdout, result };
      } finally {
        await fake.close();
      }
    }

    it("hookwise setup records Codex's trust in its entries: a gated command does not run", async () => {
      const { cwd, home, setup, result } = await forbiddenRun();
      expect(setup).toContain("Codex trusts the 1 entry of hookwise setup");
      const toml = readFileSync(join(home, ".codex", "config.toml"), "utf8");
      expect(toml).toContain(`[hooks.state.${JSON.stringify(`${cwd}/.codex/hooks.json:pre_tool_use:0:0`)}]`);
      expect(result.timedOut).toBe(false);
      expect(existsSync(join(cwd, "denied.txt"))).toBe(false);
    }, 180_000);

    it("with --no-trust Codex skips the entries it was not told to trust, as it does any unreviewed hook", async () => {
      const { cwd, result } = await forbiddenRun(["--no-trust"]);
      expect(result.timedOut).toBe(false);
      expect(existsSync(join(cwd, "denied.txt"))).toBe(true);
    }, 180_000);
  },
);

describe.skipIf(!harnesses.available)(
  `hookwise answers Codex ${harnesses.versions.codex} only what it takes`,
  () => {
    /** A project whose hookwise.yaml guards Codex with `policies` (YAML list items), set up by hookwise setup. */
    async function codexProject(name: string, policies: string): Promise<{ cwd: string; home: string }> {
      const folder = mkdtempSync(join(tmpdir(), `hookwise-codex-${name}-`));
      folders.push(folder);
      const cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, "hookwise.yaml"), `harness: codex\nruntime:\n  policies:\n${policies}`);
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
      await promisify(execFile)(
        process.execPath,
        [join(built!, "cli.mjs"), "setup", "codex", "hookwise.yaml", "--no-trust"],
        { cwd, env },
      );
      return { cwd, home };
    }

    const codexContext = (result: { exitCode: number | null; stderr: string }, cwd: string) =>
      `exit ${result.exitCode}; files: ${readdirSync(cwd).join(", ")}\nstderr: ${result.stderr.slice(-3000)}`;

    // Codex takes an answer it does not support (a PreToolUse `ask`, a bare `allow`) as the
    // hook's failure and runs the call as if no hook had spoken: an ask must refuse the call.
    it("an ask_user policy refuses the call, and the model reads why; an allow policy lets its call run", async () => {
      const { cwd, home } = await codexProject(
        "ask",
        `    - { decision: ask_user, tool: shell, when: 'args.command.contains("deploy")', reason: "deploys need a human" }
    - { decision: allow, tool: shell, when: 'args.command.contains("allowed")' }
`,
      );
      const fake = await startFakeOpenAiResponses([
        turnsFor.codex("echo deploy > asked.txt"),
        turnsFor.codex("echo allowed > allowed.txt"),
        { text: "Done." },
      ]);
      try {
        const result = await runCodex({ cwd, home, prompt: "Deploy.", fake });
        const context = codexContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "asked.txt")), context).toBe(false);
        expect(fake.turnRequests()[1]?.text, context).toContain("deploys need a human");
        expect(existsSync(join(cwd, "allowed.txt")), context).toBe(true);
        expect(result.stderr, context).not.toContain("PreToolUse Failed");
      } finally {
        await fake.close();
      }
    }, 180_000);

    // Codex takes a deny whose reason is blank as the hook's failure, and runs the call.
    it("a deny policy whose reason is blank still refuses the call", async () => {
      const { cwd, home } = await codexProject(
        "blank",
        `    - { decision: deny, tool: shell, when: 'args.command.contains("deploy")', reason: "  " }
`,
      );
      const fake = await startFakeOpenAiResponses([
        turnsFor.codex("echo deploy > denied.txt"),
        { text: "Done." },
      ]);
      try {
        const result = await runCodex({ cwd, home, prompt: "Deploy.", fake });
        const context = codexContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "denied.txt")), context).toBe(false);
        expect(result.stderr, context).not.toContain("PreToolUse Failed");
      } finally {
        await fake.close();
      }
    }, 180_000);
  },
);

describe.skipIf(!harnesses.available)(
  `hookwise answers Gemini CLI ${harnesses.versions.gemini} only what it takes`,
  () => {
    /** A project whose hookwise.yaml (`config`) guards Gemini CLI, set up by hookwise setup. */
    async function geminiProject(name: string, config: string): Promise<{ cwd: string; home: string }> {
      const folder = mkdtempSync(join(tmpdir(), `hookwise-gemini-${name}-`));
      folders.push(folder);
      const cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, "hookwise.yaml"), `harness: gemini\nruntime:\n${config}`);
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
      await promisify(execFile)(
        process.execPath,
        [join(built!, "cli.mjs"), "setup", "gemini", "hookwise.yaml"],
        {
          cwd,
          env,
        },
      );
      return { cwd, home };
    }

    // Gemini CLI reads no new result from an AfterTool hook (no `tool_output`; see
    // packages/core/src/core/coreToolHookTriggers.ts): a rewritten result it was sent there
    // never reached the model, which read the tool's own output.
    it("a rewritten tool result is what the model reads next", async () => {
      const { cwd, home } = await geminiProject(
        "result",
        `  hooks:
    - id: reviewed
      on: tool_result
      action: { type: transform_result, transformation: { append_to_result: " hookwise-reviewed-it" } }
`,
      );
      const fake = await startFakeGemini([turnsFor.gemini("echo tool-said-this"), { text: "Done." }]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Run it.", fake });
        const context = `exit ${result.exitCode}; stderr: ${result.stderr.slice(-3000)}`;
        expect(result.timedOut, context).toBe(false);
        const next = fake.turnRequests()[1]?.text ?? "";
        expect(next, context).toContain("tool-said-this");
        expect(next, context).toContain("hookwise-reviewed-it");
      } finally {
        await fake.close();
      }
    }, 180_000);

    // Gemini CLI reads a hook's stdout as one JSON document (packages/core/src/hooks/hookRunner.ts):
    // anything else printed there makes the whole of it plain text, which is an allow.
    it("what a tool module prints with console.log does not cost the answer: the rewrite runs", async () => {
      const { cwd, home } = await geminiProject(
        "stdout",
        `  hooks:
    - id: audit
      on: tool_call
      action: { type: call_tool, module: audit, action: record }
    - id: rewrite
      on: tool_call
      action: { type: transform_params, transformation: { set: { command: "echo rewritten > rewritten.txt" } } }
`,
      );
      writeFileSync(
        join(cwd, "hookwise.yaml"),
        readFileSync(join(cwd, "hookwise.yaml"), "utf8").replace(
          "runtime:",
          "toolsets:\n  audit: { kind: module, path: ./audit.mjs }\nruntime:",
        ),
      );
      writeFileSync(
        join(cwd, "audit.mjs"),
        `console.log("audit module loaded");
export default { record: { description: "record", inputSchema: { type: "object" }, execute: async () => { console.log("recorded"); return "ok"; } } };
`,
      );
      const fake = await startFakeGemini([
        turnsFor.gemini("echo original > original.txt"),
        { text: "Done." },
      ]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Run it.", fake });
        const context = `exit ${result.exitCode}; files: ${readdirSync(cwd).join(", ")}; stderr: ${result.stderr.slice(-3000)}`;
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "original.txt")), context).toBe(false);
        expect(existsSync(join(cwd, "rewritten.txt")), context).toBe(true);
      } finally {
        await fake.close();
      }
    }, 180_000);

    // Gemini CLI blocks on `decision: "deny"` whatever the reason (packages/core/src/hooks/types.ts,
    // isBlockingDecision), and runs an `ask` unasked under --yolo: hookwise answers a deny for both.
    it("an ask_user policy and a deny with a blank reason refuse their calls; an allow policy lets its call run", async () => {
      const { cwd, home } = await geminiProject(
        "decisions",
        `  policies:
    - { decision: ask_user, tool: shell, when: 'args.command.contains("deploy")', reason: "deploys need a human" }
    - { decision: deny, tool: shell, when: 'args.command.contains("blank")', reason: "  " }
    - { decision: allow, tool: shell, when: 'args.command.contains("allowed")' }
`,
      );
      const fake = await startFakeGemini([
        turnsFor.gemini("echo deploy > asked.txt"),
        turnsFor.gemini("echo blank > blank.txt"),
        turnsFor.gemini("echo allowed > allowed.txt"),
        { text: "Done." },
      ]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Deploy.", fake });
        const context = `exit ${result.exitCode}; files: ${readdirSync(cwd).join(", ")}; stderr: ${result.stderr.slice(-3000)}`;
        expect(result.timedOut, context).toBe(false);
        expect(existsSync(join(cwd, "asked.txt")), context).toBe(false);
        expect(fake.turnRequests()[1]?.text, context).toContain("deploys need a human");
        expect(existsSync(join(cwd, "blank.txt")), context).toBe(false);
        expect(existsSync(join(cwd, "allowed.txt")), context).toBe(true);
      } finally {
        await fake.close();
      }
    }, 180_000);
  },
);
