/**
 * One wire, two directions: what `hookwise hook` answers Claude Code (wire.ts) is read by
 * the reader hookwise runs Claude Code hooks with (hooks/handlers/read-claude-answer.ts) as
 * the same decision, with no field it does not know; and every event the answering side
 * reads is one the running side fires.
 */
import { describe, expect, it } from "vitest";
import type { HarnessEvent, HarnessVerdict } from "../types.js";
import { CLAUDE_EVENTS } from "./hooks/events/index.js";
import { readCommandAnswer } from "./hooks/handlers/read-claude-answer.js";
import { claudeProtocol } from "./protocol.js";

function event(name: string, tool?: string): HarnessEvent {
  const payload: Record<string, unknown> = {
    hook_event_name: name,
    session_id: "s1",
    cwd: "/work",
    prompt: "go",
  };
  if (tool) Object.assign(payload, { tool_name: tool, tool_input: { command: "ls" }, tool_use_id: "t1" });
  return claudeProtocol.parse(payload);
}

/** hookwise's answer, read back as a Claude Code hook's answer. */
function roundTrip(harnessEvent: HarnessEvent, verdict: HarnessVerdict) {
  const answer = claudeProtocol.answer(harnessEvent, verdict);
  return readCommandAnswer(
    {
      exitCode: answer.exitCode,
      signal: null,
      stdout: answer.stdout ?? "",
      stderr: answer.stderr ?? "",
      timedOut: false,
    },
    5,
  );
}

describe("the Claude Code wire, answered and read", () => {
  it("a denied tool call reads as a deny with its reason", () => {
    const read = roundTrip(event("PreToolUse", "Bash"), { decision: "deny", reason: "no rm" });
    expect(read.unknownFields).toEqual([]);
    expect(read.output?.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "no rm",
    });
  });

  it("rewritten arguments and added context read as updatedInput and additionalContext", () => {
    const read = roundTrip(event("PreToolUse", "Bash"), {
      decision: "none",
      updatedInput: { command: "ls -a" },
      context: ["listed", "twice"],
    });
    expect(read.unknownFields).toEqual([]);
    expect(read.output?.hookSpecificOutput?.updatedInput).toEqual({ command: "ls -a" });
    expect(read.output?.hookSpecificOutput?.additionalContext).toBe("listed\n\ntwice");
    expect(read.output?.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });

  it("an MCP tool's rewritten result reads as updatedMCPToolOutput", () => {
    const read = roundTrip(event("PostToolUse", "mcp__docs__open"), {
      decision: "none",
      updatedOutput: { text: "masked" },
    });
    expect(read.unknownFields).toEqual([]);
    expect(read.output?.hookSpecificOutput?.updatedMCPToolOutput).toEqual({ text: "masked" });
  });

  it("a blocked stop and an ended run read as block and continue: false", () => {
    const blocked = roundTrip(event("Stop"), { decision: "deny", reason: "tests fail" });
    expect(blocked.output).toMatchObject({ decision: "block", reason: "tests fail" });
    const ended = roundTrip(event("UserPromptSubmit"), { decision: "none", stop: "budget spent" });
    expect(ended.unknownFields).toEqual([]);
    expect(ended.output).toMatchObject({ continue: false, stopReason: "budget spent" });
  });

  it("an approval answered with new arguments reads as PermissionRequest's decision", () => {
    const read = roundTrip(event("PermissionRequest", "Bash"), {
      decision: "allow",
      updatedInput: { command: "ls" },
    });
    expect(read.unknownFields).toEqual([]);
    expect(read.output?.hookSpecificOutput?.decision).toEqual({
      behavior: "allow",
      updatedInput: { command: "ls" },
    });
  });

  it("a refusal reads as a blocking error with its reason", () => {
    const refusal = claudeProtocol.refuse("config broken", "PreToolUse");
    const read = readCommandAnswer(
      { exitCode: refusal.exitCode, signal: null, stdout: "", stderr: refusal.stderr ?? "", timedOut: false },
      5,
    );
    expect(read).toMatchObject({ blocked: true, stderr: "config broken" });
  });

  it("every event hookwise answers is one hookwise also runs Claude Code hooks on", () => {
    const answered = Object.keys(claudeProtocol.events);
    expect(answered.filter((name) => !CLAUDE_EVENTS.has(name))).toEqual([]);
  });
});
