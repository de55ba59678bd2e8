/**
 * A session hookwise stopped where the harness goes on with it stays stopped: Claude Code and
 * Gemini CLI start a session whatever a SessionStart hook answers, and Gemini CLI reads
 * nothing a PreCompress hook answers. The stop is kept in the config's store under the
 * session's id, and each later prompt, model request and tool call of the session is refused
 * with the reason — across hook processes, as max_fires is counted.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configEvents } from "../../src/cli/setup-entries.js";
import { decideHarnessEvent, type HarnessDispatchOptions } from "../../src/harnesses/decide-harness-event.js";
import { HARNESSES } from "../../src/harnesses/protocols.js";
import type { HarnessName } from "../../src/harnesses/types.js";
import { defineHook } from "../../src/hooks/define-hook.js";
import { flow } from "../../src/hooks/flow.js";
import { HookRegistry } from "../../src/hooks/hook-registry.js";
import { serve } from "../../src/server/serve.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { cli } from "../support/cli.js";
import { callHook, type HookCall } from "../support/hook-call.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project whose config runs `guards.json`'s Claude Code hooks, and `runtime` beside them. */
function project(guards: Record<string, unknown>, runtime = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-held-"));
  dirs.push(dir);
  writeFileSync(join(dir, "guards.json"), JSON.stringify({ hooks: guards }));
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `harness: [claude, codex, gemini, cursor]\nclaude_hooks: guards.json\nruntime:\n  state: { kind: sqlite, path: state.db }\n${runtime}`,
  );
  return join(dir, "hookwise.yaml");
}

/** A Claude Code command hook that answers `answer` as JSON on every event of `event`. */
function answering(event: string, answer: Record<string, unknown>): Record<string, unknown> {
  const script = `process.stdout.write(${JSON.stringify(JSON.stringify(answer))})`;
  return {
    [event]: [{ hooks: [{ type: "command", command: `node -e ${JSON.stringify(script)}` }] }],
  };
}

function hook(config: string, harness: HarnessName, input: Record<string, unknown>): Promise<HookCall> {
  return callHook(config, { harness }, input);
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const STOP = { continue: false, stopReason: "no sessions in this folder" };

const gemini = (session: string, name: string, fields: Record<string, unknown> = {}) => ({
  session_id: session,
  cwd: "/tmp",
  hook_event_name: name,
  timestamp: "2026-11-29T00:00:00Z",
  ...fields,
});

const claude = (session: string, name: string, fields: Record<string, unknown> = {}) => ({
  session_id: session,
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  hook_event_name: name,
  ...fields,
});

describe("a session stopped at its start stays stopped", () => {
  it("Gemini CLI: after a SessionStart that ends the session, its prompts, model requests and tool calls are refused with the reason", async () => {
    const config = project(answering("SessionStart", STOP));
    const start = await hook(config, "gemini", gemini("g1", "SessionStart", { source: "startup" }));
    expect(start.json).toMatchObject({ continue: false, stopReason: "no sessions in this folder" });

    const prompt = await hook(config, "gemini", gemini("g1", "BeforeAgent", { prompt: "list the files" }));
    expect(prompt.code).toBe(0);
    expect(prompt.json.decision).toBe("deny");
    expect(prompt.json.reason).toContain("hookwise stopped this session at its start (SessionStart)");
    expect(prompt.json.reason).toContain("no sessions in this folder");

    const call = await hook(
      config,
      "gemini",
      gemini("g1", "BeforeTool", { tool_name: "run_shell_command", tool_input: { command: "ls" } }),
    );
    expect(call.json).toMatchObject({ decision: "deny" });
    expect(call.json.reason).toContain("no sessions in this folder");

    const model = await hook(
      config,
      "gemini",
      gemini("g1", "BeforeModel", { llm_request: { messages: [] } }),
    );
    expect(model.json).toMatchObject({ decision: "deny" });

    // Another session of the same config is not stopped by it, nor is this one's end refused.
    const other = await hook(
      config,
      "gemini",
      gemini("g2", "BeforeTool", { tool_name: "run_shell_command", tool_input: { command: "ls" } }),
    );
    expect(other.stdout).toBe("");
    const end = await hook(config, "gemini", gemini("g1", "SessionEnd", { reason: "exit" }));
    expect(end.json?.decision).toBeUndefined();
  });

  it("Claude Code: a prompt is blocked and a tool call denied after a SessionStart that ended the session", async () => {
    const config = project(answering("SessionStart", STOP));
    await hook(config, "claude", claude("c1", "SessionStart", { source: "startup" }));
    const prompt = await hook(config, "claude", claude("c1", "UserPromptSubmit", { prompt: "hi" }));
    expect(prompt.json).toMatchObject({ decision: "block" });
    expect(prompt.json.reason).toContain("no sessions in this folder");
    const call = await hook(
      config,
      "claude",
      claude("c1", "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" }),
    );
    expect(call.json.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(call.json.hookSpecificOutput.permissionDecisionReason).toContain("no sessions in this folder");
    // The agent's stop is not refused: that would send it back to work.
    const stop = await hook(config, "claude", claude("c1", "Stop", { stop_hook_active: false }));
    expect(stop.json?.decision).toBeUndefined();
    // The record says the call was denied, though no hook of its own event fired.
    const trace = await cli(["trace", config, "--session", "c1"]);
    expect(trace.stdout).toMatch(/▶ shell \{"command":"ls"\} — denied: Claude Code does not run it\n/);
    expect(trace.stdout).not.toContain("not decided");
  });

  it("a credential in the reason of a stop is masked in the store and in the refusals", async () => {
    const secret = "sk-held-3f9a1c7e5b2d4680";
    process.env.HELD_TEST_API_KEY = secret;
    try {
      const script = `process.stdout.write(JSON.stringify({ continue: false, stopReason: "the key " + process.env.HELD_TEST_API_KEY + " is revoked" }))`;
      const config = project({
        SessionStart: [{ hooks: [{ type: "command", command: `node -e ${JSON.stringify(script)}` }] }],
      });
      await hook(config, "claude", claude("m1", "SessionStart", { source: "startup" }));
      const prompt = await hook(config, "claude", claude("m1", "UserPromptSubmit", { prompt: "hi" }));
      expect(prompt.json).toMatchObject({ decision: "block" });
      expect(prompt.json.reason).toContain("is revoked");
      expect(prompt.stdout).not.toContain(secret);
      const dir = dirname(config);
      for (const file of readdirSync(dir).filter((name) => name.startsWith("state.db")))
        expect(readFileSync(join(dir, file)).includes(secret), file).toBe(false);
    } finally {
      delete process.env.HELD_TEST_API_KEY;
    }
  });

  it("a session_start hook that fails holds the session stopped too (fail closed), naming the hook", async () => {
    const config = project(
      {},
      `  hooks:
    - id: broken-greeting
      on: session_start
      condition: { type: expression, expr: 'tool.name == "x"' }
      action: { type: inject_message, content: "hello" }
`,
    );
    await hook(config, "gemini", gemini("f1", "SessionStart", { source: "startup" }));
    const call = await hook(
      config,
      "gemini",
      gemini("f1", "BeforeTool", { tool_name: "run_shell_command", tool_input: { command: "ls" } }),
    );
    expect(call.json).toMatchObject({ decision: "deny" });
    expect(call.json.reason).toContain(
      'hookwise stopped this session at its start (SessionStart) by hook "broken-greeting"',
    );
  });

  it("Gemini CLI: an end decided at PreCompress (which it does not read) holds the session; a compaction refused alone does not", async () => {
    const registry = new HookRegistry();
    registry.register(
      defineHook({
        name: "too-long",
        on: "pre_compact",
        kind: "transform",
        handler: () => flow.terminate("this session ran too long"),
      }),
    );
    const options: HarnessDispatchOptions = {
      protocol: HARNESSES.gemini,
      registry,
      policies: [],
      store: new MemoryStore(),
      log: quiet,
      runId: "r1",
    };
    const event = (session: string, name: string, fields: Record<string, unknown> = {}) =>
      HARNESSES.gemini.parse(gemini(session, name, fields));
    const shell = { tool_name: "run_shell_command", tool_input: { command: "ls" } };
    const ended = await decideHarnessEvent(event("p1", "PreCompress", { trigger: "auto" }), options);
    expect(ended.verdict.stop).toBe("this session ran too long");
    const call = await decideHarnessEvent(event("p1", "BeforeTool", shell), options);
    expect(call.verdict).toMatchObject({ decision: "deny", hook: "too-long" });
    expect(call.verdict.reason).toContain(
      'hookwise stopped this session at PreCompress by hook "too-long": this session ran too long',
    );

    // Claude Code honours an end at PreCompact: nothing is held there.
    const claudeCompact = HARNESSES.claude.parse(claude("p1", "PreCompact", { trigger: "auto" }));
    await decideHarnessEvent(claudeCompact, { ...options, protocol: HARNESSES.claude });
    const claudeCall = HARNESSES.claude.parse(
      claude("p1", "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" }),
    );
    const claudeAnswer = await decideHarnessEvent(claudeCall, { ...options, protocol: HARNESSES.claude });
    expect(claudeAnswer.verdict.decision).toBe("none");

    const vetoed = project(
      answering("PreCompact", { decision: "block", reason: "keep the whole transcript" }),
    );
    await hook(vetoed, "gemini", gemini("p2", "PreCompress", { trigger: "auto" }));
    const after = await hook(vetoed, "gemini", gemini("p2", "BeforeTool", shell));
    expect(after.stdout).toBe("");
  });

  it("hookwise serve holds it too (POST /hooks/<harness>), and the command deciding itself reads the same hold", async () => {
    const config = project(answering("SessionStart", STOP));
    const server = await serve({ config, host: "127.0.0.1", port: 0, log: () => {} });
    try {
      const post = async (body: Record<string, unknown>) => {
        const response = await fetch(`${server.url}/hooks/claude`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as any;
      };
      expect(await post(claude("v1", "SessionStart", { source: "startup" }))).toMatchObject({
        continue: false,
      });
      const prompt = await post(claude("v1", "UserPromptSubmit", { prompt: "hi" }));
      expect(prompt).toMatchObject({ decision: "block" });
      expect(prompt.reason).toContain("hookwise stopped this session at its start (SessionStart)");
      const bash = { tool_name: "Bash", tool_input: { command: "ls" } };
      const served = await post(claude("v1", "PreToolUse", { ...bash, tool_use_id: "t1" }));
      expect(served.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
      // The server down, the command's own answer: the same store, the same hold.
      const local = await hook(config, "claude", claude("v1", "PreToolUse", { ...bash, tool_use_id: "t2" }));
      expect(local.json.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
      expect(local.json.hookSpecificOutput.permissionDecisionReason).toContain("no sessions in this folder");
    } finally {
      await server.close();
    }
  });

  it("setup registers the prompt and tool events a stopped session is refused at", async () => {
    const config = project(answering("SessionStart", STOP));
    expect(await configEvents(config, HARNESSES.gemini, undefined)).toEqual(
      expect.arrayContaining(["SessionStart", "BeforeAgent", "BeforeTool"]),
    );
    expect(await configEvents(config, HARNESSES.claude, undefined)).toEqual(
      expect.arrayContaining(["SessionStart", "UserPromptSubmit", "PreToolUse"]),
    );
  });

  it("keeps a stop 30 days, as long as the session's records", async () => {
    const config = project(answering("SessionStart", STOP));
    const dir = dirname(config);
    const { SqliteStore } = await import("../../src/state/sqlite-store.js");
    await hook(config, "claude", claude("t1", "SessionStart", { source: "startup" }));
    const day = 24 * 3600_000;
    const heldAfter = async (days: number) => {
      const store = new SqliteStore({ path: join(dir, "state.db"), now: () => Date.now() + days * day });
      try {
        return (await store.get("harness-stopped:claude:t1")) !== undefined;
      } finally {
        await store.close();
      }
    };
    expect(await heldAfter(29)).toBe(true);
    expect(await heldAfter(31)).toBe(false);
  });
});
