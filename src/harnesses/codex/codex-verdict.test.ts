/**
 * What hookwise answers Codex CLI is what Codex takes: an answer it does not support is the
 * hook's failure to Codex, which then runs the call as if no hook had spoken. The checks below
 * are the ones Codex CLI 0.171 makes of a PreToolUse, PostToolUse and PermissionRequest answer.
 */
import { describe, expect, it } from "vitest";
import type { HarnessEvent, HarnessVerdict } from "../types.js";
import { codexProtocol } from "./protocol.js";

/** Why Codex would take this answer as the hook's failure (undefined: it takes it). */
function codexRejects(eventName: string, stdout: string | undefined): string | undefined {
  if (!stdout) return undefined;
  const out = JSON.parse(stdout) as Record<string, any>;
  const specific = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  if (eventName === "PreToolUse" || eventName === "PermissionRequest") {
    if (out.continue === false) return "unsupported continue:false";
    if (out.stopReason !== undefined) return "unsupported stopReason";
  }
  if (eventName === "PreToolUse") {
    const decision = specific.permissionDecision;
    if (decision === "ask") return "unsupported permissionDecision:ask";
    if (decision === "allow" && specific.updatedInput === undefined)
      return "unsupported permissionDecision:allow";
    if (specific.updatedInput !== undefined && decision !== "allow") return "updatedInput without allow";
    if (decision === undefined && specific.permissionDecisionReason !== undefined)
      return "permissionDecisionReason without permissionDecision";
    if (decision === "deny" && !String(specific.permissionDecisionReason ?? "").trim())
      return "deny without a reason";
  }
  if (eventName === "PostToolUse" && specific.updatedMCPToolOutput !== undefined)
    return "unsupported updatedMCPToolOutput";
  if (eventName === "PermissionRequest" && (specific.decision as any)?.updatedInput !== undefined)
    return "unsupported updatedInput";
  return undefined;
}

function event(name: string, tool = "Bash"): HarnessEvent {
  return codexProtocol.parse({
    hook_event_name: name,
    session_id: "s1",
    cwd: "/work",
    tool_name: tool,
    tool_input: { command: "deploy" },
    tool_use_id: "call_1",
    ...(name === "PostToolUse" ? { tool_response: "raw output" } : {}),
  });
}

function answer(name: string, verdict: HarnessVerdict, tool?: string) {
  const result = codexProtocol.answer(event(name, tool), verdict);
  const json = result.stdout ? JSON.parse(result.stdout) : undefined;
  return { ...result, json, rejected: codexRejects(name, result.stdout) };
}

describe("Codex CLI's answers", () => {
  it("an ask on a tool call is refused with its reason: Codex's hooks cannot ask, and an ask would let the call run", () => {
    const asked = answer("PreToolUse", { decision: "ask", reason: "deploys need a human" });
    expect(asked.rejected).toBeUndefined();
    expect(asked.json.hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "needs approval, which Codex CLI hooks cannot ask for: deploys need a human",
    });
  });

  it("a hook that ends the run refuses the call instead of sending continue: false", () => {
    const stopped = answer("PreToolUse", { decision: "none", stop: "the budget is spent" });
    expect(stopped.rejected).toBeUndefined();
    expect(stopped.json.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "the budget is spent",
    });
    const denied = answer("PreToolUse", { decision: "deny", reason: "no", stop: "done" });
    expect(denied.json.hookSpecificOutput.permissionDecisionReason).toBe("no");
    expect(denied.rejected).toBeUndefined();
  });

  it("an allow that rewrites nothing answers nothing; one that rewrites allows the new input", () => {
    expect(answer("PreToolUse", { decision: "allow", reason: "read-only" }).stdout).toBeUndefined();
    const rewritten = answer("PreToolUse", { decision: "allow", updatedInput: { command: "ls" } });
    expect(rewritten.rejected).toBeUndefined();
    expect(rewritten.json.hookSpecificOutput).toMatchObject({
      permissionDecision: "allow",
      updatedInput: { command: "ls" },
    });
    const context = answer("PreToolUse", { decision: "none", reason: "noted", context: ["be careful"] });
    expect(context.rejected).toBeUndefined();
    expect(context.json.hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      additionalContext: "be careful",
    });
  });

  it("a rewritten MCP tool result replaces the output with a block, which Codex takes", () => {
    const mcp = answer(
      "PostToolUse",
      { decision: "none", updatedOutput: "[masked]" },
      "mcp__github__get_secret",
    );
    expect(mcp.rejected).toBeUndefined();
    expect(mcp.json).toMatchObject({ decision: "block", reason: "[masked]" });
  });

  it("a permission prompt: deny and allow are taken, an allow with new arguments leaves the prompt, a stop denies", () => {
    expect(
      answer("PermissionRequest", { decision: "deny", reason: "no" }).json.hookSpecificOutput.decision,
    ).toEqual({ behavior: "deny", message: "no" });
    expect(answer("PermissionRequest", { decision: "allow" }).json.hookSpecificOutput.decision).toEqual({
      behavior: "allow",
    });
    const rewritten = answer("PermissionRequest", { decision: "allow", updatedInput: { command: "ls" } });
    expect(rewritten.rejected).toBeUndefined();
    expect(rewritten.stdout).toBeUndefined();
    const stopped = answer("PermissionRequest", { decision: "none", stop: "done" });
    expect(stopped.rejected).toBeUndefined();
    expect(stopped.json.hookSpecificOutput.decision).toEqual({ behavior: "deny", message: "done" });
  });

  it("a blank reason still blocks: Codex takes a deny or a block without a non-empty reason as the hook's failure", () => {
    // A skip whose result is empty, a reason of spaces, a result rewritten to nothing.
    for (const reason of ["", "  "]) {
      const denied = answer("PreToolUse", { decision: "deny", reason });
      expect(denied.rejected).toBeUndefined();
      expect(denied.json.hookSpecificOutput.permissionDecision).toBe("deny");
      expect(answer("PostToolUse", { decision: "deny", reason }).json).toMatchObject({ decision: "block" });
      expect(answer("PostToolUse", { decision: "deny", reason }).json.reason.trim()).not.toBe("");
    }
    const emptied = answer("PostToolUse", { decision: "none", updatedOutput: "" });
    expect(emptied.json.decision).toBe("block");
    expect(emptied.json.reason).not.toContain("raw output");
    expect(emptied.json.reason.trim()).not.toBe("");
    const prompt = codexProtocol.answer(
      codexProtocol.parse({ hook_event_name: "UserPromptSubmit", session_id: "s1", prompt: "hi" }),
      { decision: "deny", reason: " " },
    );
    expect(JSON.parse(prompt.stdout!).reason.trim()).not.toBe("");
  });

  it("a refused compaction ends the run: Codex's PreCompact takes continue: false and no other field", () => {
    const compact = codexProtocol.parse({ hook_event_name: "PreCompact", session_id: "s1", trigger: "auto" });
    const universal = new Set(["continue", "stopReason", "suppressOutput", "systemMessage"]);
    for (const verdict of [
      { decision: "deny", reason: "keep the transcript" },
      { decision: "deny", reason: "hookwise: the config does not load", failed: true },
      { decision: "deny", reason: "done", stop: "done" },
    ] as HarnessVerdict[]) {
      const answered = codexProtocol.answer(compact, verdict);
      const json = JSON.parse(answered.stdout!);
      expect(
        Object.keys(json).filter((key) => !universal.has(key)),
        JSON.stringify(verdict),
      ).toEqual([]);
      expect(json.continue).toBe(false);
      expect(json.stopReason).toBe(verdict.stop ?? verdict.reason);
    }
    expect(codexProtocol.answer(compact, { decision: "none" }).stdout).toBeUndefined();
  });

  it("every decision on every tool event is one Codex takes", () => {
    const verdicts: HarnessVerdict[] = [
      { decision: "allow" },
      { decision: "allow", reason: "why" },
      { decision: "deny" },
      { decision: "ask" },
      { decision: "none" },
      { decision: "none", reason: "why" },
      { decision: "none", stop: "stop" },
      { decision: "allow", stop: "stop", updatedInput: { command: "x" } },
      { decision: "none", updatedInput: { command: "x" } },
      { decision: "ask", updatedInput: { command: "x" } },
    ];
    for (const name of ["PreToolUse", "PermissionRequest"])
      for (const verdict of verdicts)
        expect(answer(name, verdict).rejected, `${name} ${JSON.stringify(verdict)}`).toBeUndefined();
  });
});
