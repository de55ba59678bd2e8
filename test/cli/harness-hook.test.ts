/**
 * `hookwise hook`: harness events as each harness sends them, answered in its own format by a
 * config's policies and hooks, every decision recorded, fail closed on every kind of failure.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadRunRecords } from "../../src/agent/run-recorder.js";
import { hookCommand } from "../../src/cli/commands/hook-command.js";
import type { CliIO } from "../../src/cli/types.js";
import { loadConfig } from "../../src/config/load-config.js";
import { loadHarnessHooks } from "../../src/config/load-harness-hooks.js";
import { decideHarnessEvent } from "../../src/harnesses/decide-harness-event.js";
import { HARNESSES } from "../../src/harnesses/protocols.js";
import type { HarnessName } from "../../src/harnesses/types.js";
import { defineHook } from "../../src/hooks/define-hook.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { cli } from "../support/cli.js";
import { codeBlocks } from "../support/doc-blocks.js";
import { callHook, type HookCall } from "../support/hook-call.js";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(config: string): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-harness-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hookwise.yaml"), config);
  return { dir, config: join(dir, "hookwise.yaml") };
}

function hook(config: string, harness: HarnessName, input: unknown): Promise<HookCall> {
  return callHook(config, { harness }, input);
}

const GUARD = `harness: [claude, codex, gemini, cursor]
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
    - { decision: allow, tool: read_file }
    - { decision: ask_user, tool: Write }
`;

const claudePre = (input: Record<string, unknown>, tool = "Bash", session = "s1") => ({
  session_id: session,
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: tool,
  tool_input: input,
  tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
});

describe("hookwise hook --harness claude", () => {
  it("denies by policy with Claude Code's own answer, and records the decision for trace", async () => {
    const { config } = project(GUARD);
    const denied = await hook(config, "claude", claudePre({ command: "rm -rf /" }));
    expect(denied.code).toBe(0);
    expect(denied.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no recursive deletes",
      },
    });
    const loaded = await loadConfig(config, { defaultState: { kind: "sqlite", path: ".hookwise/state.db" } });
    try {
      const runs = await loadRunRecords(loaded.store, "s1");
      expect(runs).toHaveLength(1);
      expect(runs[0]!.harness).toMatchObject({ name: "claude", event: "PreToolUse", decision: "deny" });
      const call = runs[0]!.steps[0]!.calls[0]!;
      expect(call).toMatchObject({ toolName: "Bash", qualifiedName: "shell", args: { command: "rm -rf /" } });
      expect(call.hooks.map((entry) => [entry.hook, entry.effect])).toEqual([["policy", "deny"]]);
    } finally {
      await loaded.close();
    }
    const trace = await cli(["trace", config, "--session", "s1"]);
    expect(trace.stdout).toContain("denied by policy");
    expect(trace.stdout).toContain("no recursive deletes");
  });

  it("names the sessions it recorded, latest first, when trace or history is given one it does not know", async () => {
    const { config } = project(GUARD);
    await hook(config, "claude", claudePre({ command: "ls" }, "Bash", "first-session"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await hook(config, "claude", claudePre({ command: "ls" }, "Bash", "second-session"));
    await hook(config, "claude", claudePre({ command: "pwd" }, "Bash", "second-session"));
    for (const command of ["trace", "history"]) {
      const result = await cli([command, config, "--session", "typo"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /no session "typo" in the \S+ store of .*; sessions with recorded runs, latest first: second-session \(2 runs, latest \d{4}-\d\d-\d\d \d\d:\d\dZ\), first-session \(1 run, /,
      );
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      // Given none: the same list, after what to give.
      const none = await cli([command, config]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(
        /give --session ID; sessions with recorded runs, latest first: second-session \(2 runs, .*first-session \(1 run, /,
      );
    }
    const replay = await cli(["replay", config]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(
      "give either --session ID or --from file.jsonl; sessions with recorded runs, latest first: second-session (2 runs",
    );
  });

  it("answers allow only for a matching allow, and nothing when no policy decides", async () => {
    const { config } = project(GUARD);
    const read = await hook(config, "claude", claudePre({ file_path: "/tmp/a" }, "Read"));
    expect(read.json.hookSpecificOutput.permissionDecision).toBe("allow");
    const plain = await hook(config, "claude", claudePre({ command: "ls" }));
    expect(plain).toMatchObject({ code: 0, stdout: "" });
    // hookwise answered before the harness ran them: trace says who runs them, not "did not run".
    const trace = await cli(["trace", config, "--session", "s1"]);
    expect(trace.stdout).toMatch(/▶ read_file \{"file_path":"\/tmp\/a"\} — allowed: Claude Code runs it\n/);
    expect(trace.stdout).toMatch(
      /▶ shell \{"command":"ls"\} — not decided: left to Claude Code's own rules\n {6}hook policy \(tool_call, decide\) → no policy decided\n/,
    );
    expect(trace.stdout).toMatch(
      /allowed: Claude Code runs it\n {6}hook policy \(tool_call, decide\) → allow\n/,
    );
    expect(trace.stdout).not.toContain("did not run");
  });

  it("asks through Claude Code's own prompt, unless an approval_request hook answers", async () => {
    const { config } = project(GUARD);
    const asked = await hook(config, "claude", claudePre({ file_path: "/tmp/a", content: "x" }, "Write"));
    expect(asked.json.hookSpecificOutput).toMatchObject({ permissionDecision: "ask" });
    expect(asked.json.hookSpecificOutput.permissionDecisionReason).toContain("Write");
  });

  it("rewrites the input with updatedInput, checked against the tool's input", async () => {
    const { config } = project(`harness: claude
runtime:
  hooks:
    - id: quiet-npm
      on: tool_call
      condition: { type: tool_name, match: Bash }
      action: { type: transform_params, transformation: { set: { command: "npm test --silent" } } }
`);
    const answer = await hook(config, "claude", claudePre({ command: "npm test" }));
    expect(answer.json.hookSpecificOutput.updatedInput).toEqual({ command: "npm test --silent" });
    // A rewrite that breaks the tool's input is refused, and the call with it.
    const { config: broken } = project(`harness: claude
runtime:
  hooks:
    - id: drop-command
      on: tool_call
      condition: { type: tool_name, match: Bash }
      action: { type: transform_params, transformation: { remove: [command] } }
`);
    const refused = await hook(broken, "claude", claudePre({ command: "npm test" }));
    expect(refused.json.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(refused.json.hookSpecificOutput.permissionDecisionReason).toMatch(/drop-command.*failed closed/s);
  });

  it("keeps max_fires over the calls of one session, each its own process", async () => {
    const { config } = project(`harness: claude
runtime:
  hooks:
    - id: first-bash-only
      on: tool_call
      condition: { type: tool_name, match: Bash }
      max_fires: 1
      action: { type: gate, reason: "one shell command per session" }
`);
    const first = await hook(config, "claude", claudePre({ command: "ls" }, "Bash", "limited"));
    expect(first.json.hookSpecificOutput.permissionDecision).toBe("deny");
    const second = await hook(config, "claude", claudePre({ command: "ls" }, "Bash", "limited"));
    expect(second.stdout).toBe("");
    // Another session has its own count.
    const other = await hook(config, "claude", claudePre({ command: "ls" }, "Bash", "other"));
    expect(other.json.hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("runs the config's Claude Code hooks on the harness's own tool names: a matcher on Bash fires, and the script reads Bash", async () => {
    const { dir, config } = project("harness: claude\nclaude_hooks: guard-settings.json\n");
    const seen = join(dir, "seen.json");
    writeFileSync(
      join(dir, "guard-settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `cat > '${seen}'; echo "no shell here" >&2; exit 2` }],
            },
          ],
        },
      }),
    );
    const denied = await hook(config, "claude", claudePre({ command: "ls" }));
    expect(denied.json.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "no shell here",
    });
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
  });

  it("keeps a session's scratchpad across its events, and lists no keys for a session that has none", async () => {
    const { config } = project(GUARD);
    const store = new MemoryStore();
    const listed: string[] = [];
    const spied = new Proxy(store, {
      get(target, name, receiver) {
        if (name === "keys")
          return (prefix: string) => {
            listed.push(prefix);
            return target.keys(prefix);
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const hooks = await loadHarnessHooks(config, "claude", { store: spied });
    const decide = (command: string, session: string) =>
      decideHarnessEvent(HARNESSES.claude.parse(claudePre({ command }, "Bash", session)), {
        protocol: HARNESSES.claude,
        registry: hooks.registry,
        policies: hooks.policies,
        store: hooks.store,
        log: { debug() {}, info() {}, warn() {}, error() {} },
        runId: `r-${Math.random()}`,
      });
    try {
      // Nothing kept in the scratchpad: each event reads one value and lists no keys.
      expect((await decide("rm -rf /", "plain")).verdict).toMatchObject({ decision: "deny" });
      await decide("ls", "plain");
      expect(listed).toEqual([]);
      // A hook counting a session's shell calls in its scratchpad: the third is refused, in
      // that session only, each event decided as a new process would (state in the store).
      hooks.registry.register(
        defineHook({
          name: "third-shell-call",
          on: "tool_call",
          kind: "decide",
          handler(_event, context) {
            const calls = (context.scratch.session.get<number>("calls") ?? 0) + 1;
            context.scratch.session.set("calls", calls);
            return calls >= 3 ? { type: "deny", reason: "two shell calls a session" } : undefined;
          },
        }),
      );
      expect((await decide("ls", "counted")).verdict.decision).not.toBe("deny");
      expect((await decide("ls", "counted")).verdict.decision).not.toBe("deny");
      expect((await decide("ls", "counted")).verdict).toMatchObject({
        decision: "deny",
        reason: "two shell calls a session",
      });
      expect((await decide("ls", "fresh")).verdict.decision).not.toBe("deny");
      expect(listed.length).toBeGreaterThan(0);
    } finally {
      await hooks.close();
    }
  });

  it("blocks a prompt, sends a stopping agent back to work, and adds context at session start", async () => {
    const { config } = project(`harness: claude
runtime:
  hooks:
    - id: no-secrets-in-prompts
      on: user_prompt
      condition: { type: expression, expr: 'input.contains("password")' }
      action: { type: gate, reason: "do not paste passwords" }
    - id: tests-first
      on: run_end
      condition: { type: expression, expr: '!output.contains("tests pass")' }
      action: { type: gate, reason: "run the tests before you stop" }
    - id: rules
      on: session_start
      action: { type: inject_message, content: "Follow the rules in CONTRIBUTING.md" }
`);
    const prompt = await hook(config, "claude", {
      session_id: "p",
      hook_event_name: "UserPromptSubmit",
      prompt: "my password is hunter2",
    });
    expect(prompt.json).toEqual({ decision: "block", reason: "do not paste passwords" });
    const stop = await hook(config, "claude", {
      session_id: "p",
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "done",
    });
    expect(stop.json).toEqual({ decision: "block", reason: "run the tests before you stop" });
    const start = await hook(config, "claude", {
      session_id: "p",
      hook_event_name: "SessionStart",
      source: "startup",
    });
    expect(start.json.hookSpecificOutput).toEqual({
      hookEventName: "SessionStart",
      additionalContext: "Follow the rules in CONTRIBUTING.md",
    });
  });

  it("answers a permission prompt: a deny policy denies, an allow policy approves", async () => {
    const { config } = project(GUARD);
    const permission = (tool: string, input: Record<string, unknown>) => ({
      session_id: "perm",
      hook_event_name: "PermissionRequest",
      tool_name: tool,
      tool_input: input,
    });
    const denied = await hook(config, "claude", permission("Bash", { command: "rm -rf build" }));
    expect(denied.json.hookSpecificOutput.decision).toEqual({
      behavior: "deny",
      message: "no recursive deletes",
    });
    const allowed = await hook(config, "claude", permission("Read", { file_path: "x" }));
    expect(allowed.json.hookSpecificOutput.decision).toEqual({ behavior: "allow" });
    // Asking is the harness's own prompt: no answer.
    const left = await hook(config, "claude", permission("Write", { file_path: "x", content: "" }));
    expect(left.stdout).toBe("");
  });
});

describe("a harness session's evidence", () => {
  it("history lists each event with its decision, and replay shows what a changed config decides otherwise", async () => {
    const { dir, config } = project(GUARD);
    await hook(config, "claude", claudePre({ command: "rm -rf /" }, "Bash", "evidence"));
    await hook(config, "claude", claudePre({ file_path: "/tmp/a" }, "Read", "evidence"));
    const history = await cli(["history", config, "--session", "evidence"]);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain("2 hook events");
    expect(history.stdout).toMatch(/PreToolUse Bash \{"command":"rm -rf \/"\} → deny: no recursive deletes/);
    expect(history.stdout).toMatch(/PreToolUse Read .* → allow/);
    // The changed config denies every read: the recorded Read is now denied, the Bash call allowed.
    writeFileSync(
      join(dir, "changed.yaml"),
      "harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: read_file, reason: no reads }\n",
    );
    const replay = await cli(["replay", join(dir, "changed.yaml"), "--session", "evidence"]);
    expect(replay.code, replay.stderr).toBe(0);
    // hookwise answers before the harness runs a call: allowed or undecided, never "did not run".
    expect(replay.stdout).toContain(
      `shell {"command":"rm -rf /"}: denied by policy: "no recursive deletes" → not decided: left to Claude Code's own rules`,
    );
    expect(replay.stdout).toContain(
      `read_file {"file_path":"/tmp/a"}: allowed: Claude Code runs it → denied by policy: "no reads"`,
    );
    expect(replay.stdout).not.toContain("did not run");
  });
});

describe("hookwise hook fails closed", () => {
  it("blocks malformed stdin, an unknown event and a missing field with exit 2 and the reason", async () => {
    const { config } = project(GUARD);
    const garbage = await hook(config, "claude", "not json");
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain("not JSON");
    const unknown = await hook(config, "claude", { session_id: "x", hook_event_name: "PreToolUze" });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"PreToolUze" is not a Claude Code hook event');
    expect(unknown.stderr).toContain('did you mean "PreToolUse"?');
    const missing = await hook(config, "claude", {
      session_id: "x",
      hook_event_name: "PreToolUse",
      tool_input: {},
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no "tool_name"');
  });

  it("denies every call while the config does not load, naming the file, line and column", async () => {
    const { config } = project(`harness: claude
runtime:
  policies:
    - { decision: deny, tool: Bsh }
`);
    const answer = await hook(config, "claude", claudePre({ command: "ls" }));
    expect(answer.json.hookSpecificOutput.permissionDecision).toBe("deny");
    const reason = answer.json.hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toContain("hookwise.yaml:4:");
    expect(reason).toContain('"Bash"');
  });

  it("blocks a harness the config does not guard, and a hook whose condition fails", async () => {
    const { config } = project("harness: gemini\n");
    const other = await hook(config, "claude", claudePre({ command: "ls" }));
    expect(other.json.hookSpecificOutput.permissionDecisionReason).toContain("harness: [gemini, claude]");
    const { config: failing } = project(`harness: claude
runtime:
  hooks:
    - id: broken-check
      on: tool_call
      condition: { type: expression, expr: 'args.missing.deeper == 1' }
      action: { type: gate }
`);
    const answer = await hook(failing, "claude", claudePre({ command: "ls" }));
    expect(answer.json.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(answer.json.hookSpecificOutput.permissionDecisionReason).toContain("broken-check");
  });

  it("makes the event's abort signal only when a hook waits, and its abort fails the waiting hook", async () => {
    const { config } = project(GUARD);
    const hooks = await loadHarnessHooks(config, "claude", { store: new MemoryStore() });
    const controller = new AbortController();
    let made = 0;
    const decide = (command: string) =>
      decideHarnessEvent(HARNESSES.claude.parse(claudePre({ command })), {
        protocol: HARNESSES.claude,
        registry: hooks.registry,
        policies: hooks.policies,
        store: hooks.store,
        log: { debug() {}, info() {}, warn() {}, error() {} },
        runId: `r-${Math.random()}`,
        signal: () => {
          made++;
          return controller.signal;
        },
      });
    try {
      // Policies answer at once: no signal is made.
      expect((await decide("rm -rf /")).verdict).toMatchObject({ decision: "deny" });
      expect(made).toBe(0);
      // A hook that waits (for an abort only): the abort fails it, and the call is blocked.
      hooks.registry.register(
        defineHook({
          name: "waits",
          on: "tool_call",
          kind: "decide",
          handler: () => new Promise<undefined>(() => {}),
        }),
      );
      setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), 50);
      const started = Date.now();
      const { verdict } = await decide("ls");
      expect(verdict).toMatchObject({ decision: "deny", failed: true });
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(made).toBeGreaterThan(0);
    } finally {
      await hooks.close();
    }
  });

  it("blocks a call not decided within --timeout, with the reason", async () => {
    const { config, dir } = project(`harness: claude
runtime:
  state: { kind: memory }
  hooks:
    - { id: slow, on: tool_call, action: { type: shell, command: "sleep 20" } }
`);
    let stdout = "";
    const ignore = { line() {}, write() {} };
    const io: CliIO = {
      stdout: {
        line: (text) => {
          stdout += `${text}\n`;
        },
        write: (text) => {
          stdout += text;
        },
      },
      stderr: ignore,
      isTTY: false,
    };
    const input = JSON.stringify({ ...claudePre({ command: "ls" }), cwd: dir });
    const started = Date.now();
    const code = await hookCommand(
      config,
      { harness: "claude", timeout: 0.5 },
      io,
      Readable.from([Buffer.from(input)]),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("no decision within 0.5 s (--timeout)"),
    });
  });

  it("blocks a deny whose answer never reached the harness: its reader closed stdout", async () => {
    const { dir, config } = project(GUARD);
    const child = spawn(
      process.execPath,
      [
        "--import",
        pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href,
        join(ROOT, "src/cli/main.ts"),
        "hook",
        config,
        "--harness",
        "claude",
      ],
      { cwd: dir, stdio: ["pipe", "pipe", "pipe"] },
    );
    // The harness went away before the answer: the JSON deny, on exit code 0, would say nothing.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(claudePre({ command: "rm -rf /" })));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("the answer could not be written to stdout");
  });
});

describe("hookwise hook for Codex CLI, Gemini CLI and Cursor", () => {
  it("Codex: its shell tool, reported as Bash, meets the shared shell policy", async () => {
    const { config } = project(GUARD);
    const answer = await hook(config, "codex", {
      session_id: "c",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
      tool_use_id: "call_1",
      cwd: "/tmp",
    });
    expect(answer.json.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
  });

  it("Codex: a rewrite also allows the call (Codex runs updatedInput only then)", async () => {
    const { config } = project(`harness: codex
runtime:
  hooks:
    - id: quiet
      on: tool_call
      condition: { type: tool_name, match: shell }
      action: { type: transform_params, transformation: { set: { command: "npm test --silent" } } }
`);
    const answer = await hook(config, "codex", {
      session_id: "c2",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_use_id: "call_2",
    });
    expect(answer.json.hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: { command: "npm test --silent" },
    });
  });

  it("Gemini: BeforeTool deny and rewrite, AfterTool result rewrite", async () => {
    const { config } = project(`${GUARD}  hooks:
    - id: dry
      on: tool_call
      condition: { type: tool_name, match: run_shell_command }
      action: { type: transform_params, transformation: { set: { description: "checked by hookwise" } } }
    - id: mask
      on: tool_result
      action: { type: transform_result, transformation: { append_to_result: "(reviewed)" } }
`);
    const beforeTool = (command: string) => ({
      session_id: "g",
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command },
      cwd: "/tmp",
      timestamp: "2026-01-01T00:00:00Z",
    });
    const denied = await hook(config, "gemini", beforeTool("rm -rf /"));
    expect(denied.json).toEqual({ decision: "deny", reason: "no recursive deletes" });
    const rewritten = await hook(config, "gemini", beforeTool("ls"));
    expect(rewritten.json.hookSpecificOutput.tool_input).toEqual({
      command: "ls",
      description: "checked by hookwise",
    });
    const after = await hook(config, "gemini", {
      session_id: "g",
      hook_event_name: "AfterTool",
      tool_name: "run_shell_command",
      tool_input: { command: "ls" },
      tool_response: "a.txt",
    });
    expect(after.json.hookSpecificOutput.additionalContext).toContain("(reviewed)");
    // Gemini CLI's own results are objects, and it takes no new result from a hook (no
    // `tool_output`): the rewritten result is the reason of a deny, which the model reads.
    const structured = await hook(config, "gemini", {
      session_id: "g",
      hook_event_name: "AfterTool",
      tool_name: "run_shell_command",
      tool_input: { command: "ls" },
      tool_response: { llmContent: "a.txt", returnDisplay: "a.txt" },
    });
    expect(structured.json.decision).toBe("deny");
    expect(structured.json.reason).toContain("a.txt");
    expect(structured.json.reason).toContain("(reviewed)");
    expect(structured.json.hookSpecificOutput?.tool_output).toBeUndefined();
  });

  it("Cursor: beforeShellExecution answers permission with user and agent messages; a rewrite it cannot run is denied", async () => {
    const { config } = project(`${GUARD}  hooks:
    - id: pin
      on: tool_call
      condition: { type: expression, expr: 'args.command == "npm install"' }
      action: { type: transform_params, transformation: { set: { command: "npm ci" } } }
`);
    const shell = (command: string) => ({
      conversation_id: "cur",
      generation_id: "gen",
      hook_event_name: "beforeShellExecution",
      command,
      cwd: "/tmp",
      workspace_roots: ["/tmp"],
    });
    const denied = await hook(config, "cursor", shell("rm -rf /"));
    expect(denied.json).toEqual({
      permission: "deny",
      user_message: "no recursive deletes",
      agent_message: "no recursive deletes",
    });
    const rewritten = await hook(config, "cursor", shell("npm install"));
    expect(rewritten.json.permission).toBe("deny");
    expect(rewritten.json.agent_message).toContain("npm ci");
    const garbage = await hook(config, "cursor", "{");
    expect(garbage.code).toBe(2);
    expect(garbage.json).toMatchObject({ permission: "deny" });
  });
});

describe("hookwise hook for Cursor: a call it sends twice", () => {
  // Cursor asks preToolUse before every tool, and beforeShellExecution / beforeReadFile again
  // before a shell command or a file read: setup registers both, and one call is decided once.
  const config = () =>
    project(`${GUARD}    - { decision: ask_user, tool: shell, when: 'args.command.contains("deploy")', reason: "deploys need a person" }
  hooks:
    - id: audit
      on: tool_call
      action: { type: log, message: "audited {{tool.params.command}}" }
`).config;
  const pre = (input: Record<string, unknown>, generation: string, tool = "Shell") => ({
    conversation_id: "twice",
    generation_id: generation,
    hook_event_name: "preToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `t-${generation}`,
    cwd: "/tmp",
  });
  const shell = (command: string, generation: string) => ({
    conversation_id: "twice",
    generation_id: generation,
    hook_event_name: "beforeShellExecution",
    command,
    cwd: "/tmp",
  });

  it("decides a shell command once: the second event answers as the first, its hooks not run again", async () => {
    const file = config();
    const first = await hook(file, "cursor", pre({ command: "ls" }, "g1"));
    expect(first.stderr).toContain("audited ls");
    const second = await hook(file, "cursor", shell("ls", "g1"));
    expect(second.json).toEqual({});
    expect(second.stderr).not.toContain("audited");
    // The same command in another generation is another call.
    expect((await hook(file, "cursor", shell("ls", "g2"))).stderr).toContain("audited ls");
    // Either order.
    expect((await hook(file, "cursor", shell("pwd", "g3"))).stderr).toContain("audited pwd");
    expect((await hook(file, "cursor", pre({ command: "pwd" }, "g3"))).stderr).not.toContain("audited");
  });

  it("denies both events of a denied call, and asks only where Cursor enforces a question", async () => {
    const file = config();
    const denied = {
      permission: "deny",
      user_message: "no recursive deletes",
      agent_message: "no recursive deletes",
    };
    expect((await hook(file, "cursor", pre({ command: "rm -rf /" }, "g1"))).json).toEqual(denied);
    expect((await hook(file, "cursor", shell("rm -rf /", "g1"))).json).toEqual(denied);
    // Cursor takes "ask" on preToolUse without asking anyone: a shell command is left to
    // beforeShellExecution, which asks.
    expect((await hook(file, "cursor", pre({ command: "deploy" }, "g2"))).json).toEqual({});
    expect((await hook(file, "cursor", shell("deploy", "g2"))).json).toMatchObject({
      permission: "ask",
      agent_message: "deploys need a person",
    });
  });

  it("keeps the first event's decision with the credentials in its reason masked", async () => {
    const secret = "tok-twice-8c1e5a9f3b7d";
    process.env.TWICE_TEST_TOKEN = secret;
    try {
      const script = `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not with " + process.env.TWICE_TEST_TOKEN } }))`;
      const { dir, config: file } = project(`harness: cursor
claude_hooks: guards.json
`);
      writeFileSync(
        join(dir, "guards.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ hooks: [{ type: "command", command: `node -e ${JSON.stringify(script)}` }] }],
          },
        }),
      );
      const first = await hook(file, "cursor", pre({ command: "ls" }, "g1"));
      expect(first.json.permission).toBe("deny");
      const kept = join(dir, ".hookwise");
      for (const name of readdirSync(kept, { recursive: true, encoding: "utf8" })) {
        const path = join(kept, name);
        if (statSync(path).isFile()) expect(readFileSync(path).includes(secret), name).toBe(false);
      }
      // The second event still answers as the first did.
      const second = await hook(file, "cursor", shell("ls", "g1"));
      expect(second.json.permission).toBe("deny");
      expect(second.json.agent_message).toContain("not with");
    } finally {
      delete process.env.TWICE_TEST_TOKEN;
    }
  });

  it("refuses what it would ask about where Cursor cannot ask: another tool's preToolUse, a file read", async () => {
    const file = project(`harness: cursor
runtime:
  policies:
    - { decision: ask_user, tool: write_file, reason: "writes need a person" }
    - { decision: ask_user, tool: read_file, reason: "reads need a person" }
`).config;
    const write = await hook(file, "cursor", pre({ file_path: "/tmp/x", contents: "x" }, "g1", "Write"));
    expect(write.json.permission).toBe("deny");
    expect(write.json.agent_message).toContain("writes need a person");
    const read = await hook(file, "cursor", {
      conversation_id: "twice",
      generation_id: "g2",
      hook_event_name: "beforeReadFile",
      file_path: "/tmp/secret.txt",
      content: "s3cret",
    });
    expect(read.json.permission).toBe("deny");
    expect(read.json.agent_message).toContain("reads need a person");
  });

  it("decides StrReplace, Cursor's other edit, with an edit_file policy", async () => {
    const file = project(`harness: cursor
runtime:
  policies:
    - { decision: deny, tool: edit_file, when: 'args.file_path.startsWith("/etc/")', reason: "nothing under /etc" }
`).config;
    const edited = await hook(
      file,
      "cursor",
      pre({ file_path: "/etc/hosts", old_string: "a", new_string: "b" }, "g1", "StrReplace"),
    );
    expect(edited.json).toMatchObject({ permission: "deny", agent_message: "nothing under /etc" });
  });

  it("decides the tools only preToolUse reports: a write the policies deny is denied", async () => {
    const file = project(`harness: cursor
runtime:
  policies:
    - { decision: deny, tool: write_file, when: 'args.file_path.startsWith("/etc/")', reason: "nothing under /etc" }
`).config;
    const written = await hook(
      file,
      "cursor",
      pre({ file_path: "/etc/passwd", contents: "x" }, "g1", "Write"),
    );
    expect(written.json).toEqual({
      permission: "deny",
      user_message: "nothing under /etc",
      agent_message: "nothing under /etc",
    });
  });
});

describe("hookwise hook for Cursor: MCP tools by server", () => {
  // Cursor's beforeMCPExecution names the tool alone (`delete_repo`), with the server's url or
  // command: the server's name is the one of Cursor's mcp.json that has that url or command.
  const mcp = (dir: string, tool: string, source: Record<string, string>) => ({
    conversation_id: "mcp",
    generation_id: `g-${Math.random()}`,
    hook_event_name: "beforeMCPExecution",
    tool_name: tool,
    tool_input: JSON.stringify({ repo: "acme/site" }),
    workspace_roots: [dir],
    ...source,
  });
  const GITHUB = `harness: cursor
runtime:
  policies:
    - { decision: deny, tool: "mcp__github__delete_*", reason: "no deletes on github" }
`;

  it("names the tool by the server of .cursor/mcp.json with its url or command, so a policy on it decides", async () => {
    const { dir, config } = project(GITHUB);
    mkdirSync(join(dir, ".cursor"));
    writeFileSync(
      join(dir, ".cursor", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          github: { url: "https://mcp.example.test/github" },
          local: { command: "npx", args: ["-y", "local-mcp"] },
        },
      }),
    );
    const denied = await hook(
      config,
      "cursor",
      mcp(dir, "delete_repo", { url: "https://mcp.example.test/github" }),
    );
    expect(denied.json).toEqual({
      permission: "deny",
      user_message: "no deletes on github",
      agent_message: "no deletes on github",
    });
    // Another server's tool of the same name is not github's.
    expect(
      (await hook(config, "cursor", mcp(dir, "delete_repo", { command: "npx -y local-mcp" }))).json,
    ).toEqual({});
    // Cursor's own word for the server (its key in mcp.json) comes first.
    const named = await hook(
      config,
      "cursor",
      mcp(dir, "delete_repo", { mcp_server_name: "github", command: "gh-mcp" }),
    );
    expect(named.json.agent_message).toBe("no deletes on github");
  });

  it("blocks a call of a server it cannot name when the policies name MCP tools by server", async () => {
    const { dir, config } = project(GITHUB);
    const unknown = await hook(
      config,
      "cursor",
      mcp(dir, "delete_repo", { url: "https://elsewhere.test/mcp" }),
    );
    expect(unknown.json.permission).toBe("deny");
    expect(unknown.json.agent_message).toContain("which MCP server");
    // A config whose policies name no MCP server decides the call as usual.
    const plain = project(`harness: cursor
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")' }
`);
    expect(
      (
        await hook(
          plain.config,
          "cursor",
          mcp(plain.dir, "delete_repo", { url: "https://elsewhere.test/mcp" }),
        )
      ).json,
    ).toEqual({});
  });
});

describe("hookwise hook for Gemini CLI: MCP tools by server", () => {
  // Gemini CLI names an MCP tool `mcp_<server>_<tool>` (one underscore, ambiguous when the
  // server's name has one) and says which server and tool in `mcp_context`.
  const beforeTool = (tool: string, context?: Record<string, unknown>) => ({
    session_id: "gem-mcp",
    hook_event_name: "BeforeTool",
    tool_name: tool,
    tool_input: { repo: "acme/site" },
    timestamp: new Date().toISOString(),
    ...(context ? { mcp_context: context } : {}),
  });
  const config = () =>
    project(`harness: gemini
runtime:
  policies:
    - { decision: deny, tool: "mcp__github__delete_*", reason: "no deletes on github" }
    - { decision: deny, tool: "my_tracker.close_*", reason: "no closing in the tracker" }
`).config;

  it("names the tool by mcp_context's server and tool, so a policy on mcp__server__tool or server.tool decides", async () => {
    const file = config();
    const github = await hook(
      file,
      "gemini",
      beforeTool("mcp_github_delete_repo", {
        server_name: "github",
        tool_name: "delete_repo",
        command: "npx",
      }),
    );
    expect(github.json).toEqual({ decision: "deny", reason: "no deletes on github" });
    const tracker = await hook(
      file,
      "gemini",
      beforeTool("mcp_my_tracker_close_issue", { server_name: "my_tracker", tool_name: "close_issue" }),
    );
    expect(tracker.json).toEqual({ decision: "deny", reason: "no closing in the tracker" });
    // Another server's tool of the same name is not github's.
    const other = await hook(
      file,
      "gemini",
      beforeTool("mcp_gitlab_delete_repo", { server_name: "gitlab", tool_name: "delete_repo" }),
    );
    expect(other.json).toBeUndefined();
    expect(other.code).toBe(0);
  });

  it("blocks an MCP tool without mcp_context when the policies name MCP tools by server", async () => {
    const blocked = await hook(config(), "gemini", beforeTool("mcp_github_delete_repo"));
    expect(blocked.json.decision).toBe("deny");
    expect(blocked.json.reason).toContain("which MCP server");
  });
});

describe("hookwise hook for Gemini CLI: its tools under their current names", () => {
  it("a family policy decides grep_search (search_file_content's current name) and invoke_agent", async () => {
    const { config } = project(`harness: gemini
runtime:
  policies:
    - { decision: deny, tool: search_files, when: 'args.pattern.contains("password")', reason: "no hunting for passwords" }
    - { decision: deny, tool: delegate, reason: "no sub-agents" }
`);
    const call = (tool: string, input: Record<string, unknown>) => ({
      session_id: "gem-names",
      hook_event_name: "BeforeTool",
      tool_name: tool,
      tool_input: input,
      timestamp: new Date().toISOString(),
    });
    const hunting = { decision: "deny", reason: "no hunting for passwords" };
    expect((await hook(config, "gemini", call("grep_search", { pattern: "password=" }))).json).toEqual(
      hunting,
    );
    // The model may still call it by its older name, which Gemini CLI runs as the same tool.
    expect(
      (await hook(config, "gemini", call("search_file_content", { pattern: "password=" }))).json,
    ).toEqual(hunting);
    expect(
      (
        await hook(
          config,
          "gemini",
          call("invoke_agent", { agent_name: "codebase_investigator", prompt: "x" }),
        )
      ).json,
    ).toEqual({ decision: "deny", reason: "no sub-agents" });
  });
});

describe("hookwise hook for Claude Code: every tool of a family", () => {
  it("a shell policy decides Monitor and PowerShell as it decides Bash", async () => {
    const { config } = project(GUARD);
    const denied = { permissionDecision: "deny", permissionDecisionReason: "no recursive deletes" };
    const monitor = claudePre(
      { command: "rm -rf / && tail -f log", description: "watch", timeout_ms: 60_000 },
      "Monitor",
    );
    expect((await hook(config, "claude", monitor)).json.hookSpecificOutput).toMatchObject(denied);
    const powershell = claudePre({ command: "rm -rf C:/" }, "PowerShell");
    expect((await hook(config, "claude", powershell)).json.hookSpecificOutput).toMatchObject(denied);
  });

  it("an edit_file policy decides MultiEdit (older Claude Code versions) as it decides Edit", async () => {
    const { config } = project(`harness: claude
runtime:
  policies:
    - { decision: deny, tool: edit_file, when: 'args.file_path.startsWith("/etc/")', reason: "nothing under /etc" }
`);
    const edits = [{ old_string: "a", new_string: "b" }];
    const multi = await hook(config, "claude", claudePre({ file_path: "/etc/hosts", edits }, "MultiEdit"));
    expect(multi.json.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
  });
});

describe("validate with harness:", () => {
  it("checks tool names against the harness's tools, with the nearest one, and needs no model", async () => {
    const { config } = project(`harness: claude
runtime:
  policies:
    - { decision: deny, tool: Bsh }
    - { decision: deny, tool: "mcp__github__*" }
    - { decision: allow, tool: shell }
`);
    const result = await cli(["validate", config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('deny policy tool "Bsh" matches no tool');
    expect(result.stderr).toContain('did you mean "Bash"');
    expect(result.stderr).not.toContain("mcp__github");
    expect(result.stderr).not.toContain("model");
    mkdirSync(join(config, "..", "ok"), { recursive: true });
    writeFileSync(
      join(config, "..", "ok", "hookwise.yaml"),
      "harness: [claude, gemini]\nruntime:\n  policies:\n    - { decision: deny, tool: run_shell_command }\n",
    );
    const valid = await cli(["validate", join(config, "..", "ok", "hookwise.yaml")]);
    expect(valid.stdout).toContain("valid");
    expect(valid.code).toBe(0);
  });

  it("hookwise tools lists each harness's tools by both names, with their input, for a config with no model", async () => {
    const { config } = project(
      GUARD.replace("harness: [claude, codex, gemini, cursor]", "harness: [claude, gemini]"),
    );
    const result = await cli(["tools", config]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^harness Claude Code · \d+ tools \(the harness's name · the name for every harness\)\n/,
    );
    expect(result.stdout).toContain("\n  Bash · shell  { command: string, ");
    expect(result.stdout).toContain("\n  Read · read_file  { file_path: string, ");
    expect(result.stdout).toMatch(/\nharness Gemini CLI · \d+ tools/);
    expect(result.stdout).toContain("\n  run_shell_command · shell  { command: string");
    const json = JSON.parse((await cli(["tools", config, "--json"])).stdout);
    expect(json.map((entry: { harness: string }) => entry.harness)).toEqual(["claude", "gemini"]);
    expect(
      json[0].tools.find((tool: { functionName: string }) => tool.functionName === "Bash"),
    ).toMatchObject({
      qualifiedName: "shell",
      inputSchema: { required: ["command"] },
    });
  });

  it("hookwise tools on a config with no model refuses an agent it does not have, as for any config", async () => {
    const { config } = project(GUARD);
    const unknown = await cli(["tools", config, "--agent", "mian"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe('hookwise: unknown agent "mian" (agents: main); did you mean "main"?\n');
    const known = await cli(["tools", config, "--agent", "main"]);
    expect(known.code).toBe(0);
    expect(known.stdout).toContain("\n  Bash · shell  { command: string, ");
  });

  it("hookwise run and hookwise mcp refuse a config that only guards harnesses, saying why (exit 2)", async () => {
    const { config } = project(GUARD);
    const run = await cli(["run", config, "--prompt", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'hookwise: agent "main" has no model: this config guards claude, codex, gemini, cursor through hookwise hook, which needs none; to run it as an agent, declare one under models: (e.g. default: "scripted:./script.yaml") or give --model\n',
    );
    // A gateway with no toolsets would answer every client with an empty tool list.
    const mcp = await cli(["mcp", config]);
    expect(mcp.code).toBe(2);
    expect(mcp.stdout).toBe("");
    expect(mcp.stderr).toBe(
      `hookwise: ${config} declares no toolsets: hookwise mcp has no tools to serve (it guards claude, codex, gemini, cursor through hookwise hook: see hookwise setup); declare the tools to serve under toolsets: (an MCP server, an OpenAPI document or a module)\n`,
    );
  });

  it("lists each tool name it expects once, where several of a harness's tools share it", async () => {
    const { config } = project(
      "harness: gemini\nruntime:\n  policies:\n    - { decision: deny, tool: Read }\n",
    );
    const result = await cli(["validate", config]);
    expect(result.code).toBe(2);
    const expected = /expected a tool name or pattern over: ([^;]*)/.exec(result.stderr)![1]!.split(", ");
    expect(expected).toContain("search_files");
    expect(expected).toEqual([...new Set(expected)]);
    expect(result.stderr).toContain('did you mean "read_file"');
  });
});

describe("the guard of the guard (docs/harnesses.md)", () => {
  const documented = codeBlocks(join(ROOT, "docs/harnesses.md")).find((block) =>
    block.code.startsWith("# Keep the agent off its own guard"),
  )!.code;
  const denied = (answer: { json: any }) =>
    answer.json?.hookSpecificOutput?.permissionDecision === "deny" ||
    answer.json?.decision === "deny" ||
    answer.json?.permission === "deny";

  it("denies writes, edits, patches, deletes and shell commands that reach a harness's settings, the config or hookwise's state, in every harness", async () => {
    const { config } = project(documented);
    const cursorPre = (tool: string, input: Record<string, unknown>) => ({
      conversation_id: "guard",
      generation_id: `g-${tool}-${JSON.stringify(input).length}`,
      hook_event_name: "preToolUse",
      tool_name: tool,
      tool_input: input,
      tool_use_id: `t-${Math.random().toString(36).slice(2)}`,
      cwd: "/tmp",
    });
    const geminiBefore = (tool: string, input: Record<string, unknown>) => ({
      session_id: "guard",
      hook_event_name: "BeforeTool",
      tool_name: tool,
      tool_input: input,
      cwd: "/tmp",
      timestamp: "2026-01-01T00:00:00Z",
    });
    const codexPre = (tool: string, input: Record<string, unknown>) => ({
      session_id: "guard",
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
      tool_use_id: `call_${Math.random().toString(36).slice(2)}`,
      cwd: "/tmp",
    });
    const blocked: [HarnessName, unknown][] = [
      ["claude", claudePre({ file_path: "/work/app/.claude/settings.json", content: "{}" }, "Write")],
      ["claude", claudePre({ file_path: "hookwise.yaml", old_string: "deny", new_string: "allow" }, "Edit")],
      ["claude", claudePre({ command: "sed -i /PreToolUse/d .claude/settings.json" })],
      ["claude", claudePre({ command: "rm -rf .hookwise" })],
      ["gemini", geminiBefore("write_file", { file_path: "/work/app/.gemini/settings.json", content: "{}" })],
      ["gemini", geminiBefore("replace", { file_path: "/work/app/.hookwise/state.db", old_string: "a" })],
      ["cursor", cursorPre("Write", { file_path: "/work/app/.cursor/hooks.json", contents: "{}" })],
      ["cursor", cursorPre("Delete", { file_path: "/work/app/hookwise.yaml" })],
      [
        "codex",
        codexPre("apply_patch", {
          input: "*** Begin Patch\n*** Update File: .codex/hooks.json\n@@\n-a\n+b\n*** End Patch\n",
        }),
      ],
      ["codex", codexPre("Bash", { command: "cat /dev/null > hookwise.yaml" })],
    ];
    for (const [harness, event] of blocked) {
      const answer = await hook(config, harness, event);
      expect(denied(answer), `${harness} ${JSON.stringify(event)}: ${answer.stdout}${answer.stderr}`).toBe(
        true,
      );
    }
    const allowed: [HarnessName, unknown][] = [
      ["claude", claudePre({ file_path: "/work/app/src/claude.ts", content: "x" }, "Write")],
      ["claude", claudePre({ command: "ls src" })],
      ["gemini", geminiBefore("replace", { file_path: "/work/app/docs/hookwise.md", old_string: "a" })],
      [
        "codex",
        codexPre("apply_patch", {
          input: "*** Begin Patch\n*** Update File: src/codex.ts\n@@\n-a\n+b\n*** End Patch\n",
        }),
      ],
    ];
    for (const [harness, event] of allowed) {
      const answer = await hook(config, harness, event);
      expect(denied(answer), `${harness} ${JSON.stringify(event)}: ${answer.stdout}${answer.stderr}`).toBe(
        false,
      );
      expect(answer.code).toBe(0);
    }
  });
});

describe("the quick start config (docs/harnesses.md)", () => {
  const documented = codeBlocks(join(ROOT, "docs/harnesses.md")).find((block) =>
    block.code.includes("id: one-install-per-session"),
  )!.code;

  it("guards Claude Code's calls as the page says, and its npm install hook fails on no other tool", async () => {
    const { config } = project(documented);
    const read = await hook(config, "claude", claudePre({ file_path: "/work/app/src/a.ts" }, "Read", "qs"));
    expect(read.code).toBe(0);
    expect(read.stderr).toBe("");
    const write = await hook(
      config,
      "claude",
      claudePre({ file_path: "/work/app/b.ts", content: "x" }, "Write", "qs"),
    );
    expect(write.stderr).toBe("");
    const env = await hook(config, "claude", claudePre({ file_path: "/work/app/.env" }, "Read", "qs"));
    expect(env.json?.hookSpecificOutput?.permissionDecision).toBe("deny");
    const first = await hook(config, "claude", claudePre({ command: "npm install zod" }, "Bash", "qs"));
    const second = await hook(config, "claude", claudePre({ command: "npm install yaml" }, "Bash", "qs"));
    expect(first.stderr).toContain("npm install: npm install zod");
    expect(second.stderr).not.toContain("npm install yaml");
    const loaded = await loadConfig(config);
    try {
      const runs = await loadRunRecords(loaded.store, "qs");
      const errors = runs.flatMap((run) =>
        run.steps.flatMap((step) =>
          step.calls.flatMap((call) => call.hooks.filter((entry) => entry.effect === "error")),
        ),
      );
      expect(errors).toEqual([]);
    } finally {
      await loaded.close();
    }
  });
});
