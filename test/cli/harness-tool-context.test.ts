/**
 * Context that hooks add at a harness's tool event reaches the harness's answer: a Claude Code
 * hook's `additionalContext` (run by hookwise through `claude_hooks`) was kept for the end of
 * a step that a harness's event does not have, and lost. On Gemini CLI, whose AfterTool deny
 * carries a rewritten result and whose model then reads the reason alone, the context goes
 * after the new result in that reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HARNESSES } from "../../src/harnesses/protocols.js";
import type { HarnessName } from "../../src/harnesses/types.js";
import { callHook, type HookCall } from "../support/hook-call.js";

const CONTEXT = "check the exit code before going on";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config whose Claude Code hook answers `additionalContext` after every tool; `runtime` beside it. */
function project(runtime = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-tool-context-"));
  dirs.push(dir);
  const answer = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: CONTEXT } };
  writeFileSync(
    join(dir, "context.mjs"),
    `process.stdout.write(${JSON.stringify(JSON.stringify(answer))});\n`,
  );
  const guards = {
    hooks: {
      PostToolUse: [
        { matcher: "*", hooks: [{ type: "command", command: `node ${join(dir, "context.mjs")}` }] },
      ],
    },
  };
  writeFileSync(join(dir, "guards.json"), JSON.stringify(guards));
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `harness: [claude, gemini]\nclaude_hooks: guards.json\nruntime:\n  state: { kind: sqlite, path: state.db }\n${runtime}`,
  );
  return join(dir, "hookwise.yaml");
}

function hook(config: string, harness: HarnessName, input: Record<string, unknown>): Promise<HookCall> {
  return callHook(config, { harness }, input);
}

const afterTool = {
  session_id: "g1",
  cwd: "/tmp",
  hook_event_name: "AfterTool",
  timestamp: "2026-11-29T00:00:00Z",
  tool_name: "run_shell_command",
  tool_input: { command: "echo hi" },
  tool_response: { llmContent: "hi", returnDisplay: "hi" },
};

describe("context hooks add at a harness's tool event", () => {
  it("Gemini CLI: a rewritten result carries the context after it, in the reason the model reads", async () => {
    const config = project(`  hooks:
    - id: reviewed
      on: tool_result
      action: { type: transform_result, transformation: { append_to_result: " reviewed" } }
`);
    const answer = await hook(config, "gemini", afterTool);
    expect(answer.json.decision).toBe("deny");
    expect(answer.json.reason).toBe(`{"llmContent":"hi","returnDisplay":"hi"} reviewed\n\n${CONTEXT}`);
    // Not sent twice where Gemini CLI would read both.
    expect(answer.json.hookSpecificOutput).toBeUndefined();
  });

  it("Gemini CLI: without a rewrite, the context is AfterTool's additionalContext", async () => {
    const answer = await hook(project(), "gemini", afterTool);
    expect(answer.json).toEqual({
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: CONTEXT },
    });
  });

  it("Claude Code: a PostToolUse hook's additionalContext is in hookwise's answer", async () => {
    const answer = await hook(project(), "claude", {
      session_id: "c1",
      transcript_path: "/tmp/t.jsonl",
      cwd: "/tmp",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      tool_response: { stdout: "hi", stderr: "" },
      tool_use_id: "t1",
    });
    expect(answer.json).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: CONTEXT },
    });
  });

  it("Gemini CLI's answer: a rewrite to nothing still says so, with the context after it", () => {
    const event = HARNESSES.gemini.parse(afterTool);
    const answer = HARNESSES.gemini.answer(event, {
      decision: "none",
      updatedOutput: " ",
      context: ["a", "b"],
    });
    expect(JSON.parse(answer.stdout!)).toEqual({
      decision: "deny",
      reason: "(hookwise replaced this tool's output with nothing)\n\na\n\nb",
    });
  });
});
