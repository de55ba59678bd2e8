/**
 * Claude Code settings and scripts, taken as they are (test/fixtures/claude-hooks/project:
 * a `.claude/settings.json` with bash + jq, Python and Node hooks), guarding a hookwise agent
 * driven by a scripted model — on run() and stream(). The agent's Bash tool really runs its
 * commands in a copy of the project, so a block is checked by what did not happen.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../../../test/support/surfaces.js";
import {
  createAgent,
  filesystemToolset,
  type HookLogger,
  type ModelMessage,
  type ResolvedTool,
  resolveTool,
  type ScriptStep,
  scriptedModel,
  subAgentTool,
  tool,
} from "../../../index.js";
import { transcriptFileName } from "./claude-transcripts.js";
import { type ClaudeHooksOptions, type ClaudeSettingsSource, claudeHooks } from "./index.js";

const FIXTURE = fileURLToPath(new URL("../../../../test/fixtures/claude-hooks/project/", import.meta.url));

let base: string;
let dir: string;
let warnings: string[];
const log: HookLogger = { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "hookwise-claude-"));
  dir = join(base, "project");
  cpSync(FIXTURE, dir, { recursive: true });
  warnings = [];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The agent's shell tool, as Claude Code's: it really runs the command in the project. */
function bash(): ResolvedTool {
  return resolveTool(
    "Bash",
    tool({
      description: "Runs a shell command in the project",
      inputSchema: z.object({ command: z.string(), description: z.string().optional() }),
      execute: ({ command }) => execFileSync("/bin/sh", ["-c", command], { cwd: dir, encoding: "utf8" }),
    }),
  );
}

async function agentWith(
  script: ScriptStep[],
  settings: ClaudeSettingsSource = join(dir, ".claude", "settings.json"),
  options: ClaudeHooksOptions = {},
) {
  const fs = await filesystemToolset("fs", { root: dir });
  const tools = [...fs.tools, bash()];
  const hooks = claudeHooks(settings, {
    projectDir: dir,
    tools,
    transcriptDir: join(base, "transcripts"),
    log,
    ...options,
  });
  const model = scriptedModel(script);
  return { agent: createAgent({ model, tools, hooks, logger: log }), model, hooks };
}

const runTests: ScriptStep = { toolCalls: [{ name: "Bash", args: { command: "sh run-tests.sh" } }] };

function textOf(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => ("text" in part ? part.text : JSON.stringify(part))).join("");
}

describe("a .claude/settings.json, as is, guards a hookwise agent", () => {
  it.each(SURFACES)(
    "%s: block-rm.sh (bash + jq) blocks rm -rf with exit 2; the files stay",
    async (surface) => {
      const { agent } = await agentWith([
        { toolCalls: [{ name: "Bash", args: { command: "rm -rf build" } }] },
        runTests,
        { text: "done" },
      ]);
      const { result } = await runOn(surface, agent, "clean the build");
      expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
      const blocked = result.steps[0]!.toolResults[0]!;
      expect(blocked).toMatchObject({ executed: false, isError: true });
      expect(blocked.result).toMatch(
        /denied by hook ".claude\/settings.json:PreToolUse\[0\]\[0\] block-rm.sh": Blocked by block-rm.sh: recursive force delete/,
      );
      expect(result.events).toContainEqual({
        event: "tool_call",
        hook: ".claude/settings.json:PreToolUse[0][0] block-rm.sh",
        kind: "decide",
        effect: "deny",
        toolCallId: expect.any(String),
        toolName: "Bash",
        detail: expect.stringContaining("rm -rf) is not allowed"),
      });
      // A command it does not object to runs.
      expect(result.steps[1]!.toolResults[0]).toMatchObject({ executed: true, result: "3 passed\n" });
      expect(result.outcome).toBe("completed");
    },
  );

  it.each(SURFACES)(
    "%s: protect-env.py denies reading .env via permissionDecision; the secret never reaches the model",
    async (surface) => {
      const { agent } = await agentWith([
        {
          toolCalls: [
            { name: "fs_read_file", args: { path: ".env" } },
            { name: "fs_read_file", args: { path: "CONVENTIONS.md" } },
          ],
        },
        runTests,
        { text: "done" },
      ]);
      const { result } = await runOn(surface, agent, "what is the API token?");
      const [env, conventions] = result.steps[0]!.toolResults;
      expect(env).toMatchObject({ executed: false, isError: true });
      expect(env!.result).toContain(".env holds secrets; ask the user for the value you need");
      expect(conventions).toMatchObject({ executed: true, result: expect.stringContaining("python3") });
      expect(JSON.stringify(result.messages)).not.toContain("sk-test-very-secret");
      expect(JSON.stringify(result.requests)).not.toContain("sk-test-very-secret");
      expect(result.events).toContainEqual(
        expect.objectContaining({
          hook: ".claude/settings.json:PreToolUse[1][0] protect-env.py",
          effect: "deny",
        }),
      );
    },
  );

  it.each(SURFACES)(
    "%s: rewrite-python.mjs rewrites the command via updatedInput; the rewritten command is what runs",
    async (surface) => {
      const { agent } = await agentWith([
        { toolCalls: [{ name: "Bash", args: { command: "python -c 'print(6*7)'" } }] },
        runTests,
        { text: "42" },
      ]);
      const { result } = await runOn(surface, agent, "compute");
      const ran = result.steps[0]!.toolResults[0]!;
      expect(ran).toMatchObject({
        executed: true,
        result: "42\n",
        args: { command: "python3 -c 'print(6*7)'" },
      });
      const hook = ".claude/settings.json:PreToolUse[0][1] rewrite-python.mjs";
      // The trace entry carries the rewritten arguments as its detail.
      expect(result.events).toContainEqual(
        expect.objectContaining({ event: "tool_call", hook, kind: "transform", effect: "rewriteArgs" }),
      );
      expect(result.events).toContainEqual({
        event: "tool_call",
        hook,
        kind: "decide",
        effect: "allow",
        toolCallId: expect.any(String),
        toolName: "Bash",
      });
      // The transcript keeps what the model asked for; the result records what ran.
      expect(JSON.stringify(result.messages.find((message) => message.role === "assistant"))).toContain(
        "python -c",
      );
    },
  );

  it.each(SURFACES)(
    "%s: add-context.sh's additionalContext (UserPromptSubmit) is in the model's request and the transcript",
    async (surface) => {
      const { agent, model } = await agentWith([runTests, { text: "done" }]);
      const { result } = await runOn(surface, agent, "add a test");
      const first = result.requests[0]!.messages.map(textOf);
      expect(first).toEqual([
        "add a test",
        "Conventions: Python code uses python3 and pytest. (prompt: 10 characters)",
      ]);
      expect(JSON.stringify(model.calls[0])).toContain("Conventions: Python code uses python3 and pytest.");
      expect(result.messages.map(textOf).slice(0, 2)).toEqual(first);
    },
  );

  it.each(SURFACES)(
    "%s: require-tests.py (Stop) reads the JSONL transcript and makes the agent continue once",
    async (surface) => {
      const { agent, model } = await agentWith([{ text: "done" }, runTests, { text: "tests pass; done" }]);
      const { result } = await runOn(surface, agent, "fix it");
      expect(model.calls).toHaveLength(3);
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("tests pass; done");
      const second = result.requests[1]!.messages;
      expect(second.at(-1)).toEqual({
        role: "user",
        content: "Run the tests (sh run-tests.sh) before you finish.",
      });
      const stop = ".claude/settings.json:Stop[0][0] require-tests.py";
      expect(result.events.filter((entry) => entry.hook === stop)).toEqual([
        {
          event: "run_end",
          hook: stop,
          kind: "transform",
          effect: "retry",
          detail: "Run the tests (sh run-tests.sh) before you finish.",
        },
        { event: "run_end", hook: stop, kind: "transform", effect: "continue" },
      ]);
      // The transcript the script read is Claude Code's JSONL.
      const lines = readFileSync(join(base, "transcripts", `${result.sessionId}.jsonl`), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      // prompt, context, "done", the Stop hook's feedback, the test run and its result, the answer.
      expect(lines.map((line) => line.type)).toEqual([
        "user",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      expect(lines[4].message.content).toEqual([
        { type: "tool_use", id: expect.any(String), name: "Bash", input: { command: "sh run-tests.sh" } },
      ]);
      expect(lines[5].message.content[0]).toMatchObject({
        type: "tool_result",
        content: "3 passed\n",
        is_error: false,
      });
      expect(lines[1].parentUuid).toBe(lines[0].uuid);
    },
  );
});

describe("failures: open as in Claude Code, or closed", () => {
  const crashing = (extra: Record<string, unknown> = {}): ClaudeSettingsSource => ({
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            { type: "command", command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/crash.mjs', ...extra },
          ],
        },
      ],
    },
  });
  const touch: ScriptStep = { toolCalls: [{ name: "Bash", args: { command: "echo hi > touched.txt" } }] };
  const hook = "settings:PreToolUse[0][0] crash.mjs";

  it.each(SURFACES)(
    "%s: a crashing script lets the call through by default, logged and traced",
    async (surface) => {
      const { agent } = await agentWith([touch, { text: "done" }], crashing());
      const { result } = await runOn(surface, agent, "go");
      expect(existsSync(join(dir, "touched.txt"))).toBe(true);
      expect(result.events).toContainEqual({
        event: "tool_call",
        hook,
        kind: "transform",
        effect: "fail_open",
        toolCallId: expect.any(String),
        toolName: "Bash",
        detail: expect.stringMatching(/exited with code 1: .*hook bug: cannot handle Bash/s),
      });
      expect(warnings.join("\n")).toContain("failed open");
    },
  );

  it.each(SURFACES)(
    "%s: with failure closed (the set's, or the handler's onFailure: block) the call is blocked, naming the hook",
    async (surface) => {
      for (const [settings, options] of [
        [crashing(), { failure: "closed" }],
        [crashing({ onFailure: "block" }), {}],
      ] as const) {
        const { agent } = await agentWith([touch, { text: "done" }], settings, options);
        const { result } = await runOn(surface, agent, "go");
        expect(existsSync(join(dir, "touched.txt"))).toBe(false);
        const blocked = result.steps[0]!.toolResults[0]!;
        expect(blocked).toMatchObject({ executed: false, isError: true });
        expect(blocked.result).toMatch(
          /tool not run: hook "settings:PreToolUse\[0\]\[0\] crash.mjs" on tool_call: threw: exited with code 1: .*hook bug.*\(failed closed\)/s,
        );
      }
    },
  );

  const denying = (command: string): ClaudeSettingsSource => ({
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, timeout: 5 }] }] },
  });
  const DENY = '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}';

  it.each(SURFACES)(
    "%s: a deny is read when the script exits, even if a child it left holds its output (no timeout, no pass)",
    async (surface) => {
      const settings = denying(`cat >/dev/null; sleep 30 & echo '${DENY}'; exit 0`);
      const started = Date.now();
      const { agent } = await agentWith([touch, { text: "done" }], settings);
      const { result } = await runOn(surface, agent, "go");
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(existsSync(join(dir, "touched.txt"))).toBe(false);
      expect(result.steps[0]!.toolResults[0]!.result).toMatch(
        /^tool "Bash" was denied by hook "settings:PreToolUse\[0\]\[0\][^"]*": no$/,
      );
    },
  );

  it.each(SURFACES)(
    "%s: an answer too long to be read whole blocks, even where failures are let through",
    async (surface) => {
      // A deny whose reason (e.g. the tool input it quotes) passes the 1 MiB output cap.
      const settings = denying(
        `cat >/dev/null; printf '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"'; head -c 1100000 /dev/zero | tr '\\0' x; printf '"}}'`,
      );
      const { agent } = await agentWith([touch, { text: "done" }], settings);
      const { result } = await runOn(surface, agent, "go");
      expect(existsSync(join(dir, "touched.txt"))).toBe(false);
      expect(result.steps[0]!.toolResults[0]!).toMatchObject({ executed: false });
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain("passed the size limit");
    },
  );

  async function waitFor(check: () => boolean, ms = 2_000): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error("still running");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  function alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
    } catch {
      return true;
    }
  }

  it.each(SURFACES)(
    "%s: a script hanging past its timeout is killed with everything it started; fail-closed blocks the call",
    async (surface) => {
      const pids = join(base, "pids");
      const settings: ClaudeSettingsSource = {
        env: { HANG_PIDS_FILE: pids },
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hang.sh',
                  timeout: 1,
                  onFailure: "block",
                },
              ],
            },
          ],
        },
      };
      const { agent } = await agentWith([touch, { text: "done" }], settings);
      const started = Date.now();
      const { result } = await runOn(surface, agent, "go");
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(existsSync(join(dir, "touched.txt"))).toBe(false);
      expect(result.steps[0]!.toolResults[0]!.result).toMatch(
        /hook "settings:PreToolUse\[0\]\[0\] hang.sh" on tool_call: threw: timed out after 1 s; its process group was killed \(failed closed\)/,
      );
      const [shell, helper] = readFileSync(pids, "utf8").trim().split(" ").map(Number);
      expect(shell).toBeGreaterThan(0);
      expect(helper).toBeGreaterThan(0);
      // SIGKILL went to the whole group; the kernel finishes them off within moments.
      await waitFor(() => !alive(shell!) && !alive(helper!));
    },
  );
});

describe("beyond Claude Code", () => {
  function parentWithReviewer(settings: ClaudeSettingsSource) {
    const hooks = claudeHooks(settings, { projectDir: dir, transcriptDir: join(base, "transcripts"), log });
    const reviewer = createAgent({
      name: "reviewer",
      model: scriptedModel([
        { toolCalls: [{ name: "Bash", args: { command: "rm -rf build" } }] },
        { text: "cleaned" },
      ]),
      tools: [bash()],
    });
    const model = scriptedModel([
      { toolCalls: [{ name: "agents_reviewer", args: { task: "clean up" } }] },
      { text: "delegated" },
    ]);
    return createAgent({ name: "main", model, hooks, tools: [subAgentTool(reviewer, { name: "reviewer" })] });
  }
  const blockRm = (extra: Record<string, unknown> = {}): ClaudeSettingsSource => ({
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh', ...extra }],
        },
      ],
    },
  });

  const recordEvent: ClaudeSettingsSource = {
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR"/event.json' }] },
      ],
    },
  };
  const listFiles: ScriptStep = { toolCalls: [{ name: "Bash", args: { command: "ls" } }] };

  it("transcripts go, by default, to a temp folder of the hook set's own (owner only), removed on close", async () => {
    const { agent, hooks } = await agentWith([listFiles, { text: "done" }], recordEvent, {
      transcriptDir: undefined,
    });
    await agent.run("what is here?");
    const transcript = JSON.parse(readFileSync(join(dir, "event.json"), "utf8")).transcript_path as string;
    expect(readFileSync(transcript, "utf8")).toContain("what is here?");
    expect(statSync(dirname(transcript)).mode & 0o777).toBe(0o700);
    expect(statSync(transcript).mode & 0o777).toBe(0o600);
    await hooks.close();
    expect(existsSync(dirname(transcript))).toBe(false);
  });

  it("a link planted where a session's transcript goes is not followed: what it points to is untouched", async () => {
    const shared = join(base, "shared");
    mkdirSync(shared);
    const victim = join(base, "victim.txt");
    writeFileSync(victim, "keep me");
    symlinkSync(victim, join(shared, transcriptFileName("planted")));
    const { agent } = await agentWith([listFiles, { text: "done" }], recordEvent, { transcriptDir: shared });
    await agent.run("a private question", { sessionId: "planted" });
    expect(readFileSync(victim, "utf8")).toBe("keep me");
  });

  it.each(SURFACES)("%s: the hooks govern a sub-agent's tool calls too", async (surface) => {
    const { result } = await runOn(surface, parentWithReviewer(blockRm()), "delegate");
    expect(result.outcome).toBe("completed");
    expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
  });

  it.each(SURFACES)("%s: …unless the handler is scoped self", async (surface) => {
    const { result } = await runOn(surface, parentWithReviewer(blockRm({ scope: "self" })), "delegate");
    expect(result.outcome).toBe("completed");
    expect(existsSync(join(dir, "build"))).toBe(false);
  });

  it.each(SURFACES)(
    "%s: several answers combine by hookwise's rules: rewrites chain in file order, then deny > ask > allow",
    async (surface) => {
      // Two rewriters in file order, an allow, then block-rm.sh decides on the final command.
      const echo = (json: unknown) => ({ type: "command", command: `echo '${JSON.stringify(json)}'` });
      const rewrite = (command: string) =>
        echo({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            updatedInput: { command },
            permissionDecision: "allow",
          },
        });
      const settings: ClaudeSettingsSource = {
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                rewrite("echo one"),
                { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh' },
                rewrite("rm -rf build"),
              ],
            },
          ],
        },
      };
      const { agent } = await agentWith(
        [{ toolCalls: [{ name: "Bash", args: { command: "ls" } }] }, { text: "done" }],
        settings,
      );
      const { result } = await runOn(surface, agent, "go");
      // block-rm.sh approved "echo one", but a later rewrite made it rm -rf: asked again, it denies.
      expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
      expect(result.steps[0]!.toolResults[0]!.result).toMatch(
        /denied by hook "settings:PreToolUse\[0\]\[1\] block-rm.sh"/,
      );
      expect(
        result.events
          .filter((entry) => entry.event === "tool_call")
          .map((entry) => [entry.kind, entry.effect]),
      ).toEqual([
        ["transform", "rewriteArgs"],
        ["transform", "continue"],
        ["transform", "rewriteArgs"],
        ["decide", "allow"],
        ["decide", "deny"],
      ]);
    },
  );

  it.each(SURFACES)(
    "%s: an updatedInput the tool's schema rejects fails closed; the tool does not run",
    async (surface) => {
      const settings: ClaudeSettingsSource = {
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"cmd":"echo x > touched.txt"}}}'`,
                },
              ],
            },
          ],
        },
      };
      const { agent } = await agentWith(
        [{ toolCalls: [{ name: "Bash", args: { command: "echo y > touched.txt" } }] }, { text: "done" }],
        settings,
      );
      const { result } = await runOn(surface, agent, "go");
      expect(existsSync(join(dir, "touched.txt"))).toBe(false);
      expect(result.steps[0]!.toolResults[0]!.result).toMatch(/input schema rejects.*\(failed closed\)/);
    },
  );
});

describe("timeouts", () => {
  it("a handler without a timeout gets Claude Code's default of 60 s (30 s on UserPromptSubmit, 1.5 s on SessionEnd)", () => {
    const command = { type: "command", command: "true" };
    const set = claudeHooks(
      {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [command] }],
          UserPromptSubmit: [{ hooks: [command] }],
          SessionEnd: [{ hooks: [command] }],
          Stop: [{ hooks: [{ ...command, timeout: 5 }] }],
        },
      },
      { log: { debug() {}, info() {}, warn() {}, error() {} } },
    );
    expect(set.handlers.map((handler) => [handler.claudeEvent, handler.timeoutSeconds])).toEqual([
      ["PreToolUse", 60],
      ["UserPromptSubmit", 30],
      ["SessionEnd", 1.5],
      ["Stop", 5],
    ]);
  });
});
